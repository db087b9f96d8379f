// Follows a Claude Code session while it runs in a PTY: finds its log (the session named, or
// the first session whose log appears in the project's directory after `since`), tails it
// incrementally (log-tail.ts: from the last offset only), and turns records into events
// through claude-log.ts. Records written before `since` (a resumed session's history) update
// the parser's state but emit nothing. It never writes anything, and dispose() ends every
// watcher it started.

import { readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { IngestOptions, Ingestor } from '../src/plugins/api.js';
import { tailJsonl, type LogTail } from '../src/plugins/log-tail.js';
import { watchPath, type PathWatcher } from '../src/plugins/watch-path.js';
import { claudeConfigDir, findSessionLog, projectDir } from './claude-home.js';
import { ClaudeLogParser, recordTime } from './claude-log.js';

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

class ClaudeIngestor implements Ingestor {
  private parser = new ClaudeLogParser();
  private invalid = 0;
  private session: string | undefined;
  private tail: LogTail | undefined;
  private watchers: PathWatcher[] = [];
  private disposed = false;
  private readonly sinceMs: number;

  constructor(private readonly opts: IngestOptions) {
    this.sinceMs = opts.since.getTime();
  }

  get agentSession(): string | undefined {
    return this.session;
  }

  get skipped(): number {
    return this.parser.skipped + this.invalid;
  }

  async start(): Promise<void> {
    const configDir = claudeConfigDir(this.opts.env, this.opts.account);
    const dirs = [...new Set([projectDir(configDir, this.opts.cwd), projectDir(configDir, realOr(this.opts.cwd))])];
    if (this.opts.agentSession) {
      const file = findSessionLog(configDir, this.opts.cwd, this.opts.agentSession) ?? join(dirs[dirs.length - 1]!, `${this.opts.agentSession}.jsonl`);
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
        const t = recordTime(record);
        if (t !== undefined && t < this.sinceMs - SLACK_MS) return;
        for (const e of events) this.opts.onEvent(e);
      },
      onInvalid: () => {
        this.invalid++;
      },
      // Claude Code never rewrites a log in place; if one is replaced, the new one is read whole.
      onReset: () => {
        this.parser = new ClaudeLogParser();
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

export async function ingestClaude(opts: IngestOptions): Promise<Ingestor> {
  const ing = new ClaudeIngestor(opts);
  await ing.start();
  return ing;
}
