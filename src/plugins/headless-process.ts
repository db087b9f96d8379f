// The process of one headless turn, for drivers that start their CLI once per turn and read
// its stdout (claude -p, qwen, codex exec, gemini -p): the CLI as its own process group under
// the turn's deadline, the prompt written to stdin, each stdout line that is a JSON object
// handed to the driver as it arrives, the last 8 KiB of stderr kept, an abort stopping the
// group. Once the leader exits, the whole group is swept and the output that trails the exit
// is read. What the exit means (errors, hints, the result) is the driver's: this module words
// no message of its own. Nothing it started outlives the call.

import { BatonError, EXIT } from '../errors.js';
import type { HeadlessTurn } from './api.js';
import { jsonObjectLine } from './json-lines.js';
import { spawnGroup, type ExitInfo, type ProcessGroup } from '../proc/index.js';

const STDERR_KEEP = 8 * 1024;
/** How long output may trail the sweep of the group (a process outside it holding stdout). */
const TRAILING_OUTPUT_MS = 1000;

export interface HeadlessProcessOptions {
  env: NodeJS.ProcessEnv;
  /** Time between SIGTERM and SIGKILL on a timeout or an abort. */
  graceMs: number;
  /** The same when sweeping the group after the leader exited. Default: graceMs. */
  sweepGraceMs?: number;
  /** Written to stdin, which is then closed. Undefined: no stdin at all (not even an empty pipe). */
  stdin: string | undefined;
  /** Each stdout line that is a JSON object (banners and warnings are not). A throw stops the reading and is rethrown once the group is gone. */
  onRecord(record: Record<string, unknown>): void;
  /** What to throw when the program cannot be started at all (ENOENT, EACCES). */
  cannotStart(err: NodeJS.ErrnoException): Error;
}

export interface HeadlessExit extends ExitInfo {
  /** The last 8 KiB of what the CLI wrote to stderr. */
  stderr: string;
  /** The turn's deadline ended the group. */
  timedOut: boolean;
  /** The turn's signal was aborted: the group was stopped for it. */
  aborted: boolean;
}

/** Runs `path args` for `turn` (in its cwd, under its deadline, stopped by its signal) until the whole group is gone. */
export async function runHeadlessProcess(
  path: string,
  args: readonly string[],
  turn: Pick<HeadlessTurn, 'cwd' | 'timeoutMs' | 'signal'>,
  opts: HeadlessProcessOptions,
): Promise<HeadlessExit> {
  let group: ProcessGroup;
  try {
    group = await spawnGroup(path, args, {
      cwd: turn.cwd,
      env: opts.env,
      stdio: [opts.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      timeoutMs: turn.timeoutMs,
      graceMs: opts.graceMs,
    });
  } catch (err) {
    throw opts.cannotStart(err as NodeJS.ErrnoException);
  }
  const child = group.child;

  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    stderr = (stderr + d).slice(-STDERR_KEEP);
  });

  let reading = true;
  let handlerError: unknown;
  let pending = '';
  const take = (line: string) => {
    if (!reading || handlerError !== undefined) return;
    const record = jsonObjectLine(line);
    if (!record) return;
    try {
      opts.onRecord(record);
    } catch (err) {
      handlerError = err;
    }
  };
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    pending += d;
    let start = 0;
    for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n', start)) {
      take(pending.slice(start, nl));
      start = nl + 1;
    }
    pending = pending.slice(start);
  });

  if (opts.stdin !== undefined) {
    // EPIPE when the CLI exits before reading all of its prompt (a bad resume id): the exit says what happened.
    child.stdin!.on('error', () => {});
    child.stdin!.end(opts.stdin);
  }

  const onAbort = () => void group.stop();
  if (turn.signal?.aborted) onAbort();
  turn.signal?.addEventListener('abort', onAbort, { once: true });
  const closed = new Promise<void>((r) => child.once('close', () => r()));
  try {
    const exit = await group.exited;
    // Whatever the CLI left in its group goes now (tools it started, a relaunched self), so
    // nothing holds its stdout open; then the output that trails the exit is read.
    await group.stop(opts.sweepGraceMs);
    await Promise.race([closed, new Promise((r) => setTimeout(r, TRAILING_OUTPUT_MS))]);
    take(pending); // a last line without its newline
    reading = false;
    if (handlerError !== undefined) throw handlerError;
    return { ...exit, stderr, timedOut: group.timedOut, aborted: turn.signal?.aborted === true };
  } finally {
    reading = false;
    turn.signal?.removeEventListener('abort', onAbort);
    await group.stop();
  }
}

/** The last `n` lines of a CLI's stderr, for a hint ("X said: …"). */
export function lastLines(text: string, n = 5): string {
  return text.trim().split('\n').slice(-n).join('\n');
}

/**
 * Whether a turn that asked to resume (or fork) a native session got it: a resume is
 * honoured when the turn ran in that session; a fork, when it ran in a new one (the CLIs
 * that fork fail on an unknown session rather than start an empty one).
 */
export function resumeHonoured(turn: Pick<HeadlessTurn, 'resume' | 'fork'>, session: string | undefined): boolean {
  if (!turn.resume || !session) return false;
  return turn.fork ? session !== turn.resume : session === turn.resume;
}

/** `cannotStart` for a CLI run by its absolute path: missing is "not installed" (exit 3), anything else exit 4. */
export function cannotStartCli(title: string, path: string, installHint: string): (err: NodeJS.ErrnoException) => Error {
  return (err) =>
    err.code === 'ENOENT'
      ? new BatonError(`${title} is not installed (${path} is missing)`, EXIT.agentNotInstalled, installHint)
      : new BatonError(`${title} could not be started: ${err.code ?? String(err)}`, EXIT.agentFailed);
}
