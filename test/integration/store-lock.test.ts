// The writer lock: atomic creation, refusal naming a live owner (a real second process),
// takeover of locks left by dead or reused pids, foreign hosts, unreadable lock files,
// release that only ever removes our own lock, and several processes racing for one.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatonError } from '../../src/errors.js';
import { readStat } from '../../src/proc/index.js';
import { acquireLock, lockHolder } from '../../src/transcript/store-lock.js';
import type { LockOwner } from '../../src/transcript/store-lock.js';
import { killAll, spawnWriter } from '../fixtures/store-spawn.js';

process.umask(0);

let dir = '';
const lockFile = () => join(dir, 'lock');
const owner = (o: Partial<LockOwner>): LockOwner => ({ pid: process.pid, hostname: hostname(), started: new Date().toISOString(), token: 'other', ...o });
const writeLock = (o: LockOwner) => writeFileSync(lockFile(), JSON.stringify(o) + '\n');
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!;

function refusal(fn: () => unknown): BatonError {
  try {
    fn();
  } catch (e) {
    if (e instanceof BatonError) return e;
    throw e;
  }
  throw new Error('expected the lock to be refused');
}

const k = suite('store lock');
k.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-lock-'));
});
k.after.each(() => {
  killAll();
  rmSync(dir, { recursive: true, force: true });
});

k('a lock names its owner in a private file and is gone after release', () => {
  const lock = acquireLock(dir, 'c1');
  const o = JSON.parse(readFileSync(lockFile(), 'utf8')) as LockOwner;
  assert.is(o.pid, process.pid);
  assert.is(o.hostname, hostname());
  assert.ok(Date.parse(o.started) <= Date.now());
  assert.is(statSync(lockFile()).mode & 0o777, 0o600);
  assert.equal(readdirSync(dir), ['lock'], 'no temp files left behind');
  assert.is(lockHolder(dir)?.state, 'live');
  lock.release();
  lock.release();
  assert.not.ok(existsSync(lockFile()));
  assert.is(lockHolder(dir), undefined);
});

k('a lock held by another live process is refused with exit 5 naming its pid', async () => {
  const holder = spawnWriter([dir], 'race');
  await holder.waitFor(/^ready$/m);
  holder.child.stdin!.write('go\n');
  await holder.waitFor(/^won /m);
  const e = refusal(() => acquireLock(dir, 'c1'));
  assert.is(e.exitCode, 5);
  assert.is(e.message, `conversation c1 is open in another baton (pid ${holder.pid})`);
  assert.match(e.hint!, /close it there/);
  holder.child.stdin!.end();
  await holder.exited();
  assert.not.ok(existsSync(lockFile()), 'released by its owner');
  acquireLock(dir, 'c1').release();
});

k('a lock left by a dead pid is stale and taken over', () => {
  const pid = deadPid();
  writeLock(owner({ pid, token: 'dead' }));
  assert.is(lockHolder(dir)?.state, 'stale');
  const lock = acquireLock(dir, 'c1');
  assert.is(lock.owner.pid, process.pid);
  assert.is((JSON.parse(readFileSync(lockFile(), 'utf8')) as LockOwner).token, lock.owner.token);
  lock.release();
});

k('a lock whose pid now belongs to a younger process is stale (pid reuse)', () => {
  if (!readStat('self')) return; // only where start times can be read
  writeLock(owner({ procStart: '1', token: 'reused' }));
  assert.is(lockHolder(dir)?.state, 'stale');
  acquireLock(dir, 'c1').release();
});

k('a lock from another host cannot be checked, so it is live; the hint names the file', () => {
  writeLock(owner({ pid: deadPid(), hostname: 'elsewhere.example' }));
  const e = refusal(() => acquireLock(dir, 'c1'));
  assert.is(e.exitCode, 5);
  assert.match(e.message, /\(pid \d+ on elsewhere\.example\)/);
  assert.ok(e.hint!.includes(lockFile()));
});

k('an unreadable lock is someone mid-creation at first, stale after a while', () => {
  writeFileSync(lockFile(), '');
  const e = refusal(() => acquireLock(dir, 'c1'));
  assert.is(e.exitCode, 5);
  assert.match(e.message, /being opened by another baton/);
  const old = new Date(Date.now() - 60_000);
  utimesSync(lockFile(), old, old);
  acquireLock(dir, 'c1').release();
});

k('release never removes a lock that is no longer ours', () => {
  const lock = acquireLock(dir, 'c1');
  writeLock(owner({ token: 'someone-else' }));
  lock.release();
  assert.ok(existsSync(lockFile()));
});

k('processes racing for one stale lock: exactly one wins, the others are refused', async () => {
  writeLock(owner({ pid: deadPid(), token: 'dead' }));
  const racers = Array.from({ length: 4 }, () => spawnWriter([dir], 'race'));
  for (const r of racers) await r.waitFor(/^ready$/m);
  for (const r of racers) r.child.stdin!.write('go\n');
  const results = await Promise.all(racers.map((r) => r.waitFor(/^(won|refused) (\d+)/m)));
  const winners = results.filter((m) => m[1] === 'won');
  assert.is(winners.length, 1, racers.map((r) => r.out()).join(' | '));
  for (const r of racers) if (!/^won/m.test(r.out())) assert.match(r.out(), / 5$/m);
  const o = JSON.parse(readFileSync(lockFile(), 'utf8')) as LockOwner;
  assert.is(o.pid, Number(winners[0]![2]));
  assert.not.ok(
    readdirSync(dir).some((n) => n.endsWith('.takeover')),
    'the takeover mutex is gone',
  );
});

k.after(() => killAll());
k.run();
