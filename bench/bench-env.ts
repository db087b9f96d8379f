// What the benches that run the built baton in a PTY share: a scratch home of their own
// (HOME and XDG dirs in a temp dir, the server's runtime dir 0700 as baton requires), a fresh
// build of dist/ (users run the built program, not the tsx loader), the pid of the bench's
// baton server from its lock file, and ending a PTY's program by its process group.

import type { IPty } from 'node-pty';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { endPids, readStat, signalGroup } from '../src/proc/index.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A temp dir (`prefix` names it) and an environment whose HOME, XDG dirs and shell live in it; the runtime dir is made 0700. */
export function scratchEnv(prefix: string): { tmp: string; env: Record<string, string> } {
  const tmp = mkdtempSync(join(tmpdir(), prefix));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: tmp,
    XDG_CONFIG_HOME: join(tmp, 'config'),
    XDG_STATE_HOME: join(tmp, 'state'),
    XDG_DATA_HOME: join(tmp, 'data'),
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    SHELL: '/bin/sh',
    PS1: '$ ',
    // baton's server socket in a directory of the bench's own.
    XDG_RUNTIME_DIR: join(tmp, 'run'),
  };
  mkdirSync(env.XDG_CONFIG_HOME!, { recursive: true });
  mkdirSync(env.XDG_RUNTIME_DIR!, { recursive: true, mode: 0o700 });
  return { tmp, env };
}

/** Builds dist/ as `npm test` does and returns the built CLI's path. */
export function buildBaton(): string {
  spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: ROOT, stdio: 'ignore' });
  return join(ROOT, 'dist/src/cli.js');
}

/** The pid of the baton server whose runtime dir is `runtimeDir` (its lock file), while it runs. */
export function serverPid(runtimeDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(runtimeDir, 'baton', 'default.lock'), 'utf8').trim());
    return pid > 1 && readStat(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Ends a PTY's program by its process group: SIGTERM, then SIGKILL after 3 s. */
export async function endPty(p: IPty): Promise<void> {
  const done = new Promise<void>((r) => p.onExit(() => r()));
  signalGroup(p.pid, 'SIGTERM');
  const t = setTimeout(() => signalGroup(p.pid, 'SIGKILL'), 3000);
  await done;
  clearTimeout(t);
}

/** Ends the bench's baton server, if it runs, with every tab in it (SIGTERM: it ends its tabs' programs). */
export async function endServer(runtimeDir: string, pid = serverPid(runtimeDir)): Promise<void> {
  if (pid) await endPids(() => (readStat(pid) ? [pid] : []), { graceMs: 3000 });
}

/** Ends a client and then the bench's baton server with every tab in it. */
export async function endClientAndServer(client: IPty, runtimeDir: string): Promise<void> {
  const server = serverPid(runtimeDir);
  await endPty(client);
  await endServer(runtimeDir, server);
}
