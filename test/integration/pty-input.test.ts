// A write a program takes slowly (src/tui/pty-input.ts, through a real Pane and PTY): a program
// that reads nothing until the test lets it (node with stdin paused, in raw mode) holds a
// 256 KB write in baton's queue. Its progress is told once it has taken showAfterMs, then no
// more often than everyMs (the clock here is the test's own, so "not at every chunk" is shown
// without timing anything), and its end once it is all in; keys written meanwhile reach the
// program after the whole of it, never inside it. A write that goes in at once is never told.
// Before, nothing was told: a 280 KB message took ~20 s into Codex and its tab showed nothing.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Pane } from '../../src/tui/pane.js';
import type { InputProgress } from '../../src/tui/pty-input.js';
import { until } from '../helpers/wait.js';

// Reads nothing until GATE exists, then copies every byte it reads to OUT.
const READER = `const { appendFileSync, existsSync } = require('node:fs');
process.stdin.setRawMode(true);
process.stdin.on('data', (d) => appendFileSync(process.env.OUT, d));
process.stdin.pause();
process.stdout.write('ready');
const t = setInterval(() => {
  if (!existsSync(process.env.GATE)) return;
  clearInterval(t);
  process.stdin.resume();
}, 10);
`;

const s = suite('pty-input');
let dir: string;
let pane: Pane | undefined;
s.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-pty-input-'));
});
s.after.each(async () => {
  await pane?.dispose();
  pane = undefined;
  rmSync(dir, { recursive: true, force: true });
});

function reader(clock: { now: number }): { pane: Pane; out: string; gate: string; told: InputProgress[] } {
  const out = join(dir, 'out');
  const gate = join(dir, 'gate');
  writeFileSync(out, '');
  pane = new Pane({
    command: process.execPath,
    args: ['-e', READER],
    env: { OUT: out, GATE: gate },
    baseEnv: { PATH: process.env.PATH },
    cwd: dir,
    cols: 80,
    rows: 5,
    input: { showAfterMs: 1000, everyMs: 250, now: () => clock.now },
  });
  const told: InputProgress[] = [];
  pane.onInput((p) => told.push(p));
  return { pane, out, gate, told };
}

const ready = (p: Pane) => until(() => p.rowText(0).includes('ready'), 'the reader up');

s(
  'a slow write is told once it has taken a while, then at most every so often (not at every chunk), and when it is in; keys written meanwhile go in after it',
  async () => {
    const clock = { now: 0 };
    const r = reader(clock);
    await ready(r.pane);
    const message = 'm'.repeat(256 * 1024);
    r.pane.write(message);
    // The kernel took what fits; the rest waits in baton's queue.
    const first = r.pane.inputProgress();
    assert.ok(first && first.written < first.total && first.total === message.length, JSON.stringify(first));
    // Keys typed meanwhile: behind the message.
    r.pane.write('KEYS');
    assert.is(r.pane.inputProgress()?.total, message.length + 4);
    // Not told before it has taken showAfterMs (the queue is retried meanwhile, every few ms).
    await until(() => r.pane.inputProgress()!.written > 0, 'some written');
    assert.equal(r.told, []);
    clock.now = 1000;
    await until(() => r.told.length === 1, 'told once it has taken a second');
    assert.equal(r.told[0], { written: r.pane.inputProgress()!.written, total: message.length + 4, done: false });
    // The program reads it all while the clock stands still: no more progress until everyMs has passed, then its end.
    writeFileSync(r.gate, '');
    await until(() => r.told.at(-1)?.done === true, 'told it is in', 20_000);
    assert.is(r.told.length, 2, JSON.stringify(r.told.map((p) => [p.written, p.done])));
    assert.equal(r.told[1], { written: message.length + 4, total: message.length + 4, done: true });
    assert.is(r.pane.inputProgress(), undefined);
    await until(() => statSync(r.out).size === message.length + 4, 'the reader has it all');
    const got = readFileSync(r.out, 'utf8');
    assert.ok(got === `${message}KEYS`, `the keys after the whole message: ${got.indexOf('KEYS')} of ${got.length}`);
  },
);

s('progress is told every everyMs while it goes on', async () => {
  const clock = { now: 0 };
  const r = reader(clock);
  await ready(r.pane);
  r.pane.write('m'.repeat(256 * 1024));
  clock.now = 1000;
  await until(() => r.told.length === 1, 'told once');
  clock.now = 1250;
  await until(() => r.told.length === 2, 'told again after everyMs');
  assert.is(r.told[1]!.done, false);
  writeFileSync(r.gate, '');
  await until(() => r.told.at(-1)?.done === true, 'its end told', 20_000);
});

s('a write that goes in at once (a keystroke) is never told', async () => {
  const clock = { now: 5000 };
  const r = reader(clock);
  await ready(r.pane);
  writeFileSync(r.gate, '');
  r.pane.write('x');
  assert.is(r.pane.inputProgress(), undefined, 'in at once');
  await until(() => existsSync(r.out) && readFileSync(r.out, 'utf8') === 'x', 'the key read');
  assert.equal(r.told, []);
});

s.run();
