// ReadAhead (read-ahead.ts): a flood's reads wait a moment and are parsed together, in order;
// anything short is parsed at once with what waits before it; the bytes waiting are bounded.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { FLOOD_READ, MAX_READ_AHEAD, ReadAhead, SUSTAINED } from '../../src/tui/read-ahead.js';
import { within } from '../helpers/wait.js';

const s = suite('read-ahead');

/** A ReadAhead whose parses are recorded, and a promise of the next one. */
function recorded() {
  const parsed: string[] = [];
  let wake: (() => void) | undefined;
  const ra = new ReadAhead((d) => {
    parsed.push(d);
    wake?.();
  });
  const next = () => new Promise<void>((r) => (wake = r));
  return { ra, parsed, next };
}

const long = (ch: string, n = FLOOD_READ) => ch.repeat(n);

s('a short read with nothing waiting is parsed at once', () => {
  const { ra, parsed } = recorded();
  ra.take('echo');
  assert.equal(parsed, ['echo']);
  assert.is(ra.waiting, 0);
});

s('long reads wait and are parsed together, in order, once the moment passes', async () => {
  const { ra, parsed, next } = recorded();
  const woke = next();
  ra.take(long('a'));
  ra.take(long('b'));
  ra.take(long('c'));
  assert.equal(parsed, [], 'nothing parsed while reads are long');
  assert.is(ra.waiting, 3 * FLOOD_READ);
  await woke;
  assert.equal(parsed, [long('a') + long('b') + long('c')]);
  assert.is(ra.waiting, 0);
  ra.dispose();
});

s('a short read after long ones is parsed at once, after them, in one piece', () => {
  const { ra, parsed } = recorded();
  ra.take(long('a'));
  ra.take('$ ');
  assert.equal(parsed, [`${long('a')}$ `]);
  assert.is(ra.waiting, 0);
  ra.take('x');
  assert.equal(parsed, [`${long('a')}$ `, 'x']);
});

s('under way, a flood is not parsed at a short read (the reader caught up): it waits for the moment to pass, in order', async () => {
  const { ra, parsed, next } = recorded();
  const woke = next();
  const n = Math.ceil(SUSTAINED / FLOOD_READ);
  for (let i = 0; i < n; i++) ra.take(long('a'));
  ra.take('12');
  assert.equal(parsed, [], 'a short read in a sustained flood waits');
  ra.take(long('b'));
  await woke;
  assert.equal(parsed, [long('a', n * FLOOD_READ) + '12' + long('b')]);
  // Once parsed, a short read is parsed at once again.
  ra.take('$ ');
  assert.equal(parsed.at(-1), '$ ');
  ra.dispose();
});

s('bounded: once MAX_READ_AHEAD characters wait they are parsed at once', () => {
  const { ra, parsed } = recorded();
  const n = Math.ceil(MAX_READ_AHEAD / FLOOD_READ);
  for (let i = 0; i < n - 1; i++) ra.take(long(String.fromCharCode(97 + (i % 26))));
  assert.equal(parsed, []);
  ra.take(long('z'));
  assert.is(parsed.length, 1);
  assert.is(parsed[0]!.length, n * FLOOD_READ);
  assert.ok(parsed[0]!.endsWith(long('z')));
  assert.is(ra.waiting, 0);
  ra.dispose();
});

s('flush parses what waits now (a resize or the exit must come after it); dispose drops it', () => {
  const { ra, parsed } = recorded();
  ra.take(long('a'));
  ra.flush();
  assert.equal(parsed, [long('a')]);
  ra.flush();
  assert.is(parsed.length, 1, 'nothing more to parse');
  ra.take(long('b'));
  ra.dispose();
  ra.flush();
  ra.take('late');
  assert.equal(parsed, [long('a')], 'nothing parsed after dispose');
});

s('before a parse, `read` tops up what waits with what the program wrote meanwhile, within the room left, in order', () => {
  const parsed: string[] = [];
  const rooms: number[] = [];
  const ra: ReadAhead = new ReadAhead(
    (d) => parsed.push(d),
    (room) => {
      rooms.push(room);
      ra.take(long('b'));
      ra.take('12');
    },
  );
  ra.take(long('a'));
  ra.flush();
  assert.equal(rooms, [MAX_READ_AHEAD - FLOOD_READ]);
  assert.equal(parsed, [`${long('a')}${long('b')}12`], 'one parse, what was read after what waited');
  assert.is(ra.waiting, 0);
  // A short read parsed at once is not topped up (nothing waits before it).
  ra.take('$ ');
  assert.equal(parsed.at(-1), '$ ');
  assert.is(rooms.length, 1);
  ra.dispose();
});

s('what is taken while a parse runs (read between its pieces) waits for the next parse, never parsed inside it', async () => {
  const parsed: string[] = [];
  let depth = 0;
  let wake: (() => void) | undefined;
  const ra: ReadAhead = new ReadAhead((d) => {
    depth++;
    assert.is(depth, 1, 'no parse inside a parse');
    parsed.push(d);
    if (parsed.length === 1) {
      ra.take('x');
      ra.take(long('c'));
    }
    depth--;
    wake?.();
  });
  ra.take('first');
  assert.equal(parsed, ['first']);
  assert.is(ra.waiting, 1 + FLOOD_READ, 'taken during the parse, waiting');
  await new Promise<void>((r) => (wake = r));
  assert.equal(parsed, ['first', `x${long('c')}`]);
  ra.dispose();
});

s('what was read during a parse and ends with a short read (the program paused) is parsed right after it, not a frame later', async () => {
  const parsed: string[] = [];
  let wake: (() => void) | undefined;
  const ra: ReadAhead = new ReadAhead((d) => {
    parsed.push(d);
    if (parsed.length === 1) {
      ra.take(long('c'));
      ra.take('$ ');
    }
    wake?.();
  });
  // A timer this long never fires within the test: only "right after" can parse it.
  ra.waitMs = 60_000;
  ra.take('first');
  assert.equal(parsed, ['first']);
  await within(new Promise<void>((r) => (wake = r)), 5000, undefined);
  assert.equal(parsed, ['first', `${long('c')}$ `]);
  ra.dispose();
});

s.run();
