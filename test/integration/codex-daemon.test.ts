// The sweep for codex's detached daemons, on real processes: programs copied under a
// temporary CODEX_HOME (as codex copies itself to packages/app-server-daemon/…) and started
// detached, one of them a loop that restarts its child the way codex's pid-update-loop
// does. Only processes whose executable is under that CODEX_HOME and that started after the
// run began are ended, by pid.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codexDaemons, endCodexDaemons } from '../../plugins/codex/leftovers.js';
import { alive, signalGroup } from '../../src/proc/index.js';
import { until } from '../helpers/wait.js';

let dir = '';
let home = '';
let bin = '';
const started: ChildProcess[] = [];

function start(cmd: string, args: string[]): ChildProcess {
  const child = spawn(cmd, args, { detached: true, stdio: 'ignore' });
  started.push(child);
  return child;
}

const t = suite('codex-daemon');
t.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-codex-daemon-'));
  home = join(dir, 'codex-home');
  bin = join(home, 'packages/app-server-daemon/releases/0.171.0/bin');
  mkdirSync(bin, { recursive: true });
  for (const [from, to] of [
    ['/bin/sleep', 'codex'],
    ['/bin/bash', 'codex-loop'],
  ]) {
    copyFileSync(from, join(bin, to));
    chmodSync(join(bin, to), 0o755);
  }
});
t.after.each(() => {
  for (const c of started.splice(0)) {
    signalGroup(c.pid!, 'SIGKILL');
  }
  rmSync(dir, { recursive: true, force: true });
});

t('ends a daemon and a restart loop started under CODEX_HOME, by pid, and nothing else', async () => {
  const outside = start('/bin/sleep', ['300']);
  const since = new Date();
  const daemon = start(join(bin, 'codex'), ['300']);
  const loop = start(join(bin, 'codex-loop'), ['-c', `while :; do "${join(bin, 'codex')}" 300 & wait $!; done`]);
  await until(() => codexDaemons({ codexHome: home, startedAfter: since }).length >= 3, 'daemon, loop and its child running');
  const ended = await endCodexDaemons({ codexHome: home, startedAfter: since });
  for (const pid of [daemon.pid!, loop.pid!]) assert.ok(ended.includes(pid), `${pid} was ended`);
  await until(() => !alive(daemon.pid!) && !alive(loop.pid!), 'both gone');
  assert.equal(codexDaemons({ codexHome: home }), [], 'no restarted child survives');
  assert.ok(alive(outside.pid!), 'a process outside CODEX_HOME is left alone');
});

t('a daemon that was running before the run began is left alone', async () => {
  const old = start(join(bin, 'codex'), ['300']);
  await until(() => codexDaemons({ codexHome: home }).includes(old.pid!), 'the old daemon running');
  // Start times are compared with a second of slack (clock ticks, rounding).
  await new Promise((r) => setTimeout(r, 1300));
  const since = new Date();
  const fresh = start(join(bin, 'codex'), ['300']);
  await until(() => codexDaemons({ codexHome: home, startedAfter: since }).includes(fresh.pid!), 'the new one seen');
  assert.not.ok(codexDaemons({ codexHome: home, startedAfter: since }).includes(old.pid!));
  const ended = await endCodexDaemons({ codexHome: home, startedAfter: since });
  assert.equal(ended, [fresh.pid!]);
  await until(() => !alive(fresh.pid!), 'the new one gone');
  assert.ok(alive(old.pid!), "the user's own daemon still runs");
});

t('nothing under CODEX_HOME: nothing to end', async () => {
  assert.equal(await endCodexDaemons({ codexHome: join(dir, 'empty') }), []);
});

t.run();
