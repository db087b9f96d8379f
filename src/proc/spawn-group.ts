// Child processes baton owns as whole process groups: spawned detached (own group, pgid =
// pid), stopped gracefully and then killed through -pgid, optionally under a deadline.
// Whole groups, because agent CLIs leave helpers behind: the codex-acp npm shim orphans its
// native binary when only the shim is killed. This module never kills anything by name and
// never signals a group it did not start; argv arrays only, never a shell string.

import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { groupAlive } from './members.js';
import { endGroup, signalGroup } from './signal.js';

export interface GroupSpawnOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Default: all three piped. */
  stdio?: StdioOptions;
  /** Stop the whole group after this long; `timedOut` is then true. */
  timeoutMs?: number;
  /** Time between SIGTERM and SIGKILL when stopping. Default 2000 ms. */
  graceMs?: number;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const live = new Set<ProcessGroup>();
let exitHookInstalled = false;

// When baton itself exits (normally or through process.exit), nothing it started may
// outlive it. 'exit' handlers must be synchronous: SIGKILL is all there is time for.
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const g of live) signalGroup(g.pgid, 'SIGKILL');
  });
}

export class ProcessGroup {
  readonly child: ChildProcess;
  /** Process group id (= the leader's pid). */
  readonly pgid: number;
  /** Resolves when the leader exits (not when its stdio closes: grandchildren may hold it). */
  readonly exited: Promise<ExitInfo>;
  timedOut = false;
  private exitInfo: ExitInfo | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopping: Promise<void> | undefined;
  private readonly graceMs: number;

  constructor(child: ChildProcess, opts: GroupSpawnOptions) {
    this.child = child;
    this.pgid = child.pid!;
    this.graceMs = opts.graceMs ?? 2000;
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        if (this.timer) clearTimeout(this.timer);
        resolve(this.exitInfo);
      });
    });
    live.add(this);
    installExitHook();
    if (opts.timeoutMs !== undefined) {
      this.timer = setTimeout(() => {
        this.timedOut = true;
        void this.stop();
      }, opts.timeoutMs);
      this.timer.unref();
    }
  }

  /** The leader has exited (members of its group may still run; `stop()` sweeps them). */
  get leaderExited(): boolean {
    return this.exitInfo !== undefined;
  }

  get exit(): ExitInfo | undefined {
    return this.exitInfo;
  }

  /** Any process of the group still alive. */
  get alive(): boolean {
    return groupAlive(this.pgid);
  }

  /**
   * SIGTERM to the whole group, SIGKILL to whatever is left after the grace period, and
   * wait until the group is gone. Safe to call many times and after the leader exited.
   */
  stop(graceMs = this.graceMs): Promise<void> {
    this.stopping ??= this.doStop(graceMs);
    return this.stopping;
  }

  /** Signal the whole group now, without waiting. */
  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    signalGroup(this.pgid, signal);
  }

  private async doStop(graceMs: number): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    await endGroup(this.pgid, graceMs);
    // The leader's 'exit' event follows its death by at most one turn of the loop.
    if (!this.exitInfo && this.child.exitCode === null && this.child.signalCode === null) {
      await Promise.race([this.exited, new Promise((r) => setTimeout(r, 1000))]);
    }
    live.delete(this);
  }
}

/**
 * Start `command args` as the leader of a new process group. Rejects with the spawn error
 * (ENOENT, EACCES) when the program cannot be started at all.
 */
export function spawnGroup(command: string, args: readonly string[], opts: GroupSpawnOptions = {}): Promise<ProcessGroup> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      stdio: opts.stdio ?? ['pipe', 'pipe', 'pipe'],
      detached: true,
      windowsHide: true,
    });
    const onError = (err: Error) => reject(err);
    child.once('error', onError);
    child.once('spawn', () => {
      child.off('error', onError);
      // A later 'error' (e.g. a failed kill) must not crash baton; exit is what we follow.
      child.on('error', () => {});
      resolve(new ProcessGroup(child, opts));
    });
  });
}

export interface RunResult extends ExitInfo {
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/**
 * Run a short command to completion in its own group (version probes and the like),
 * capturing at most `maxBytes` of each stream. The group is always swept afterwards.
 */
export async function runGroup(
  command: string,
  args: readonly string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs: number; maxBytes?: number },
): Promise<RunResult> {
  const max = opts.maxBytes ?? 64 * 1024;
  const g = await spawnGroup(command, args, {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeoutMs: opts.timeoutMs,
    graceMs: 500,
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  let outLen = 0;
  let errLen = 0;
  g.child.stdout!.on('data', (d: Buffer) => {
    if (outLen >= max) return;
    out.push(d);
    outLen += d.length;
  });
  g.child.stderr!.on('data', (d: Buffer) => {
    if (errLen >= max) return;
    err.push(d);
    errLen += d.length;
  });
  const closed = new Promise((r) => g.child.once('close', r));
  const info = await g.exited;
  // Output can trail the exit; once the group is swept nobody holds the pipes open.
  await g.stop(500);
  await Promise.race([closed, new Promise((r) => setTimeout(r, 1000))]);
  return {
    ...info,
    stdout: Buffer.concat(out).subarray(0, max).toString('utf8'),
    stderr: Buffer.concat(err).subarray(0, max).toString('utf8'),
    timedOut: g.timedOut,
  };
}
