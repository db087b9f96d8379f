// Client terminals for ACP agents (terminal/create, output, wait_for_exit, kill, release):
// real child processes, each its own process group, started from an argv array (command +
// args; a whole command line given with no args, as claude-code-acp sends a shell call, runs
// under /bin/sh -c, since that line is what the user was shown and allowed). Output is kept up to the agent's byte limit, dropping from
// the front at a character boundary as the protocol asks. Everything still running when
// the turn ends is killed by group. Never runs anything the agent did not ask for.

import { randomUUID } from 'node:crypto';
import { isAbsolute, resolve } from 'node:path';
import { spawnGroup, type ProcessGroup } from '../proc/index.js';

/** Without a limit from the agent, output is still bounded: baton's memory is not the agent's to fill. */
const DEFAULT_LIMIT = 1024 * 1024;
const KEEP_RELEASED = 64;

export interface ExitStatus {
  exitCode: number | null;
  signal: string | null;
}

export interface CreateTerminal {
  command: string;
  args?: string[] | null;
  env?: { name: string; value: string }[] | null;
  cwd?: string | null;
  outputByteLimit?: number | null;
}

class Terminal {
  readonly id = `term-${randomUUID()}`;
  private chunks: Buffer[] = [];
  private size = 0;
  truncated = false;
  status: ExitStatus | undefined;
  readonly done: Promise<ExitStatus>;
  readonly group: ProcessGroup | undefined;
  private readonly limit: number;

  constructor(limit: number, group: ProcessGroup | undefined, failure?: string) {
    this.limit = limit;
    this.group = group;
    if (!group) {
      this.append(Buffer.from(failure ?? ''));
      this.status = { exitCode: 127, signal: null };
      this.done = Promise.resolve(this.status);
      return;
    }
    const onData = (d: Buffer) => this.append(d);
    group.child.stdout!.on('data', onData);
    group.child.stderr!.on('data', onData);
    // Exit status once the streams are drained, so `output` after `wait_for_exit` is complete.
    const closed = new Promise<void>((r) => group.child.once('close', () => r()));
    this.done = group.exited.then(async (e) => {
      await Promise.race([closed, new Promise((r) => setTimeout(r, 500))]);
      this.status = { exitCode: e.code, signal: e.signal };
      return this.status;
    });
  }

  private append(d: Buffer): void {
    this.chunks.push(d);
    this.size += d.length;
    if (this.size <= this.limit) return;
    const all = Buffer.concat(this.chunks);
    let start = all.length - this.limit;
    // Never start inside a UTF-8 sequence: skip continuation bytes (10xxxxxx).
    while (start < all.length && (all[start]! & 0xc0) === 0x80) start++;
    const kept = all.subarray(start);
    this.chunks = [Buffer.from(kept)];
    this.size = kept.length;
    this.truncated = true;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

/**
 * The argv a terminal runs: the agent's command and args as given; but a command line with no
 * args (claude-code-acp sends a Bash tool call's whole line, `a && b`, as `command`, as Zed
 * runs it) is run by /bin/sh -c, the line the user saw on the card and allowed.
 */
export function argvOf(req: Pick<CreateTerminal, 'command' | 'args'>): [string, string[]] {
  if (!req.args?.length && /\s/.test(req.command.trim())) return ['/bin/sh', ['-c', req.command]];
  return [req.command, req.args ?? []];
}

export class TerminalPool {
  private readonly terminals = new Map<string, Terminal>();
  private readonly released = new Map<string, string>();
  private readonly cwd: string;
  private readonly env: NodeJS.ProcessEnv;

  constructor(defaults: { cwd: string; env: NodeJS.ProcessEnv }) {
    this.cwd = defaults.cwd;
    this.env = defaults.env;
  }

  async create(req: CreateTerminal): Promise<string> {
    const env = { ...this.env };
    for (const v of req.env ?? []) env[v.name] = v.value;
    const cwd = req.cwd ? (isAbsolute(req.cwd) ? req.cwd : resolve(this.cwd, req.cwd)) : this.cwd;
    const limit = req.outputByteLimit && req.outputByteLimit > 0 ? req.outputByteLimit : DEFAULT_LIMIT;
    let term: Terminal;
    try {
      const [command, args] = argvOf(req);
      const g = await spawnGroup(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], graceMs: 1000 });
      term = new Terminal(limit, g);
    } catch (err) {
      // Like a shell: a program that cannot start is a terminal that exited with 127.
      const code = (err as NodeJS.ErrnoException).code ?? String(err);
      term = new Terminal(limit, undefined, `baton: cannot run ${JSON.stringify(req.command)}: ${code}\n`);
    }
    this.terminals.set(term.id, term);
    return term.id;
  }

  private get(id: string): Terminal {
    const t = this.terminals.get(id);
    if (!t) throw new Error(`no terminal ${id}`);
    return t;
  }

  output(id: string): { output: string; truncated: boolean; exitStatus?: ExitStatus } {
    const t = this.get(id);
    return t.status ? { output: t.text(), truncated: t.truncated, exitStatus: t.status } : { output: t.text(), truncated: t.truncated };
  }

  waitForExit(id: string): Promise<ExitStatus> {
    return this.get(id).done;
  }

  async kill(id: string): Promise<void> {
    const t = this.get(id);
    await t.group?.stop();
    await t.done;
  }

  async release(id: string): Promise<void> {
    const t = this.terminals.get(id);
    if (!t) return;
    this.terminals.delete(id);
    await t.group?.stop();
    this.released.set(id, t.text());
    if (this.released.size > KEEP_RELEASED) this.released.delete(this.released.keys().next().value!);
  }

  /** Terminals whose program still runs. */
  running(): string[] {
    return [...this.terminals].filter(([, t]) => !t.status && t.group).map(([id]) => id);
  }

  /** Process group of a live terminal (none when its program could not start). */
  pgidOf(id: string): number | undefined {
    return this.terminals.get(id)?.group?.pgid;
  }

  /** Output of a live or released terminal, for the tool result that embeds it. */
  outputOf(id: string): string | undefined {
    return this.terminals.get(id)?.text() ?? this.released.get(id);
  }

  async dispose(): Promise<void> {
    await Promise.all([...this.terminals.keys()].map((id) => this.release(id)));
  }
}
