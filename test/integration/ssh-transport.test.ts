// `--host`: baton's client against the server of "another machine" through a real OpenSSH
// server (test/helpers/sshd.ts: sshd started by this test on a loopback port, with throwaway
// keys and a known_hosts of its own). The other machine is this one, with a home, XDG dirs
// and socket directory of its own, handed to the remote baton through BATON_REMOTE_COMMAND
// (an `env` assignment list, every word quoted by shellCommand). Shown: the host's server
// opened over ssh, typed into, detached and reattached with the tab still there; a hangup or a
// kill -9 of the local client leaving the remote tab and its children running and no ssh or
// proxy behind; ls and kill-server over ssh; a relative DIR taken from the home there; and
// each failure in words: no ssh, no baton on the host (also
// --remote-baton with a path full of shell syntax, reached as one word), a host key not
// known, a login refused, and a baton of another protocol version on the host (its proxy,
// and its running server). Where sshd cannot be installed or run, the suite says why and skips.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shellCommand } from '../../src/client/shell-quote.js';
import { alive, allPids, cmdlineOf, environOf } from '../../src/proc/index.js';
import { builtBaton, endServers, homeEnv, pickEntry, ROOT, serverPids } from '../helpers/baton-tui.js';
import { startSshd, type Sshd } from '../helpers/sshd.js';
import { TestTerminal } from '../helpers/term.js';
import { until } from '../helpers/wait.js';

const CLI = builtBaton();
const sshd = await startSshd();
if ('problem' in sshd) console.log(`ssh transport: skipping every test: ${sshd.problem}`);
const ready = !('problem' in sshd);
const server = sshd as Sshd;

/** A "machine": a home with XDG dirs and a socket directory of its own. */
interface Machine {
  home: string;
  runtime: string;
  work: string;
  env: Record<string, string>;
}

const made: string[] = [];
const terminals: TestTerminal[] = [];

function machine(): Machine {
  const home = mkdtempSync(join(tmpdir(), 'baton-ssh-'));
  made.push(home);
  const work = join(home, 'work');
  mkdirSync(work);
  const env = homeEnv(home);
  return { home, runtime: env.XDG_RUNTIME_DIR!, work, env };
}

/** The command that runs `cli` (this baton by default) on the host as `m`: its environment, then node and the program, each word quoted. */
function remoteCommand(m: Machine, cli = CLI): string {
  return shellCommand(['env', ...Object.entries(m.env).map(([k, v]) => `${k}=${v}`), process.execPath, cli]);
}

/** The local client's environment: its own machine, ssh on the PATH through the test's config, the host's baton. */
function clientEnv(local: Machine, remote: Machine, extra: Record<string, string> = {}): Record<string, string> {
  return { ...local.env, PATH: `${server.bin}:${local.env.PATH}`, BATON_REMOTE_COMMAND: remoteCommand(remote), ...extra };
}

function baton(env: Record<string, string>, args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function client(env: Record<string, string>, args: string[]): TestTerminal {
  const t = new TestTerminal([process.execPath, CLI, ...args], { cols: 200, rows: 30, cwd: ROOT, env });
  terminals.push(t);
  return t;
}

/** `baton proxy` processes serving the host's socket directory (there should be none once every client left). */
function proxies(runtime: string): number[] {
  return (allPids() ?? []).filter((pid) => {
    const cmd = cmdlineOf(pid) ?? [];
    return cmd.includes('proxy') && cmd.some((w) => w.endsWith('cli.js')) && (environOf(pid) ?? []).includes(`XDG_RUNTIME_DIR=${runtime}`);
  });
}

/** The ssh clients running with this test's ssh config (baton's, through the PATH's wrapper). */
function sshClients(): number[] {
  const config = join(server.dir, 'ssh_config');
  return (allPids() ?? []).filter((pid) => (cmdlineOf(pid) ?? []).includes(config));
}

/** A copy of this baton that speaks protocol 999 and calls itself 9.9.9: another version, installed elsewhere. */
function otherVersion(): string {
  const dir = mkdtempSync(join(tmpdir(), 'baton-other-'));
  made.push(dir);
  cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'baton', version: '9.9.9', type: 'module' }));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  symlinkSync(join(ROOT, 'config'), join(dir, 'config'));
  const protocol = join(dir, 'dist/src/server/protocol.js');
  const text = readFileSync(protocol, 'utf8');
  assert.match(text, /export const PROTOCOL_VERSION = 1;/);
  writeFileSync(protocol, text.replace('export const PROTOCOL_VERSION = 1;', 'export const PROTOCOL_VERSION = 999;'));
  return join(dir, 'dist/src/cli.js');
}

const s = suite('baton --host, through a real sshd');
const it = ready ? s : s.skip;
s.after.each(async () => {
  for (const t of terminals.splice(0)) await t.kill();
});
s.after(async () => {
  for (const dir of made) {
    await endServers(join(dir, 'run'));
    rmSync(dir, { recursive: true, force: true });
  }
  if (ready) await server.stop();
});

it("baton --host opens the host's server over ssh; a plain shell typed into, C-b d, baton attach --host shows it again; a hangup or kill -9 of the client leaves the tab and its child running, no ssh or proxy behind", async () => {
  const local = machine();
  const remote = machine();
  const env = clientEnv(local, remote);
  const t = client(env, ['--host', server.hosts.good, remote.work]);
  await t.waitFor('Plain shell', 30_000, "the picker, drawn by the host's server");
  // The host has no agent CLI, so install rows come before the plain shell.
  await pickEntry(t, 'Plain shell');
  await t.waitFor(/^\$$/m);
  t.type('pwd; echo typed-$((6*7))\r');
  await t.waitFor(/^typed-42$/m);
  assert.match(t.screenText(), new RegExp(`^${remote.work}$`, 'm'), 'the shell runs in the directory given, on the host');
  t.type('sleep 300 & echo bg=$!\r');
  const child = Number(/^bg=(\d+)$/m.exec(await t.waitFor(/^bg=\d+$/m))![1]);
  const [host] = serverPids(remote.runtime);
  assert.ok(host, "the server runs with the host's socket directory");
  assert.equal(serverPids(local.runtime), [], 'and none was started here');
  assert.is(proxies(remote.runtime).length, 1, 'one proxy serves the attached client');

  t.press('C-b', 'd');
  assert.is(await t.exited, 0);
  await t.waitFor(`[detached from baton server default on ${server.hosts.good}; the tabs keep running: baton attach --host ${server.hosts.good}]`, 5000);
  assert.ok(alive(child), "the shell's child keeps running");
  await until(() => proxies(remote.runtime).length === 0, 'the proxy ended with its client');

  const ls = baton(env, ['ls', '--host', server.hosts.good]);
  assert.is(ls.code, 0, ls.err);
  assert.match(ls.out, new RegExp(`^1: sh \\(shell\\) running {2}${remote.work} {2}\\(active\\)$`, 'm'));

  const again = client(env, ['attach', '--host', server.hosts.good]);
  await again.waitFor(/^typed-42$/m, 30_000, 'the reattached screen holds what was typed');
  again.type('echo back-again\r');
  await again.waitFor(/^back-again$/m);
  process.kill(again.pid, 'SIGHUP');
  await again.exited;
  await until(() => proxies(remote.runtime).length === 0, 'the proxy ended with the hung-up client');
  assert.ok(alive(child), "alive after the client's hangup");
  assert.equal(serverPids(remote.runtime), [host], 'the same server runs on');

  const killed = client(env, ['attach', '--host', server.hosts.good]);
  await killed.waitFor(/^back-again$/m, 30_000, 'the tab survived the hangup');
  assert.is(sshClients().length, 1, 'the client runs ssh');
  process.kill(killed.pid, 'SIGKILL');
  await killed.exited;
  await until(() => sshClients().length === 0 && proxies(remote.runtime).length === 0, 'the orphaned ssh and its proxy ended once the client was gone');
  assert.ok(alive(child), 'alive after a kill -9 of the client');

  const third = client(env, ['attach', '--host', server.hosts.good]);
  await third.waitFor(/^back-again$/m, 30_000, 'the tab survived the kill -9');
  const k = baton(env, ['kill-server', '--host', server.hosts.good]);
  assert.is(k.code, 0, k.err);
  assert.match(k.err, new RegExp(`server default on ${server.hosts.good} \\(pid ${host}\\) is ending`));
  assert.is(await third.exited, 0);
  await third.waitFor('[the baton server ended: baton kill-server]', 5000);
  await until(() => !alive(host!) && !alive(child), "the server and the shell's child gone");
});

it('baton --host HOST DIR: a relative DIR starts at the home directory there; one that is not there is refused, exit 2, no server started', async () => {
  const local = machine();
  const remote = machine();
  const missing = `baton-no-such-dir-${process.pid}`;
  const t = client(clientEnv(local, remote), ['--host', server.hosts.good, missing]);
  assert.is(await t.exited, 2);
  await t.waitFor(new RegExp(`baton: /\\S*/${missing} is not a directory \\(on baton-test\\)`), 5000);
  await t.waitFor(/hint: give a directory of that machine \(a relative one starts at the home directory there\)/, 5000);
  assert.equal(serverPids(remote.runtime), []);
});

it('no ssh on the PATH: exit 14 and what to install, from attach in a terminal and from ls', async () => {
  const local = machine();
  const remote = machine();
  const env = clientEnv(local, remote, { PATH: join(local.home, 'no-such-bin') });
  const t = client(env, ['attach', '--host', server.hosts.good]);
  assert.is(await t.exited, 14);
  await t.waitFor(/ssh is not installed: --host reaches another machine through OpenSSH, and there is no `ssh` on the PATH/, 5000);
  await t.waitFor(/hint: install OpenSSH's client/, 5000);
  const ls = baton(env, ['ls', '--host', server.hosts.good]);
  assert.is(ls.code, 14);
  assert.match(ls.err, /no `ssh` on the PATH/);
});

it('a host without baton: exit 16 naming what its shell did not find and how to say where baton is', async () => {
  const local = machine();
  const remote = machine();
  const env = clientEnv(local, remote, { BATON_REMOTE_COMMAND: 'baton-nowhere-to-be-found' });
  const t = client(env, ['attach', '--host', server.hosts.good]);
  assert.is(await t.exited, 16);
  await t.waitFor(/baton-test has no baton: its shell did not find `baton-nowhere-to-be-found`/, 5000);
  await t.waitFor(/--remote-baton PATH, or BATON_REMOTE_COMMAND/, 5000);
  const r = baton(env, ['ls', '--host', server.hosts.good, '--remote-baton', '/no such dir/baton']);
  assert.is(r.code, 16, r.err);
  assert.match(r.err, /its shell did not find `'\/no such dir\/baton'` \(ssh: .*\/no such dir\/baton: .*No such file or directory\)/);
});

it("--remote-baton: a path with quotes, spaces, $ and ; reaches the host's shell as one word and runs baton there", async () => {
  const local = machine();
  const remote = machine();
  const odd = join(remote.home, `it's "a" $HOME; \\baton`);
  writeFileSync(odd, `#!/bin/sh\nexec ${remoteCommand(remote)} "$@"\n`);
  chmodSync(odd, 0o755);
  const env = clientEnv(local, remote, { BATON_REMOTE_COMMAND: 'baton-nowhere-to-be-found' });
  const r = baton(env, ['ls', '--host', server.hosts.good, '--remote-baton', odd]);
  assert.is(r.code, 12, r.err);
  assert.match(r.err, /no baton server is running \(on baton-test\)/, "the host's baton answered: no server there");
  assert.match(r.err, /hint: start one there: `baton open --host baton-test \[DIR\]`/);
});

it("a host key not in known_hosts, and a key sshd refuses: exit 15 with ssh's words; baton never accepts a key", async () => {
  const local = machine();
  const remote = machine();
  const env = clientEnv(local, remote);
  const unknown = client(env, ['attach', '--host', server.hosts.unknownKey]);
  assert.is(await unknown.exited, 15);
  await unknown.waitFor(/ssh could not verify the host key of baton-test-unknown-key \(ssh: Host key verification failed\.\)/, 5000);
  await unknown.waitFor(/baton never accepts a host key for you/, 5000);
  const login = baton(env, ['ls', '--host', server.hosts.stranger]);
  assert.is(login.code, 15, login.err);
  assert.match(login.err, /ssh could not log in to baton-test-stranger \(ssh: .*Permission denied \(publickey\)\.\)/);
  assert.match(login.err, /hint: check that `ssh baton-test-stranger true` works here/);
  const pwned = join(local.home, 'pwned');
  const name = baton(env, ['ls', `--host=-oProxyCommand=touch ${pwned}`]);
  assert.is(name.code, 2, "an option in the host's place is refused before ssh runs");
  assert.match(name.err, /is not a host ssh can be given/);
  assert.not.ok(existsSync(pwned), 'ssh never ran it');
  const alone = baton(env, ['ls', '--remote-baton', '/opt/baton']);
  assert.is(alone.code, 2);
  assert.match(alone.err, /--remote-baton goes with --host/);
});

it("another protocol version on the host: its proxy refuses this client, and so does its running server reached through this version's proxy; exit 5 with what to do", async () => {
  const local = machine();
  const remote = machine();
  const other = otherVersion();
  const env = clientEnv(local, remote, { BATON_REMOTE_COMMAND: remoteCommand(remote, other) });
  const t = client(env, ['--host', server.hosts.good, remote.work]);
  assert.is(await t.exited, 5);
  await t.waitFor(/this baton server \(9\.9\.9, protocol 999\) cannot talk to the client \(0\.1\.0, protocol 1\) \(on baton-test\)/, 5000);
  await t.waitFor(/hint: run the same baton on both machines \(here 0\.1\.0\): install this version on baton-test/, 5000);
  assert.equal(serverPids(remote.runtime), [], 'no server was started for a client it cannot talk to');

  // The host's server is of the other version; the proxy is this one's.
  const started = spawn(process.execPath, [other, 'server', '-L', 'default'], { env: remote.env, cwd: remote.home, detached: true, stdio: 'ignore' });
  started.unref();
  await until(() => serverPids(remote.runtime).length === 1, "the other version's server is up");
  const ls = baton(clientEnv(local, remote), ['ls', '--host', server.hosts.good]);
  assert.is(ls.code, 5, ls.err);
  assert.match(ls.err, /this baton server \(9\.9\.9, protocol 999\) cannot talk to the client \(0\.1\.0, protocol 1\) \(on baton-test\)/);
  assert.match(ls.err, /`baton kill-server --host baton-test`/);
  await endServers(remote.runtime);
});

s.run();
