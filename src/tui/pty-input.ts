// Keystrokes and pastes into a PTY, in order. node-pty's own writer goes through libuv's
// thread pool (fs.write) for every keystroke, which on a busy machine adds milliseconds to
// each echo; this writes to the master fd directly. The fd is non-blocking: what the kernel
// does not take now (a large paste) is retried shortly. It never reads the PTY.
//
// A write the kernel did not take at once goes in at the pace the program reads it: a 280 KB
// message into a CLI that redraws its input box as it reads took ~20 s. How far it got is
// told (onProgress), so the tab can say baton is still typing it in; what is written after it
// (the user's keys) waits behind it in the one queue, never in its middle.

import { writeSync } from 'node:fs';
import type { InputProgress } from '../conversation/index.js';
import { Emitter, type Event } from '../lifecycle/index.js';

/**
 * What this takes of node-pty's handle: its writer, used where the build exposes no `fd`.
 * Stated here, not imported from pane.ts (node-pty's one door), which imports this module.
 */
export interface PtyWriter {
  write(data: string): void;
}

// What it tells is the conversation layer's InputProgress (a tab's terminal says the same of its input).
export type { InputProgress };

export interface PtyInputOptions {
  /**
   * A write is told only once it has taken this long. A tmux user sees nothing of a paste, and
   * most take milliseconds: a notice flashed for those would be noise. One second is when a
   * pane that shows nothing starts to look stuck (and when the user may start typing over it).
   */
  showAfterMs?: number;
  /** Then at most this often: a few times a second reads as moving without redrawing at every chunk (~4 KB). */
  everyMs?: number;
  /** The clock (tests give their own). */
  now?: () => number;
}

const SHOW_AFTER_MS = 1000;
const EVERY_MS = 250;

export class PtyInput {
  private queue: Buffer[] = [];
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly fd: number | undefined;
  /** The burst on its way in: bytes since the queue was last empty, and when it began. */
  private total = 0;
  private written = 0;
  private began = 0;
  /** It did not go in at once: its end is told. */
  private slow = false;
  private toldAt: number | undefined;
  private readonly showAfterMs: number;
  private readonly everyMs: number;
  private readonly now: () => number;
  private readonly progressEmitter = new Emitter<InputProgress>();
  /**
   * How far a write the kernel did not take at once has got: once it has taken showAfterMs,
   * at most every everyMs, and (done) when it is all in, for every such write. A write that
   * goes in at once (a keystroke, most pastes) is never told.
   */
  readonly onProgress: Event<InputProgress> = this.progressEmitter.event;

  constructor(
    private readonly pty: PtyWriter,
    opts: PtyInputOptions = {},
  ) {
    const fd = (pty as unknown as { fd?: unknown }).fd;
    this.fd = typeof fd === 'number' ? fd : undefined;
    this.showAfterMs = opts.showAfterMs ?? SHOW_AFTER_MS;
    this.everyMs = opts.everyMs ?? EVERY_MS;
    this.now = opts.now ?? Date.now;
  }

  write(data: string): void {
    if (this.closed) return;
    // Without a file descriptor (another node-pty build), node-pty's own writer it is (its progress unknown).
    if (this.fd === undefined) return this.pty.write(data);
    const buf = Buffer.from(data, 'utf8');
    if (this.queue.length === 0) {
      this.total = this.written = 0;
      this.began = this.now();
      this.toldAt = undefined;
      this.slow = false;
    }
    this.total += buf.length;
    this.queue.push(buf);
    if (this.queue.length === 1) this.flush(this.fd);
  }

  /** Input not yet written (undefined: none), counted since the queue was last empty. */
  progress(): InputProgress | undefined {
    return this.queue.length > 0 ? { written: this.written, total: this.total, done: false } : undefined;
  }

  private flush(fd: number): void {
    this.timer = undefined;
    while (this.queue.length > 0 && !this.closed) {
      const buf = this.queue[0]!;
      let n: number;
      try {
        n = writeSync(fd, buf);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EAGAIN') {
          this.slow = true;
          this.tell();
          this.timer = setTimeout(() => this.flush(fd), 2);
          return;
        }
        // EIO and friends: the program is gone; its exit is reported by the pane.
        this.queue = [];
        break;
      }
      this.written += n;
      if (n < buf.length) this.queue[0] = buf.subarray(n);
      else this.queue.shift();
    }
    if (this.slow && this.queue.length === 0) {
      this.slow = false;
      this.progressEmitter.fire({ written: this.written, total: this.total, done: true });
    }
  }

  /** Progress while the program reads slowly: once the write is old enough, then every so often. */
  private tell(): void {
    const now = this.now();
    if (now - this.began < this.showAfterMs) return;
    if (this.toldAt !== undefined && now - this.toldAt < this.everyMs) return;
    this.toldAt = now;
    this.progressEmitter.fire({ written: this.written, total: this.total, done: false });
  }

  dispose(): void {
    this.closed = true;
    this.queue = [];
    // (What was on its way in is dropped with the program: whoever heard it go on hears it end.)
    if (this.slow) this.progressEmitter.fire({ written: this.written, total: this.total, done: true });
    this.slow = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.progressEmitter.dispose();
  }
}
