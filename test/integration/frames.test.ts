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

s('an urgent request is drawn without waiting for the frame slot', async () => {
  let drawn = 0;
  // One frame a minute: only an urgent request can draw again within this test.
  const f = new FrameScheduler(() => drawn++, 1 / 60);
  f.request();
  await until(() => drawn === 1, 'first frame');
  f.request();
  f.request(true);
  await until(() => drawn === 2, 'the urgent frame');
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
