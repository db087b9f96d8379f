// A real OpenSSH server of the test's own, for `--host`: `sshd -D` as a child on a free
// loopback port, with a throwaway host key, an authorized_keys holding a throwaway client
// key, and no PAM; and a client side of its own: an ssh_config with host aliases (the good
// key, a key sshd does not know, a known_hosts without the host's key), a known_hosts, and
// an `ssh` on a PATH directory of its own that runs the real ssh with that config (-F), so
// baton runs ssh exactly as for a user and nothing reads the user's ~/.ssh. Ended by pid.
// Where sshd (or ssh, ssh-keygen) is not installed or cannot run here, start() says why
// instead, and the suite skips with that reason printed.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, createConnection } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { shellCommand } from '../../src/client/shell-quote.js';

export interface Sshd {
  dir: string;
  port: number;
  pid: number;
  /** A PATH directory whose `ssh` uses this test's config; put it first on PATH. */
  bin: string;
  /** Host aliases of the config: a login that works, one with a key sshd refuses, one whose host key is unknown. */
  hosts: { good: string; stranger: string; unknownKey: string };
  /** What sshd logged (it runs with -e), for a failing test's message. */
  log(): string;
  stop(): Promise<void>;
}

function which(cmd: string, extra: string[] = []): string | undefined {
  for (const d of [...(process.env.PATH ?? '').split(':'), ...extra]) {
    if (d && existsSync(join(d, cmd))) return join(d, cmd);
  }
  return undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = createConnection({ port, host: '127.0.0.1' });
    c.once('data', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
    c.setTimeout(2000, () => {
      c.destroy();
      resolve(false);
    });
  });
}

function keygen(keygenPath: string, file: string): void {
  const r = spawnSync(keygenPath, ['-q', '-t', 'ed25519', '-N', '', '-C', 'baton-test', '-f', file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ssh-keygen failed: ${r.stderr}`);
}

/** Starts the test's sshd, or says why it cannot run here. */
export async function startSshd(): Promise<Sshd | { problem: string }> {
  const tools = findTools();
  if ('problem' in tools) return tools;
  // sshd run as root drops privileges into this directory; the package's service makes it at boot.
  if (process.getuid?.() === 0 && !existsSync('/run/sshd')) mkdirSync('/run/sshd', { mode: 0o755 });
  const dir = mkdtempSync(join(tmpdir(), 'baton-sshd-'));
  chmodSync(dir, 0o700);
  const user = userInfo().username;
  for (const k of ['host_key', 'client_key', 'stranger_key']) keygen(tools.keygen, join(dir, k));
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'client_key.pub')), { mode: 0o600 });
  const port = await freePort();
  const config = writeServerConfig(dir, user);
  const bin = writeClientSide(dir, port, user, tools.ssh);
  const started = await runSshd(tools.sshd, config, port);
  if ('problem' in started) {
    rmSync(dir, { recursive: true, force: true });
    return started;
  }
  const { child, log } = started;
  return {
    dir,
    port,
    pid: child.pid!,
    bin,
    hosts: { good: 'baton-test', stranger: 'baton-test-stranger', unknownKey: 'baton-test-unknown-key' },
    log,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const gone = new Promise((r) => child.once('exit', r));
        process.kill(child.pid!, 'SIGTERM');
        await gone;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The OpenSSH programs the helper runs, or which package is missing. */
function findTools(): { sshd: string; ssh: string; keygen: string } | { problem: string } {
  const sshd = which('sshd', ['/usr/sbin', '/usr/local/sbin', '/sbin']);
  const ssh = which('ssh', ['/usr/bin']);
  const keygen = which('ssh-keygen', ['/usr/bin']);
  if (!sshd) return { problem: 'no sshd on this machine (Debian: apt-get install -y openssh-server; .ci/run installs it)' };
  if (!ssh || !keygen) return { problem: 'no ssh or ssh-keygen on this machine (openssh-client)' };
  return { sshd, ssh, keygen };
}

/** sshd_config: loopback only, the throwaway host key, this user by key alone; returns its path. */
function writeServerConfig(dir: string, user: string): string {
  const config = join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      'ListenAddress 127.0.0.1',
      `HostKey ${join(dir, 'host_key')}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      // The keys live in a temp dir, not under a home sshd would check.
      'StrictModes no',
      'UsePAM no',
      'PubkeyAuthentication yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      `AllowUsers ${user}`,
      'AllowTcpForwarding no',
      'AllowAgentForwarding no',
      'X11Forwarding no',
      'PrintMotd no',
      'MaxStartups 50',
      'LogLevel VERBOSE',
      '',
    ].join('\n'),
  );
  return config;
}

/**
 * The client side: a known_hosts with the host's key (and an empty one), an ssh_config with
 * the three host aliases, and an `ssh` that runs the real one with that config. Returns the
 * PATH directory holding that `ssh`.
 */
function writeClientSide(dir: string, port: number, user: string, ssh: string): string {
  const hostPub = readFileSync(join(dir, 'host_key.pub'), 'utf8').trim().split(/\s+/).slice(0, 2).join(' ');
  writeFileSync(join(dir, 'known_hosts'), `[127.0.0.1]:${port} ${hostPub}\n`, { mode: 0o600 });
  writeFileSync(join(dir, 'empty_known_hosts'), '', { mode: 0o600 });
  const clientConfig = join(dir, 'ssh_config');
  const common = [
    '  HostName 127.0.0.1',
    `  Port ${port}`,
    `  User ${user}`,
    '  IdentitiesOnly yes',
    '  BatchMode yes',
    '  StrictHostKeyChecking yes',
    '  GlobalKnownHostsFile /dev/null',
    '  LogLevel ERROR',
    '  ConnectTimeout 10',
  ];
  writeFileSync(
    clientConfig,
    [
      'Host baton-test',
      `  IdentityFile ${join(dir, 'client_key')}`,
      `  UserKnownHostsFile ${join(dir, 'known_hosts')}`,
      ...common,
      'Host baton-test-stranger',
      `  IdentityFile ${join(dir, 'stranger_key')}`,
      `  UserKnownHostsFile ${join(dir, 'known_hosts')}`,
      ...common,
      'Host baton-test-unknown-key',
      `  IdentityFile ${join(dir, 'client_key')}`,
      `  UserKnownHostsFile ${join(dir, 'empty_known_hosts')}`,
      ...common,
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'ssh'), `#!/bin/sh\nexec ${shellCommand([ssh, '-F', clientConfig])} "$@"\n`, { mode: 0o755 });
  return bin;
}

/** `sshd -D` in the foreground, once it answers on its port; or why it did not within 10 s (it is ended then). */
async function runSshd(sshd: string, config: string, port: number): Promise<{ child: ChildProcess; log: () => string } | { problem: string }> {
  let log = '';
  const child: ChildProcess = spawn(sshd, ['-D', '-e', '-f', config, '-p', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (s: string) => (log += s));
  let exited: string | undefined;
  child.on('exit', (code, signal) => (exited = `sshd exited (${code ?? signal})`));
  const deadline = Date.now() + 10_000;
  while (!(await answers(port))) {
    if (exited || Date.now() > deadline) {
      child.kill('SIGKILL');
      return { problem: `sshd could not run here: ${exited ?? 'no answer on its port in 10 s'}: ${log.trim().split('\n').slice(-3).join(' | ')}` };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, log: () => log };
}
