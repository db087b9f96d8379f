// Disposables, as xterm.js has them (src/common/Lifecycle.ts): anything that holds a
// resource (a listener, a timer, a watcher, a process) is a Disposable, and an owner keeps
// what it holds in a DisposableStore that ends it all in one call. A leaf module: it imports
// nothing of baton's and must never know what it disposes.

export interface Disposable {
  /** Ends what it holds. Calling it again does nothing. */
  dispose(): void;
}

/** A Disposable that runs `fn` once, on the first dispose(). */
export function toDisposable(fn: () => void): Disposable {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      fn();
    },
  };
}

/** Runs every dispose, even when one throws; the first error is thrown after all ran. */
function disposeAll(items: Iterable<Disposable>): void {
  let failed = false;
  let first: unknown;
  for (const d of items) {
    try {
      d.dispose();
    } catch (e) {
      if (!failed) first = e;
      failed = true;
    }
  }
  if (failed) throw first;
}

/**
 * What an owner holds. dispose() ends everything in it (newest first, so a thing is ended
 * before what it was built on) and anything added afterwards is ended at once: an owner
 * that is gone holds nothing.
 */
export class DisposableStore implements Disposable {
  private readonly items = new Set<Disposable>();
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** How many things it holds (for tests that look for leaks). */
  get size(): number {
    return this.items.size;
  }

  add<T extends Disposable>(d: T): T {
    if (this.disposed) d.dispose();
    else this.items.add(d);
    return d;
  }

  /** Ends `d` now and forgets it. */
  delete(d: Disposable): void {
    if (!this.items.delete(d)) return;
    d.dispose();
  }

  /** Forgets `d` without ending it (its ownership moves elsewhere). */
  release(d: Disposable): void {
    this.items.delete(d);
  }

  /** Ends everything held, but stays usable. */
  clear(): void {
    const held = [...this.items].reverse();
    this.items.clear();
    disposeAll(held);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.clear();
  }
}

/**
 * One slot: setting a value ends the one before (a subscription to whichever pane is in
 * front, say). dispose() ends the value and keeps the slot empty.
 */
export class MutableDisposable<T extends Disposable> implements Disposable {
  private current: T | undefined;
  private disposed = false;

  get value(): T | undefined {
    return this.current;
  }

  set value(v: T | undefined) {
    if (this.disposed) {
      v?.dispose();
      return;
    }
    if (v === this.current) return;
    const old = this.current;
    this.current = v;
    old?.dispose();
  }

  clear(): void {
    this.value = undefined;
  }

  dispose(): void {
    if (this.disposed) return;
    this.clear();
    this.disposed = true;
  }
}
