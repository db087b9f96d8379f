// Which codex thread a tab's own codex process is writing, read from /proc: codex cannot be
// told a thread id, and two TUIs started in one second in one directory name their rollouts
// with the same second, so timing cannot tell them apart. Its process can: from the TUI's
// start (launched with --no-daemon, so the app server runs inside it) the native codex
// process in the tab's process group holds an open, flock'd fd on
// `$CODEX_HOME/thread-writer-locks/<thread id>.lock`, and from the first message one on
// its rollout `sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl`. So: the members of
// the tab's process group, their open files, the lock files under this CODEX_HOME among
// them. One thread is the answer; none is "not yet"; more than one (a `/new` before baton
// looked) is ambiguous, never a guess. After `/new` (or `/resume`) in the TUI the process
// holds the new thread's lock beside the first one's: heldThreads() lists them all, for the
// ingest to follow the one that newly appeared. Linux only; it only reads.

import { realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { AmbiguousSessionError, groupMembers, openFiles } from '../../src/plugins/kit.js';

const LOCK = /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\.lock$/;

function realOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

export interface HeldThread {
  thread: string;
  /** The thread's rollout, when the process has it open already. */
  rollout?: string;
}

/** Every thread whose lock under `home` is among `files`. */
function threadsAmong(home: string, files: readonly string[]): Set<string> {
  const locks = join(realOr(home), 'thread-writer-locks');
  const threads = new Set<string>();
  for (const f of files) {
    const m = LOCK.exec(basename(f));
    if (m && dirname(f) === locks) threads.add(m[1]!);
  }
  return threads;
}

/**
 * The thread whose lock under `home` is among `files` (what a run's processes hold open,
 * as /proc shows them: real paths): undefined when none is; AmbiguousSessionError when
 * several are.
 */
export function threadAmong(home: string, files: readonly string[]): HeldThread | undefined {
  const threads = threadsAmong(home, files);
  if (threads.size > 1) {
    throw new AmbiguousSessionError(
      `the codex in this tab holds ${threads.size} threads (${[...threads].join(', ')}); baton cannot tell which one this tab's conversation is in, so it records none`,
      'start the agent again in this tab (C-b a); use a new tab rather than /new for a new thread',
    );
  }
  const [thread] = threads;
  if (!thread) return undefined;
  const sessions = join(realOr(home), 'sessions');
  const rollout = files.find((f) => f.startsWith(sessions + '/') && basename(f).startsWith('rollout-') && basename(f).endsWith(`-${thread}.jsonl`));
  return { thread, ...(rollout ? { rollout } : {}) };
}

const filesOf = (group: number) => groupMembers(group).flatMap((pid) => (openFiles(pid) ?? []).map((f) => f.target));

/** The thread the codex run in process group `group` holds under `home` (see threadAmong). */
export function heldThread(home: string, group: number): HeldThread | undefined {
  return threadAmong(home, filesOf(group));
}

/** Every thread the codex run in process group `group` holds under `home`. */
export function heldThreads(home: string, group: number): string[] {
  return [...threadsAmong(home, filesOf(group))];
}
