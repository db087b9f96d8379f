// Typed events, as xterm.js has them (EventEmitter.ts): the owner of an Emitter<T> fires
// values, everyone else subscribes through its `event` and gets a Disposable back that ends
// the subscription. One shape for every event in baton (a pane's output, a tab's change, a
// session's draft), so any number of listeners may come and go without a single slot to
// fight over, and whoever subscribed can be made to let go. A leaf module: it imports
// nothing of baton's.

import type { Disposable } from './disposable.js';

export type Listener<T> = (value: T) => void;

/** Subscribes a listener; the Disposable returned unsubscribes it. */
export type Event<T> = (listener: Listener<T>) => Disposable;

const NOTHING: Disposable = { dispose() {} };

export class Emitter<T> implements Disposable {
  private listeners: Listener<T>[] = [];
  private disposed = false;

  /** What listeners subscribe through (handed out; fire() stays with the owner). */
  readonly event: Event<T> = (listener) => {
    if (this.disposed) return NOTHING;
    // Wrapped, so the same function subscribed twice is two subscriptions, each ended on its own.
    const entry: Listener<T> = (v) => listener(v);
    this.listeners = [...this.listeners, entry];
    let subscribed = true;
    return {
      dispose: () => {
        if (!subscribed) return;
        subscribed = false;
        this.listeners = this.listeners.filter((l) => l !== entry);
      },
    };
  };

  /** Subscriptions open now (tests use it to find listeners left behind). */
  get listenerCount(): number {
    return this.listeners.length;
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /**
   * Calls every listener subscribed when it was fired (one that unsubscribes another
   * meanwhile does not stop that one this time). A listener that throws does not keep the
   * rest from hearing it: the first error is thrown once all were called.
   */
  fire(value: T): void {
    if (this.disposed) return;
    const now = this.listeners;
    if (now.length === 1) return now[0]!(value);
    let failed = false;
    let first: unknown;
    for (const l of now) {
      try {
        l(value);
      } catch (e) {
        if (!failed) first = e;
        failed = true;
      }
    }
    if (failed) throw first;
  }

  /** Drops every listener; later subscriptions and fires do nothing. */
  dispose(): void {
    this.disposed = true;
    this.listeners = [];
  }
}
