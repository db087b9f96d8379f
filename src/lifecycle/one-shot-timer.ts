// A one-shot timer an owner can hold as a Disposable: armed only while there is something
// to wait for, never a ticking interval. Two ways to arm it: soon() keeps an earlier arming
// (coalescing: many requests, one run) and at() moves it to a given moment (a deadline that
// changes). A leaf module: it imports nothing of baton's.

import type { Disposable } from './disposable.js';

export class OneShotTimer implements Disposable {
  private timer: NodeJS.Timeout | undefined;
  private when = Infinity;
  private disposed = false;

  /**
   * `unref`: the timer alone does not keep the process alive (for timers whose owner is
   * kept alive by something else, such as a tab's PTY).
   */
  constructor(
    private readonly fn: () => void,
    private readonly opts: { unref?: boolean; now?: () => number } = {},
  ) {}

  get armed(): boolean {
    return this.timer !== undefined;
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  /** Runs in `ms`, unless already armed to run sooner. */
  soon(ms: number): void {
    const when = this.now() + Math.max(0, ms);
    if (this.timer && this.when <= when) return;
    this.arm(when);
  }

  /** Runs at `when` (the clock of `now`, Date.now by default); undefined disarms. */
  at(when: number | undefined): void {
    if (when === undefined) return this.cancel();
    if (this.timer && this.when === when) return;
    this.arm(when);
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.when = Infinity;
  }

  private arm(when: number): void {
    if (this.disposed) return;
    this.cancel();
    this.when = when;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.when = Infinity;
        this.fn();
      },
      Math.max(0, when - this.now()),
    );
    if (this.opts.unref) this.timer.unref();
  }

  dispose(): void {
    this.disposed = true;
    this.cancel();
  }
}
