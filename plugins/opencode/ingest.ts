// Following and reading opencode's own sessions in its SQLite database. ingest(): find the
// session the launch named (made for the tab before its TUI started, or resumed; without one
// it follows nothing and says so: two tabs cannot be told apart by which session appeared
// first), then follow its rows of the append-only `event` table: each look asks only for events after
// the last seq seen. A look happens when the database's files change (chokidar on the
// data dir; opencode writes through the -wal file), shortly after each change (chokidar
// drops a change within 50 ms of the last), and every POLL_MS as a backstop. A resumed
// session's earlier messages give no events. readSession(): one whole session from the
// message/part tables, user messages included, for `baton transcript import`.
// It only reads: never writes the database, never holds a transaction between looks.

import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import {
  badInput,
  BatonError,
  type ImportedSession,
  type IngestOptions,
  type Ingestor,
  type PathWatcher,
  type ReadSessionOptions,
  type TranscriptEvent,
  unboundIngest,
  watchPath,
} from '../../src/plugins/kit.js';
import { OpencodeDb } from './log-db.js';
import { opencodeDataDir, opencodeDbPath } from './home.js';
import { OpencodeLogParser } from './log.js';

/** Backstop between looks when no file event came (and while the database is not there yet). */
const POLL_MS = 500;
/** A second look this long after a file event, for writes chokidar coalesced away. */
const SETTLE_MS = 60;

class OpencodeIngestor implements Ingestor {
  private db: OpencodeDb | undefined;
  private watcher: PathWatcher | undefined;
  private poll: NodeJS.Timeout | undefined;
  private settle: NodeJS.Timeout | undefined;
  private disposed = false;
  private looking = false;
  private again = false;
  private following: string | undefined;
  private sessionSaid = false;
  private readonly parser: OpencodeLogParser;
  private readonly dataDir: string;

  constructor(private readonly opts: IngestOptions) {
    this.dataDir = opencodeDataDir(opts.env, opts.account);
    this.parser = new OpencodeLogParser({ since: opts.since });
  }

  get agentSession(): string | undefined {
    return this.following ?? this.opts.agentSession;
  }

  get skipped(): number {
    return this.parser.skipped;
  }

  /** The database being read, once open. */
  get logPath(): string | undefined {
    return this.db?.path;
  }

  async start(): Promise<void> {
    this.watcher = watchPath(this.dataDir, { dir: true }, (_event, path) => {
      if (!basename(path).startsWith('opencode')) return;
      this.look();
      if (this.settle) clearTimeout(this.settle);
      this.settle = setTimeout(() => this.look(), SETTLE_MS);
    });
    await this.watcher.ready;
    this.tick();
  }

  private tick(): void {
    this.look();
    if (this.disposed) return;
    this.poll = setTimeout(() => this.tick(), POLL_MS);
    this.poll.unref();
  }

  /** One look at the database; a look asked for while one runs is run right after it. */
  private look(): void {
    if (this.disposed) return;
    if (this.looking) {
      this.again = true;
      return;
    }
    this.looking = true;
    void this.lookOnce()
      .catch((err: unknown) => {
        // A busy or half-created database: the next look tries again. better-sqlite3 that
        // cannot load will not load on the next look either: say so once and stop looking.
        if (err instanceof BatonError && !this.disposed) {
          this.emit({ type: 'error', text: err.hint ? `${err.message} (${err.hint})` : err.message });
          this.stop();
        }
      })
      .finally(() => {
        this.looking = false;
        if (this.again && !this.disposed) {
          this.again = false;
          this.look();
        }
      });
  }

  private async lookOnce(): Promise<void> {
    if (!this.db) {
      const path = opencodeDbPath(this.opts.env, this.opts.account);
      if (!path || !existsSync(path)) return;
      const db = await OpencodeDb.open(path);
      if (this.disposed) return db.close();
      this.db = db;
    }
    if (!this.following && !this.pick(this.db)) return;
    const sid = this.following!;
    for (;;) {
      const batch = this.db.eventsAfter(sid, this.parser.lastSeq);
      for (const record of batch) for (const e of this.parser.feed(record)) this.emit(e);
      if (batch.length < 500 || this.disposed) break;
    }
  }

  /** Starts following the named session; false while it is not there yet. */
  private pick(db: OpencodeDb): boolean {
    const { agentSession, since } = this.opts;
    const row = db.session(agentSession!);
    if (!row) return false;
    this.following = agentSession;
    // Nothing of it changed since `since`: start at its end rather than read its whole history.
    if (row.timeUpdated < since.getTime()) this.parser.lastSeq = db.lastSeq(agentSession!);
    this.emit({ type: 'session', agentSession: agentSession! });
    return true;
  }

  private emit(e: TranscriptEvent): void {
    if (this.disposed) return;
    if (e.type === 'session') {
      if (this.sessionSaid) return;
      this.sessionSaid = true;
    }
    this.opts.onEvent(e);
  }

  /** No more looks; what is open stays until dispose(). */
  private stop(): void {
    this.disposed = true;
    if (this.poll) clearTimeout(this.poll);
    if (this.settle) clearTimeout(this.settle);
  }

  async dispose(): Promise<void> {
    this.stop();
    await this.watcher?.close();
    // A look in flight finishes on its own; the connection closes once it is done.
    while (this.looking) await new Promise((r) => setTimeout(r, 5));
    this.db?.close();
    this.db = undefined;
  }
}

export async function ingestOpencode(opts: IngestOptions): Promise<Ingestor> {
  if (!opts.agentSession)
    return unboundIngest(
      opts,
      "opencode was started without a session baton made for it, so baton cannot tell its session from another tab's and records nothing from it",
    );
  const ing = new OpencodeIngestor(opts);
  await ing.start();
  return ing;
}

function unknownSession(session: string, where: string): Error {
  return badInput(
    `opencode has no session "${session}" in ${where}`,
    'list opencode sessions with `opencode session list` (ids look like ses_…), or pass --account if it ran under a baton account',
  );
}

async function openFor(opts: ReadSessionOptions): Promise<OpencodeDb | undefined> {
  const path = opencodeDbPath(opts.env, opts.account);
  if (!path || !existsSync(path)) return undefined;
  try {
    return await OpencodeDb.open(path);
  } catch (err) {
    if ((err as { exitCode?: number }).exitCode !== undefined) throw err;
    return undefined;
  }
}

export async function opencodeSessionLogPath(opts: ReadSessionOptions): Promise<string | undefined> {
  const db = await openFor(opts);
  if (!db) return undefined;
  try {
    return db.session(opts.session) ? db.path : undefined;
  } finally {
    db.close();
  }
}

export async function readOpencodeSession(opts: ReadSessionOptions): Promise<ImportedSession> {
  const where = opencodeDbPath(opts.env, opts.account) ?? opencodeDataDir(opts.env, opts.account);
  const db = await openFor(opts);
  if (!db) throw unknownSession(opts.session, where);
  try {
    if (!db.session(opts.session)) throw unknownSession(opts.session, where);
    const parser = new OpencodeLogParser();
    const events: TranscriptEvent[] = [];
    for (const record of db.sessionRecords(opts.session)) {
      for (const e of parser.feed(record)) if (e.type !== 'session') events.push(e);
    }
    return {
      agentSession: opts.session,
      ...(parser.model ? { model: parser.model } : {}),
      ...(parser.cwd ? { cwd: parser.cwd } : {}),
      events,
      skipped: parser.skipped,
      logPath: db.path,
    };
  } finally {
    db.close();
  }
}
