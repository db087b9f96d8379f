// src/proc on real processes: what /proc says about them (stat, liveness, zombies), who
// belongs to a group or a session, where a process runs and what it holds open, and ending
// groups and pids. Every process here is started by the test, in a group of its own, and
// ended by that group; nothing is found or ended by name.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  alive,
  childrenOf,
  cmdlineOf,
  cwdOf,
  endGroup,
  endPids,
  environOf,
  exeOf,
  exists,
  groupAlive,
  groupExists,
  groupMembers,
  openFiles,
  processesUnder,
  readStat,
  sessionGroups,
  signalGroup,
  signalPid,
} from '../../src/proc/index.js';
import { until } from '../helpers/wait.js';

const node = process.execPath;
const started: ChildProcess[] = [];
let dir = '';

/** `sh -c script` as the leader of a new session and group (detached: setsid). */
function sh(script: string, opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): ChildProcess {
  const c = spawn('/bin/sh', ['-c', script], { detached: true, stdio: ['ignore', 'pipe', 'ignore'], ...opts });
  started.push(c);
  return c;
}

/** The first `n` lines the child prints, as numbers (the pids it reports). */
function pids(c: ChildProcess, n: number): Promise<number[]> {
  return new Promise((resolve) => {
    let buf = '';
    c.stdout!.setEncoding('utf8').on('data', (d: string) => {
      buf += d;
      const lines = buf.split('\n').filter(Boolean);
      if (lines.length >= n) resolve(lines.slice(0, n).map(Number));
    });
  });
}

const p = suite('proc');
p.before.each(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'baton-proc-')));
});
p.after.each(() => {
  for (const c of started.splice(0)) for (const g of sessionGroups(c.pid!)) signalGroup(g, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

p('this process: its stat names its parent, group and session', () => {
  const me = readStat(process.pid)!;
  assert.is(me.pid, process.pid);
  assert.is(me.ppid, process.ppid);
  assert.is(readStat('self')!.pid, process.pid);
  assert.ok(alive(process.pid) && exists(process.pid));
  assert.ok(me.startTicks > 0);
});

p('a zombie exists but is not alive, and is no member of its group', async () => {
  // The shell becomes `sleep`, which never reaps the child it inherited: a zombie.
  const c = sh('sleep 0.05 & echo $!; exec sleep 300');
  const [zombie] = (await pids(c, 1)) as [number];
  await until(() => readStat(zombie)?.state === 'Z', 'the child to be a zombie');
  assert.ok(exists(zombie));
  assert.not.ok(alive(zombie));
  assert.equal(groupMembers(c.pid!), [c.pid!]);
  assert.ok(groupAlive(c.pid!));
});

p('group members, the groups of a session, the children of a process', async () => {
  // bash's set -m (dash's needs a terminal): the second sleep is a job in a group of its
  // own, in the same session.
  const c = spawn('/bin/bash', ['-c', 'sleep 300 & echo $!; set -m; sleep 301 & echo $!; wait'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  started.push(c);
  const [child, job] = (await pids(c, 2)) as [number, number];
  assert.is(readStat(job)!.pgrp, job);
  assert.equal(groupMembers(c.pid!).sort(), [c.pid!, child].sort());
  assert.equal(groupMembers(job), [job]);
  assert.equal(sessionGroups(c.pid!).sort(), [c.pid!, job].sort());
  assert.equal(childrenOf(c.pid!).sort(), [child, job].sort());
  assert.ok(groupExists(job));
});

p('a group that is gone: no members, not alive, not signalled', async () => {
  const c = sh('exit 0');
  await new Promise((r) => c.once('exit', r));
  assert.equal(groupMembers(c.pid!), []);
  assert.not.ok(groupAlive(c.pid!));
  assert.not.ok(groupExists(c.pid!));
  assert.not.ok(signalGroup(c.pid!, 'SIGTERM'));
});

p('pid 0, 1 and negative numbers are never signalled (they would reach whole groups or every process)', () => {
  for (const n of [0, -1, -process.pid, 1.5, NaN]) {
    assert.not.ok(signalPid(n, 0), `signalPid(${n})`);
    assert.not.ok(signalGroup(n, 0), `signalGroup(${n})`);
    assert.not.ok(exists(n), `exists(${n})`);
  }
  assert.not.ok(signalGroup(1, 0), 'group 1 (init)');
  assert.not.ok(groupExists(1));
});

p('where a process runs: executable, cwd, command line, environment, open files', async () => {
  const file = join(dir, 'held open.txt');
  writeFileSync(file, 'x');
  const c = sh(`exec sleep 300 3<"${file}"`, { cwd: dir, env: { ...process.env, BATON_PROC_TEST: 'marker value' } });
  await until(() => cmdlineOf(c.pid!)?.[0] === 'sleep', 'sh to become sleep');
  assert.is(exeOf(c.pid!), realpathSync('/bin/sleep'));
  assert.is(cwdOf(c.pid!), dir);
  assert.equal(cmdlineOf(c.pid!), ['sleep', '300']);
  assert.ok(environOf(c.pid!)!.includes('BATON_PROC_TEST=marker value'));
  const fds = openFiles(c.pid!)!;
  assert.equal(
    fds.find((f) => f.fd === 3),
    { fd: 3, target: file },
  );
  assert.equal(
    fds.map((f) => f.fd),
    [...fds.map((f) => f.fd)].sort((a, b) => a - b),
  );
  assert.is(openFiles(999_999_999), undefined, 'no such process');
});

p('processes under a directory: by cwd and by an argument, this process left out', async () => {
  const inside = join(dir, 'inside');
  const byCwd = sh('exec sleep 300', { cwd: dir });
  const byArg = spawn(node, ['-e', 'setInterval(()=>{},1000)', inside], { detached: true, stdio: 'ignore' });
  started.push(byArg);
  const outside = sh('exec sleep 300', { cwd: tmpdir() });
  await until(() => processesUnder(dir).length >= 2, 'both found');
  const found = processesUnder(dir).sort();
  assert.equal(found, [byCwd.pid!, byArg.pid!].sort());
  assert.not.ok(found.includes(outside.pid!));
  assert.equal(processesUnder(dir, ['exe']), []);
  assert.equal(processesUnder(dir, ['cwd']), [byCwd.pid!]);
});

p('endGroup: SIGTERM first, SIGKILL for a helper that ignores it, resolved once the group is gone', async () => {
  const stubborn = "process.on('SIGTERM',()=>{});console.log(process.pid);setInterval(()=>{},1000)";
  const c = sh(`"${node}" -e "${stubborn}" & wait`);
  const [helper] = (await pids(c, 1)) as [number];
  assert.ok(groupAlive(c.pid!));
  const t0 = Date.now();
  await endGroup(c.pid!, 300);
  assert.not.ok(groupAlive(c.pid!));
  assert.not.ok(alive(helper));
  assert.ok(Date.now() - t0 >= 300, 'the helper had its grace period');
  await endGroup(c.pid!, 300); // a group that is gone: at once, no error
});

p('endPids: by pid, asked again each round; never this process', async () => {
  const stubborn = sh("trap '' TERM; echo $$; while :; do sleep 1; done");
  const [pid] = (await pids(stubborn, 1)) as [number];
  const ended = await endPids(() => [pid, process.pid].filter(alive), { graceMs: 200 });
  assert.equal(ended, [pid]);
  assert.not.ok(alive(pid));
  assert.ok(alive(process.pid));
});

p.run();
