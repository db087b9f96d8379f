// Follows an agent CLI's session while it runs in a PTY, for CLIs that keep one JSONL log
// per session in a directory per project (Claude Code, Qwen Code): finds the log (the
// session named, or the first one that appears in the project's directory after `since`),
// tails it incrementally (log-tail.ts: from the last offset only), and turns records into
// events through the CLI's own parser. Records written before `since` (a resumed
// session's history) update the parser's state but emit nothing. It never writes anything,
// and dispose() ends every watcher it started.

import { readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { IngestOptions, Ingestor, TranscriptEvent } from './api.js';
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
  private tail: LogTail | undefined;
  private watchers: PathWatcher[] = [];
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
    return this.session;
  }

  get skipped(): number {
    return this.parser.skipped + this.invalid;
  }

  async start(): Promise<void> {
    const dirs = [...new Set([this.where.dir(this.opts.cwd), this.where.dir(realOr(this.opts.cwd))])];
    if (this.opts.agentSession) {
      const file = this.where.find(this.opts.agentSession) ?? join(dirs[dirs.length - 1]!, `${this.opts.agentSession}.jsonl`);
      await this.follow(file);
      return;
    }
    // Watch first, then look: a log created in between is seen by one or the other.
    this.watchers = dirs.map((dir) => watchPath(dir, { dir: true }, (event, p) => {
      if (event === 'add') void this.consider(p);
    }));
    await Promise.all(this.watchers.map((w) => w.ready));
    for (const dir of dirs) {
      let names: string[] = [];
      try {
        names = readdirSync(dir);
      } catch {
        continue;
      }
      const fresh = names
        .filter((n) => n.endsWith('.jsonl'))
        .map((n) => ({ p: join(dir, n), at: bornAt(join(dir, n)) ?? 0 }))
        .filter((c) => c.at >= this.sinceMs - SLACK_MS)
        .sort((a, b) => a.at - b.at);
      if (fresh[0]) await this.consider(fresh[0].p);
    }
  }

  private async consider(path: string): Promise<void> {
    if (this.disposed || this.tail || this.session || !path.endsWith('.jsonl')) return;
    const at = bornAt(path);
    if (at === undefined || at < this.sinceMs - SLACK_MS) return;
    const watchers = this.watchers;
    this.watchers = [];
    await this.follow(path);
    await Promise.all(watchers.map((w) => w.close()));
  }

  private async follow(path: string): Promise<void> {
    this.session = basename(path, '.jsonl');
    this.opts.onEvent({ type: 'session', agentSession: this.session });
    this.tail = await tailJsonl(path, {
      from: 0,
      onRecord: (record) => {
        const events = this.parser.parse(record);
        const t = this.where.recordTime(record);
        if (t !== undefined && t < this.sinceMs - SLACK_MS) return;
        for (const e of events) this.opts.onEvent(e);
      },
      onInvalid: () => {
        this.invalid++;
      },
      // The CLIs only append; if a log is replaced, the new one is read whole.
      onReset: () => {
        this.parser = this.where.newParser();
      },
    });
    if (this.disposed) await this.tail.dispose();
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const watchers = this.watchers;
    this.watchers = [];
    await Promise.all(watchers.map((w) => w.close()));
    await this.tail?.dispose();
  }
}

export async function followSessionLog(opts: IngestOptions, where: SessionLogPlace): Promise<Ingestor> {
  const ing = new SessionLogFollower(opts, where);
  await ing.start();
  return ing;
}
