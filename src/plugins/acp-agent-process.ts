// The agent's process for one ACP turn: started as its own process group, its stderr's last
// words kept for the error a user reads, the turn's stops (timeout, abort, the agent's own
// exit) raced against every step, and the whole group ended afterwards. It speaks no ACP
// and decides no policy (acp-harness.ts does); it never leaves the agent or its helpers running.

import { existsSync } from 'node:fs';
import { BatonError, EXIT } from '../errors.js';
import type { HeadlessTurn } from './api.js';
import { spawnGroup, type ExitInfo, type ProcessGroup } from '../proc/index.js';
import type { AcpAgentDecl } from './validate.js';

const STDERR_KEEP = 8 * 1024;

/** Why a turn was stopped from outside its steps; `info` is the agent's exit, when that was why. */
export class Stop extends Error {
  constructor(
    readonly why: 'timeout' | 'abort' | 'exit',
    readonly info?: ExitInfo,
  ) {
    super(why);
  }
}

/** The agent as its own process group, in the turn's directory; failing to start is said as the user can act on it. */
export async function spawnAgent(
  decl: AcpAgentDecl,
  turn: Pick<HeadlessTurn, 'args' | 'model' | 'cwd'>,
  path: string,
  env: NodeJS.ProcessEnv,
): Promise<ProcessGroup> {
  const title = decl.title ?? decl.name;
  const args = [...(decl.args ?? []), ...(turn.args ?? [])];
  if (turn.model && decl.modelArg) args.push(decl.modelArg, turn.model);
  try {
    return await spawnGroup(path, args, { cwd: turn.cwd, env, graceMs: 1500 });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // spawn says ENOENT for a missing working directory too.
    if (code === 'ENOENT' && !existsSync(turn.cwd)) throw new BatonError(`cannot start ${title}: the directory ${turn.cwd} does not exist`, EXIT.badInput);
    if (code === 'ENOENT') throw new BatonError(`${title} is not installed (${path} is missing)`, EXIT.agentNotInstalled, decl.installHint);
    throw new BatonError(`${title} could not be started: ${code ?? String(err)}`, EXIT.agentFailed);
  }
}

/** Keeps the last of the agent's stderr; returns the hint that quotes its last lines, if it said anything. */
export function keepStderr(group: ProcessGroup, title: string): () => string | undefined {
  let stderr = '';
  group.child.stderr!.setEncoding('utf8');
  group.child.stderr!.on('data', (d: string) => {
    stderr = (stderr + d).slice(-STDERR_KEEP);
  });
  return () => {
    const tail = stderr.trim().split('\n').slice(-5).join('\n');
    return tail ? `${title} said:\n${tail}` : undefined;
  };
}

/**
 * Timeout, abort and the agent's own exit all end the turn the same way: by rejecting
 * whatever step is in flight.
 */
export class TurnStops {
  private stopped = false;
  private fail!: (s: Stop) => void;
  private readonly stop = new Promise<never>((_, reject) => (this.fail = reject));
  private readonly timer: NodeJS.Timeout;
  private readonly onAbort = () => this.end(new Stop('abort'));

  constructor(
    private readonly turn: HeadlessTurn,
    group: ProcessGroup,
  ) {
    this.stop.catch(() => {});
    this.timer = setTimeout(() => this.end(new Stop('timeout')), turn.timeoutMs);
    if (turn.signal?.aborted) this.onAbort();
    turn.signal?.addEventListener('abort', this.onAbort, { once: true });
    void group.exited.then((info) => this.end(new Stop('exit', info)));
  }

  readonly step = <T>(p: Promise<T>): Promise<T> => {
    p.catch(() => {});
    return Promise.race([p, this.stop]);
  };

  dispose(): void {
    clearTimeout(this.timer);
    this.turn.signal?.removeEventListener('abort', this.onAbort);
  }

  private end(s: Stop): void {
    if (this.stopped) return;
    this.stopped = true;
    this.fail(s);
  }
}

/** Closes the connection and ends the agent's whole group: it never outlives the turn. */
export async function endAgent(client: { close(): Promise<void> }, group: ProcessGroup): Promise<void> {
  await client.close().catch(() => {});
  group.child.stdin!.end();
  // A well-behaved agent exits on EOF; the group is ended either way.
  await Promise.race([group.exited, new Promise((r) => setTimeout(r, 300))]);
  await group.stop();
}
