// src/plugins/watch-path.ts: a target that does not exist yet (a plugin directory nobody made,
// a CLI's log before its first message) is looked for a few times after each step the watch
// takes, then left to the events of a watch long in place: while nothing happens no timer
// runs (an idle baton watching a missing plugin directory polled it every 300 ms), and a
// directory made later, parents and all (mkdir -p), is still found.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHook } from 'node:async_hooks';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { watchPath, type WatchEvent } from '../../src/plugins/watch-path.js';
import { until } from '../helpers/wait.js';

/** Timer callbacks run while `during` runs (resources made before it are known by their init). */
const types = new Map<number, string>();
let ran: string[] | undefined;
createHook({
  init: (id, type) => void types.set(id, type),
  before: (id) => {
    const t = types.get(id);
    if (ran && (t === 'Timeout' || t === 'Immediate')) ran.push(t);
  },
  destroy: (id) => void types.delete(id),
}).enable();

async function timersRun(ms: number): Promise<number> {
  const wait = new Promise((r) => setTimeout(r, ms));
  ran = [];
  await wait;
  const n = ran.length - 1; // (the wait's own)
  ran = undefined;
  return n;
}

const s = suite('watch-path');
let dir = '';
s.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-watchpath-'));
});
s.after.each(() => rmSync(dir, { recursive: true, force: true }));

s('a missing target: no timer runs once the looks after the first watch are over; made later with its parents, it is found', async () => {
  const target = join(dir, 'a', 'b', 'c', 'log.jsonl');
  const events: [WatchEvent, string][] = [];
  const w = watchPath(target, { dir: false }, (e, p) => events.push([e, p]));
  try {
    await w.ready;
    // The looks after the watch is in place (300 ms, 1 s, 3 s), then nothing.
    await new Promise((r) => setTimeout(r, 4800));
    assert.is(await timersRun(2000), 0, 'timer callbacks while nothing happened for 2 s');
    mkdirSync(join(dir, 'a', 'b', 'c'), { recursive: true });
    writeFileSync(target, '{}\n');
    await until(() => events.some(([e, p]) => e === 'add' && p === target), 'the target reported', 10_000);
  } finally {
    await w.close();
  }
});

s('a directory target made (parents and all) right after the watch is ready: it and the files in it are reported', async () => {
  const target = join(dir, 'later', 'plugins');
  const events: [WatchEvent, string][] = [];
  const w = watchPath(target, { dir: true }, (e, p) => events.push([e, p]));
  try {
    await w.ready;
    mkdirSync(target, { recursive: true });
    writeFileSync(join(target, 'one.mjs'), '');
    await until(() => events.some(([e, p]) => e === 'add' && p === join(target, 'one.mjs')), 'the file in it reported', 10_000);
    assert.ok(events.some(([e, p]) => e === 'addDir' && p === target));
  } finally {
    await w.close();
  }
});

s.run();
