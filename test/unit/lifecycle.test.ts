// src/lifecycle: the Disposable + Emitter<T> pair every listener, timer and owner in baton
// goes through. A subscription ends on dispose and only that one; an owner ends all it holds
// in one call, and anything handed to it afterwards at once; a listener that throws does not
// keep the others from hearing; the one-shot timer is armed only when asked and coalesces.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DisposableStore, Emitter, MutableDisposable, OneShotTimer, toDisposable, type Disposable } from '../../src/lifecycle/index.js';

const counted = (log: string[], name: string): Disposable => toDisposable(() => log.push(name));

const e = suite('Emitter');

e('every listener hears a value fired; a disposed subscription no longer does, the others still do', () => {
  const em = new Emitter<number>();
  const a: number[] = [];
  const b: number[] = [];
  const subA = em.event((v) => a.push(v));
  em.event((v) => b.push(v));
  em.fire(1);
  subA.dispose();
  subA.dispose();
  em.fire(2);
  assert.equal(a, [1]);
  assert.equal(b, [1, 2]);
  assert.is(em.listenerCount, 1);
});

e('the same function subscribed twice is heard twice, and each subscription ends on its own', () => {
  const em = new Emitter<string>();
  const heard: string[] = [];
  const f = (v: string) => heard.push(v);
  const first = em.event(f);
  em.event(f);
  em.fire('x');
  first.dispose();
  em.fire('y');
  assert.equal(heard, ['x', 'x', 'y']);
});

e('a listener that unsubscribes another during a fire does not stop that one this time; a new subscriber hears the next fire', () => {
  const em = new Emitter<void>();
  const log: string[] = [];
  let subB: Disposable | undefined;
  em.event(() => {
    log.push('a');
    subB?.dispose();
    em.event(() => log.push('late'));
  });
  subB = em.event(() => log.push('b'));
  em.fire();
  assert.equal(log, ['a', 'b']);
  em.fire();
  assert.equal(log, ['a', 'b', 'a', 'late']);
});

e('a listener that throws: the others are still called, then the first error is thrown', () => {
  const em = new Emitter<number>();
  const heard: number[] = [];
  em.event(() => {
    throw new Error('first');
  });
  em.event(() => {
    throw new Error('second');
  });
  em.event((v) => heard.push(v));
  assert.throws(() => em.fire(7), /first/);
  assert.equal(heard, [7]);
});

e('dispose drops every listener; later subscriptions and fires do nothing', () => {
  const em = new Emitter<number>();
  const heard: number[] = [];
  em.event((v) => heard.push(v));
  em.dispose();
  assert.is(em.listenerCount, 0);
  em.event((v) => heard.push(v)).dispose();
  em.fire(1);
  assert.equal(heard, []);
  assert.is(em.listenerCount, 0);
  assert.ok(em.isDisposed);
});

const d = suite('DisposableStore');

d('dispose ends everything held, newest first, once', () => {
  const log: string[] = [];
  const store = new DisposableStore();
  store.add(counted(log, 'a'));
  store.add(counted(log, 'b'));
  assert.is(store.size, 2);
  store.dispose();
  store.dispose();
  assert.equal(log, ['b', 'a']);
  assert.is(store.size, 0);
  assert.ok(store.isDisposed);
});

d('a thing added to a disposed owner is ended at once', () => {
  const log: string[] = [];
  const store = new DisposableStore();
  store.dispose();
  store.add(counted(log, 'late'));
  assert.equal(log, ['late']);
  assert.is(store.size, 0);
});

d('subscriptions held by a store end with it: the emitter is left with no listener', () => {
  const em = new Emitter<number>();
  const store = new DisposableStore();
  const heard: number[] = [];
  store.add(em.event((v) => heard.push(v)));
  store.add(em.event((v) => heard.push(v * 10)));
  em.fire(1);
  store.dispose();
  em.fire(2);
  assert.equal(heard, [1, 10]);
  assert.is(em.listenerCount, 0);
});

d('delete ends one thing now; release forgets it without ending it; clear ends all and stays usable', () => {
  const log: string[] = [];
  const store = new DisposableStore();
  const a = store.add(counted(log, 'a'));
  const b = store.add(counted(log, 'b'));
  store.add(counted(log, 'c'));
  store.delete(a);
  assert.equal(log, ['a']);
  store.release(b);
  store.clear();
  assert.equal(log, ['a', 'c']);
  store.add(counted(log, 'd'));
  assert.is(store.size, 1);
  store.dispose();
  assert.equal(log, ['a', 'c', 'd']);
});

d('one dispose that throws does not keep the rest from being ended', () => {
  const log: string[] = [];
  const store = new DisposableStore();
  store.add(counted(log, 'a'));
  store.add({
    dispose() {
      throw new Error('broken');
    },
  });
  store.add(counted(log, 'c'));
  assert.throws(() => store.dispose(), /broken/);
  assert.equal(log, ['c', 'a']);
});

const m = suite('MutableDisposable');

m('setting a value ends the one before; dispose ends the last and ends anything set later at once', () => {
  const log: string[] = [];
  const slot = new MutableDisposable<Disposable>();
  const first = counted(log, 'first');
  slot.value = first;
  slot.value = first;
  assert.equal(log, []);
  slot.value = counted(log, 'second');
  assert.equal(log, ['first']);
  slot.dispose();
  assert.equal(log, ['first', 'second']);
  assert.is(slot.value, undefined);
  slot.value = counted(log, 'late');
  assert.equal(log, ['first', 'second', 'late']);
});

const t = suite('OneShotTimer');

t('soon() coalesces: many requests, one run, at the earliest time asked', async () => {
  let runs = 0;
  const timer = new OneShotTimer(() => runs++);
  assert.not.ok(timer.armed);
  timer.soon(30);
  timer.soon(5);
  timer.soon(50);
  assert.ok(timer.armed);
  await new Promise((r) => setTimeout(r, 20));
  assert.is(runs, 1);
  assert.not.ok(timer.armed);
  await new Promise((r) => setTimeout(r, 60));
  assert.is(runs, 1);
});

t('at() moves the deadline, either way; undefined and dispose disarm', async () => {
  let runs = 0;
  const timer = new OneShotTimer(() => runs++);
  timer.at(Date.now() + 5);
  timer.at(Date.now() + 1000);
  await new Promise((r) => setTimeout(r, 30));
  assert.is(runs, 0);
  timer.at(Date.now() + 5);
  await new Promise((r) => setTimeout(r, 30));
  assert.is(runs, 1);
  timer.at(Date.now() + 5);
  timer.at(undefined);
  timer.soon(5);
  timer.dispose();
  assert.not.ok(timer.armed);
  timer.soon(1);
  await new Promise((r) => setTimeout(r, 30));
  assert.is(runs, 1);
  assert.not.ok(timer.armed);
});

e.run();
d.run();
m.run();
t.run();
