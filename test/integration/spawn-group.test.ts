// Process groups baton spawns (src/proc/spawn-group.ts): own group per spawn, graceful stop
// then SIGKILL to the whole group, deadlines, spawn errors, and nothing left behind when
// baton exits.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { alive, groupAlive, groupMembers, readStat, runGroup, signalGroup, spawnGroup } from '../../src/proc/index.js';
import { until } from '../helpers/wait.js';

const node = process.execPath;
// A helper that ignores SIGTERM: only a SIGKILL ends it (the codex-acp shim's orphan).
const stubborn = "process.on('SIGTERM',()=>{});setInterval(()=>{},1000)";
// A leader that starts `stubborn` in its own group, prints the helper's pid, and exits on SIGTERM.
const leaderWithStubbornHelper = `const c=require('child_process').spawn(process.execPath,['-e',${JSON.stringify(stubborn)}],{stdio:'ignore'});console.log(c.pid);setInterval(()=>{},1000)`;

const pgidOf = (pid: number) => readStat(pid)!.pgrp;

function firstLine(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve) => {
    let buf = '';
    stream.setEncoding('utf8');
    stream.on('data', (d: string) => {
      buf += d;
      if (buf.includes('\n')) resolve(buf.split('\n')[0]!);
    });
  });
}

const t = suite('spawn-group');

t('a spawned process leads a group of its own', async () => {
  const g = await spawnGroup(node, ['-e', 'setInterval(()=>{},1000)']);
  try {
    assert.is(pgidOf(g.pgid), g.pgid);
    assert.is.not(pgidOf(g.pgid), pgidOf(process.pid));
    assert.equal(groupMembers(g.pgid), [g.pgid]);
  } finally {
    await g.stop();
  }
  assert.not.ok(groupAlive(g.pgid));
});

t('stop() ends a cooperative process with SIGTERM', async () => {
  const g = await spawnGroup(node, ['-e', 'setInterval(()=>{},1000)']);
  await g.stop();
  const exit = await g.exited;
  assert.is(exit.signal, 'SIGTERM');
  assert.not.ok(g.alive);
});

t('stop() kills a helper that ignores SIGTERM and outlives its leader, by group', async () => {
  const g = await spawnGroup(node, ['-e', leaderWithStubbornHelper], { graceMs: 300 });
  const helper = Number(await firstLine(g.child.stdout!));
  assert.ok(alive(helper));
  assert.is(pgidOf(helper), g.pgid);
  await g.stop();
  assert.ok(g.leaderExited);
  assert.not.ok(alive(helper), 'the helper is gone');
  assert.not.ok(groupAlive(g.pgid));
});

t('a deadline stops the whole group and says so', async () => {
  // The deadline may land before the program is even running: only what holds either way is checked.
  const g = await spawnGroup(node, ['-e', stubborn], { timeoutMs: 200, graceMs: 200 });
  const exit = await g.exited;
  await until(() => !groupAlive(g.pgid), 'the group gone');
  assert.ok(g.timedOut);
  assert.ok(exit.signal === 'SIGTERM' || exit.signal === 'SIGKILL', `ended by a signal, got ${exit.signal}`);
  await g.stop();
});

t('a program that cannot start is a spawn error, not a group', async () => {
  try {
    await spawnGroup('/nonexistent/baton-no-such-program', []);
    assert.unreachable('should have thrown');
  } catch (err) {
    assert.is((err as NodeJS.ErrnoException).code, 'ENOENT');
  }
});

t('runGroup captures output and exit code and leaves nothing running', async () => {
  const r = await runGroup(node, ['-e', "console.log('out-1');console.error('err-1');process.exit(3)"], { timeoutMs: 10_000 });
  assert.is(r.code, 3);
  assert.is(r.stdout.trim(), 'out-1');
  assert.is(r.stderr.trim(), 'err-1');
  assert.not.ok(r.timedOut);
});

t('runGroup gives up on a command that hangs', async () => {
  const r = await runGroup(node, ['-e', stubborn], { timeoutMs: 200 });
  assert.ok(r.timedOut);
});

t('when baton exits, the groups it started are killed', async () => {
  const modUrl = new URL('../../src/proc/spawn-group.ts', import.meta.url).href;
  const script = `
    import { spawnGroup } from ${JSON.stringify(modUrl)};
    const g = await spawnGroup(process.execPath, ['-e', ${JSON.stringify(leaderWithStubbornHelper)}], { stdio: ['ignore', 'pipe', 'inherit'] });
    g.child.stdout.once('data', (d) => { console.log(g.pgid, String(d).trim()); process.exit(0); });
  `;
  const child = spawn(node, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [pgid, helper] = (await firstLine(child.stdout!)).split(' ').map(Number) as [number, number];
  await new Promise((r) => child.once('exit', r));
  try {
    await until(() => !groupAlive(pgid) && !alive(helper), 'the group and its helper gone');
  } finally {
    signalGroup(pgid, 'SIGKILL'); // gone already, as it should be
  }
});

t.run();
