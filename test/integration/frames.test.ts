import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { FrameScheduler } from '../../src/tui/frames.js';
import { until } from '../helpers/wait.js';

const s = suite('frames');

s('many requests in one turn of the event loop make one frame', async () => {
  let drawn = 0;
  const f = new FrameScheduler(() => drawn++);
  for (let i = 0; i < 1000; i++) f.request();
  await until(() => drawn === 1, 'the frame');
  await new Promise((r) => setImmediate(r));
  assert.is(drawn, 1);
  f.dispose();
});

s('requests during the frame interval are coalesced into the next frame, not dropped', async () => {
  let drawn = 0;
  const f = new FrameScheduler(() => drawn++, 10);
  f.request();
  await until(() => drawn === 1, 'first frame');
  for (let i = 0; i < 100; i++) f.request();
  await until(() => drawn === 2, 'second frame');
  f.dispose();
});

/** Lets every pending immediate and the callbacks they queue run. */
const turns = async (n = 3) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

s('an urgent request is drawn without waiting for the frame slot', async () => {
  let drawn = 0;
  // One frame a minute: only an urgent request (or the one more after a lone frame) can draw again within this test.
  const f = new FrameScheduler(() => drawn++, 1 / 60);
  f.request();
  await until(() => drawn === 1, 'first frame');
  f.request();
  await until(() => drawn === 2, 'the one more after a lone frame');
  f.request();
  await turns();
  assert.is(drawn, 2, 'a third change waits for the slot');
  f.request(true);
  await until(() => drawn === 3, 'the urgent frame');
  f.dispose();
});

s('a lone frame lets one more change be drawn at once (a spinner tick, then a card), a third waits; a frame of the pacing timer lets none', async () => {
  let drawn = 0;
  // 10 frames a second: the slot is 100 ms away after each frame.
  const f = new FrameScheduler(() => drawn++, 10);
  f.request();
  await until(() => drawn === 1, 'the lone frame');
  f.request();
  await turns();
  assert.is(drawn, 2, 'one more at once');
  f.request();
  await turns();
  assert.is(drawn, 2, 'the next waits for the slot');
  await until(() => drawn === 3, "the timer's frame");
  // Output that goes on (a flood) is drawn from the timer, at the pace.
  f.request();
  await turns();
  assert.is(drawn, 3, "after the timer's frame, a change waits for the slot");
  f.dispose();
});

s('dispose cancels a pending frame', async () => {
  let drawn = 0;
  const f = new FrameScheduler(() => drawn++, 1 / 60);
  f.request();
  await until(() => drawn === 1, 'first frame');
  f.request();
  f.dispose();
  await new Promise((r) => setImmediate(r));
  assert.is(drawn, 1);
});

s.run();
