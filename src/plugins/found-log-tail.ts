// Following a CLI's session log that has to be looked for before it can be tailed (codex's
// rollouts filed by day, gemini's chat logs filed by project hash, a claude or qwen log
// that appears at the first message): the driver's `find()` is asked now and every
// DISCOVER_MS after (less often once a run has been idle a while) until it names a file,
// which is then tailed as JSONL (log-tail.ts, from the last offset only) from where
// `onFound` says. Looking, not watching: the folder the log will land in may not exist yet.
// A `find()` that cannot tell the run's own log from another's throws
// AmbiguousSessionError: the looking stops and `onUnbound` says why; nothing is guessed.
// firstNewLog is the timing-based pick drop-ins may still use; no built-in driver does.
// It never writes; dispose() ends the looking and the tail.

import { statSync } from 'node:fs';
import { AmbiguousSessionError } from './api.js';
import { tailJsonl, type LogTail } from './log-tail.js';

/** How often the driver's `find()` is asked until the log appears... */
const DISCOVER_MS = 200;
/** ...and, after SLOW_AFTER_MS without one (a tab nobody has written in yet), how often. */
const SLOW_DISCOVER_MS = 1000;
const SLOW_AFTER_MS = 30_000;

export interface LogSearch {
  /** The log, once there is one to follow. Throws AmbiguousSessionError when it cannot be told. */
  find(): string | undefined;
  /** Called once, when the log is found; returns the offset to start reading at (default: its top). */
  onFound?(path: string): number | undefined;
  onRecord(record: unknown): void;
  /** A line that is not JSON. */
  onInvalid(): void;
  /** The log was truncated or replaced: it is read again from its top. */
  onReset?(): void;
  /** `find()` threw AmbiguousSessionError: nothing is followed; called once, with its message. */
  onUnbound?(reason: string): void;
}

export interface FoundLogTail {
  /** The log being followed, once found. */
  readonly path: string | undefined;
  dispose(): Promise<void>;
}

class Search implements FoundLogTail {
  private tail: LogTail | undefined;
  private timer: NodeJS.Timeout | undefined;
  private disposed = false;
  private readonly began = Date.now();

  constructor(private readonly search: LogSearch) {}

  get path(): string | undefined {
    return this.tail?.path;
  }

  async look(): Promise<void> {
    if (this.disposed || this.tail) return;
    let path: string | undefined;
    try {
      path = this.search.find();
    } catch (err) {
      if (!(err instanceof AmbiguousSessionError)) throw err;
      this.disposed = true;
      this.search.onUnbound?.(err.hint ? `${err.message} (${err.hint})` : err.message);
      return;
    }
    if (!path) {
      const wait = Date.now() - this.began > SLOW_AFTER_MS ? SLOW_DISCOVER_MS : DISCOVER_MS;
      this.timer = setTimeout(() => void this.look().catch(() => {}), wait);
      this.timer.unref();
      return;
    }
    const from = this.search.onFound?.(path) ?? 0;
    const tail = await tailJsonl(path, {
      from,
      onRecord: (record) => this.search.onRecord(record),
      onInvalid: () => this.search.onInvalid(),
      ...(this.search.onReset ? { onReset: () => this.search.onReset!() } : {}),
    });
    if (this.disposed) await tail.dispose();
    else this.tail = tail;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.tail?.dispose();
  }
}

/** Looks for the log now (and keeps looking), and follows it once found. */
export async function tailLogOnceFound(search: LogSearch): Promise<FoundLogTail> {
  const s = new Search(search);
  await s.look();
  return s;
}

/** What choosing among new logs needs of a log's first record: when its session started. */
export interface LogHeader {
  started: number;
}

/**
 * The one log started at or after `since` among `paths` whose header `belongs` accepts: the
 * pick by timing that drop-ins may still make (no built-in driver does; a run's own session
 * is told by its id or its process). Two such logs are two runs that cannot be told apart:
 * AmbiguousSessionError, never the older one. While a log that might be a candidate has no
 * complete header yet, nothing is picked (undefined: look again). A log that can never be
 * the one (last written before `since`, started before it, or not belonging) is added to
 * `rejected`, so a caller that looks again and again reads each header once. A rival that
 * starts after the pick is not seen: a caller that can, keeps looking (session-log-follower).
 */
export function firstNewLog<H extends LogHeader>(
  paths: Iterable<string>,
  since: Date,
  rejected: Set<string>,
  header: (path: string) => H | undefined,
  belongs: (header: H) => boolean,
): { path: string; header: H } | undefined {
  const found: { path: string; header: H }[] = [];
  let pending = 0;
  for (const path of paths) {
    if (rejected.has(path)) continue;
    try {
      if (statSync(path).mtimeMs < since.getTime() - 1000) {
        rejected.add(path);
        continue;
      }
    } catch {
      continue;
    }
    const h = header(path);
    if (!h) {
      pending++; // its first line is still being written
      continue;
    }
    if (h.started < since.getTime() || !belongs(h)) {
      rejected.add(path);
      continue;
    }
    found.push({ path, header: h });
  }
  if (found.length > 1) throw ambiguousLogs(found.map((f) => f.path));
  return pending ? undefined : found[0];
}

/** The error for two or more logs that could each be the run's own. */
export function ambiguousLogs(paths: readonly string[]): AmbiguousSessionError {
  return new AmbiguousSessionError(
    `${paths.length} sessions started in this directory at about the same time (${paths.join(', ')}); baton cannot tell which one is this tab's, so it records neither`,
    'start the agent again in this tab (C-b a), one tab at a time',
  );
}
