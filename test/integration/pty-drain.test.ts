// PtyDrain (pty-drain.ts) against a real PTY: what it reads between node-pty's own reads comes
// out in order and decoded by the same decoder (characters split across reads are whole),
// and it reads nothing while node-pty's stream is paused or after the PTY closed.

import * as pty from 'node-pty';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PtyDrain } from '../../src/tui/pty-drain.js';
import { until } from '../helpers/wait.js';

const s = suite('pty-drain');

/** Holds the event loop (as a long parse does), so the program fills the PTY meanwhile. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

/**
 * A program that says `ready` (echo off), waits for a key, writes the text the JavaScript
 * expression `make` makes (no newlines: the
 * PTY would turn LF into CR LF), then lingers a moment.
 */
async function writer(make: string): Promise<{ p: pty.IPty; got: string[]; exited: () => boolean }> {
  const js = `const text = ${make}; process.stdin.setRawMode(true); process.stdout.write('ready'); process.stdin.once('data', () => process.stdout.write(text, () => setTimeout(() => process.exit(0), 300)))`;
  const p = pty.spawn(process.execPath, ['-e', js], { cols: 80, rows: 10, env: { PATH: process.env.PATH ?? '' } });
  const got: string[] = [];
  let exited = false;
  p.onData((d) => got.push(d));
  p.onExit(() => (exited = true));
  await until(() => got.join('') === 'ready', 'the writer ready');
  got.length = 0;
  return { p, got, exited: () => exited };
}

s('what it reads between node-pty reads comes in order, characters split across reads whole', async () => {
  // Multi-byte characters of every length, so some straddle a 4 KB read.
  const make = "Array.from({ length: 20000 }, (_, i) => i + 'é€😀|').join('')";
  const text = Array.from({ length: 20_000 }, (_, i) => `${i}é€😀|`).join('');
  const { p, got, exited } = await writer(make);
  const drain = new PtyDrain(p);
  let drained = 0;
  try {
    p.write('g');
    // Each turn: hold the loop, then read what waits, as a pane does between parse pieces.
    while (got.join('').length < text.length && !exited()) {
      busy(20);
      drained += drain.drain(Infinity, (d) => got.push(d));
      await new Promise((r) => setImmediate(r));
    }
    await until(() => got.join('').length >= text.length || exited(), 'all of the text');
    assert.ok(drained > 0, 'the drain read some of it');
    assert.is(got.join(''), text);
  } finally {
    drain.dispose();
    p.kill('SIGKILL');
  }
});

s('it reads nothing while the stream is paused, nor after the PTY has closed', async () => {
  const text = 'x'.repeat(50_000);
  const { p, got, exited } = await writer("'x'.repeat(50000)");
  const drain = new PtyDrain(p);
  try {
    p.write('g');
    await until(() => got.length > 0, 'the first read');
    p.pause();
    busy(50);
    assert.is(
      drain.drain(Infinity, (d) => got.push(d)),
      0,
      'paused: nothing read',
    );
    p.resume();
    await until(exited, 'the exit');
    assert.is(got.join(''), text);
    assert.is(
      drain.drain(Infinity, () => assert.unreachable('read after the close')),
      0,
    );
  } finally {
    drain.dispose();
  }
});

s.run();
