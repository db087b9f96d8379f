// Follows an agent CLI's session while it runs in a PTY, for CLIs that keep one JSONL log
// per session in a directory per project (Claude Code, Qwen Code): the log of the session
// named (the id the launch gave the CLI, or the one it resumes), looked for until it
// appears (found-log-tail.ts) and tailed incrementally (log-tail.ts: from the last offset
// only); records become events through the CLI's own parser. Records written before
// `since` (a resumed session's history) update the parser's state but emit nothing.
// Without a session named (drop-ins that cannot give their CLI an id) it falls back to
// timing: the one log created in the project's directory after `since`, and only while it
// stays the only one — a second is another run's or this one's, and which cannot be told,
// so it stops and says so (`onUnbound`) rather than guess. It never writes anything, and
// dispose() ends every watcher it started.

import { readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { IngestOptions, Ingestor, TranscriptEvent } from './api.js';
import { ambiguousLogs, tailLogOnceFound, type FoundLogTail } from './found-log-tail.js';
import { tailJsonl, type LogTail } from './log-tail.js';
import { watchPath, type PathWatcher } from './watch-path.js';

export interface LogParser {
  parse(record: unknown): TranscriptEvent[];
  /** Records of shapes it does not know, skipped. */
  readonly skipped: number;
  /** The log ended (a whole-log import): events of records the parser still holds back. */
  end?(): TranscriptEvent[];
}

/** Where one CLI keeps its session logs, and how to read them. */
export interface SessionLogPlace {
  /** The directory holding the logs of sessions run in `cwd`. */
  dir(cwd: string): string;
  /** The log of a named session, wherever the CLI filed it; undefined when not found. */
  find(session: string): string | undefined;
  newParser(): LogParser;
  /** A record's time in ms, when it has one. */
  recordTime(record: unknown): number | undefined;
}

/**
 * A log counts as new when it was created after `since`. File times come from the kernel's
 * coarse clock, up to a tick behind Date.now(): a log made just after `since` may look a few
 * ms older.
 */
const SLACK_MS = 20;

function bornAt(path: string): number | undefined {
  try {
    const st = statSync(path);
    return st.birthtimeMs > 0 ? st.birthtimeMs : st.mtimeMs;
  } catch {
    return undefined;
  }
}

function realOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

class SessionLogFollower implements Ingestor {
  private parser: LogParser;
  private invalid = 0;
  private session: string | undefined;
  private found: FoundLogTail | undefined;
  private tail: LogTail | undefined;
  private watchers: PathWatcher[] = [];
  /** Logs created after `since` in the project's directories (the timing fallback). */
  private readonly fresh = new Set<string>();
  private unbound = false;
  private disposed = false;
  private readonly sinceMs: number;

  constructor(
    private readonly opts: IngestOptions,
    private readonly where: SessionLogPlace,
  ) {
    this.sinceMs = opts.since.getTime();
    this.parser = where.newParser();
  }

  get agentSession(): string | undefined {
    return this.session ?? this.opts.agentSession;
  }

  get skipped(): number {
    return this.parser.skipped + this.invalid;
  }

  async start(): Promise<void> {
    const named = this.opts.agentSession;
    if (named) {
      this.found = await tailLogOnceFound({
        find: () => this.where.find(named),
        // The session is real once its log is there: said then, not before (a launch that
        // never got a message leaves no session to resume).
        onFound: () => {
          this.said(named);
          return 0;
        },
        onRecord: (record) => this.record(record),
        onInvalid: () => {
          this.invalid++;
        },
        onReset: () => {
          this.parser = this.where.newParser();
        },
      });
      return;
    }
    const dirs = [...new Set([this.where.dir(this.opts.cwd), this.where.dir(realOr(this.opts.cwd))])];
    // Watch first, then look: a log created in between is seen by one or the other. The
    // watch stays while a log is followed, so a second new one is noticed.
    this.watchers = dirs.map((dir) =>
      watchPath(dir, { dir: true }, (event, p) => {
        if (event === 'add') void this.consider([p]);
      }),
    );
    await Promise.all(this.watchers.map((w) => w.ready));
    const there: string[] = [];
    for (const dir of dirs) {
      try {
        there.push(...readdirSync(dir).map((n) => join(dir, n)));
      } catch {
        // not there yet: the watch reports it when it is
      }
    }
    await this.consider(there);
  }

  private said(session: string): void {
    if (this.session) return;
    this.session = session;
    this.opts.onEvent({ type: 'session', agentSession: session });
  }

  private record(record: unknown): void {
    if (this.unbound || this.disposed) return;
    const events = this.parser.parse(record);
    const t = this.where.recordTime(record);
    if (t !== undefined && t < this.sinceMs - SLACK_MS) return;
    for (const e of events) this.opts.onEvent(e);
  }

  /** The timing fallback: follows the one new log; a second makes it stop. */
  private async consider(paths: string[]): Promise<void> {
    if (this.disposed || this.unbound) return;
    for (const p of paths) {
      if (!p.endsWith('.jsonl') || this.fresh.has(p)) continue;
      const at = bornAt(p);
      if (at !== undefined && at >= this.sinceMs - SLACK_MS) this.fresh.add(p);
    }
    if (this.fresh.size > 1) return this.giveUp([...this.fresh]);
    const [only] = this.fresh;
    if (!only || this.tail) return;
    this.said(basename(only, '.jsonl'));
    const tail = await tailJsonl(only, {
      from: 0,
      onRecord: (record) => this.record(record),
      onInvalid: () => {
        this.invalid++;
      },
      // The CLIs only append; if a log is replaced, the new one is read whole.
      onReset: () => {
        this.parser = this.where.newParser();
      },
    });
    if (this.disposed || this.unbound) await tail.dispose();
    else this.tail = tail;
  }

  private async giveUp(paths: string[]): Promise<void> {
    this.unbound = true;
    const err = ambiguousLogs(paths);
    this.opts.onUnbound?.(`${err.message} (${err.hint})`);
    await this.stopWatching();
  }

  private async stopWatching(): Promise<void> {
    const watchers = this.watchers;
    this.watchers = [];
    await Promise.all(watchers.map((w) => w.close()));
    const tail = this.tail;
    this.tail = undefined;
    await tail?.dispose();
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await this.stopWatching();
    await this.found?.dispose();
  }
}

export async function followSessionLog(opts: IngestOptions, where: SessionLogPlace): Promise<Ingestor> {
  const ing = new SessionLogFollower(opts, where);
  await ing.start();
  return ing;
}
