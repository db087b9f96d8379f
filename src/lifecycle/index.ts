// Lifecycle primitives: Disposable and its owners (DisposableStore, MutableDisposable),
// typed events (Emitter<T>, Event<T>) and the one-shot timer. What every module that holds
// a listener, a timer, a watcher or a process uses to let go of it. A leaf: imports nothing
// of baton's.

export { DisposableStore, MutableDisposable, toDisposable, type Disposable } from './disposable.js';
export { Emitter, type Event, type Listener } from './emitter.js';
export { OneShotTimer } from './one-shot-timer.js';
