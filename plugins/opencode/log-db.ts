// Read-only queries against opencode's SQLite session database, through better-sqlite3
// (loaded on first use, so `baton agents` never pays for the native module). Each query
// is indexed and bounded: a follower asks only for events after the last seq it saw
// (event_aggregate_seq_idx), never for the whole session again. The connection is opened
// read-only and never writes; opencode keeps the database in WAL mode, so reading while
// opencode writes neither blocks it nor sees half a transaction.

import { BatonError, EXIT } from '../../src/plugins/kit.js';
import type { OpencodeRecord } from './log.js';

interface Statement {
  all(...params: unknown[]): unknown[];
  get(...params: unknown[]): unknown;
}
interface Database {
  prepare(sql: string): Statement;
  close(): void;
}
type DatabaseCtor = new (file: string, opts: { readonly: boolean; fileMustExist: boolean; timeout: number }) => Database;

let ctor: DatabaseCtor | undefined;

async function sqlite(): Promise<DatabaseCtor> {
  if (ctor) return ctor;
  // A variable specifier: the module's types are not a dependency, only its runtime.
  const name = 'better-sqlite3';
  try {
    const mod = (await import(name)) as { default: DatabaseCtor };
    ctor = mod.default;
    return ctor;
  } catch (err) {
    throw new BatonError(
      `cannot read opencode's session database: better-sqlite3 did not load (${(err as Error).message.split('\n')[0]})`,
      EXIT.agentFailed,
      'reinstall baton so its better-sqlite3 dependency is built for this Node version (npm rebuild better-sqlite3)',
    );
  }
}

export interface SessionRow {
  id: string;
  directory: string;
  parentId: string | null;
  timeCreated: number;
  timeUpdated: number;
}

const SESSION_COLUMNS = 'id, directory, parent_id AS parentId, time_created AS timeCreated, time_updated AS timeUpdated';

/** One open, read-only connection to opencode's database, with the queries baton needs. */
export class OpencodeDb {
  private readonly stmts = new Map<string, Statement>();
  private constructor(
    private readonly db: Database,
    readonly path: string,
  ) {}

  /** Opens the database read-only; throws (a plain Error) when it does not exist or is not opencode's. */
  static async open(path: string): Promise<OpencodeDb> {
    const Db = await sqlite();
    const db = new Db(path, { readonly: true, fileMustExist: true, timeout: 2000 });
    try {
      // opencode creates its tables on first start: until then this is not readable yet.
      db.prepare('SELECT 1 FROM event LIMIT 0').all();
      db.prepare('SELECT 1 FROM session LIMIT 0').all();
    } catch (err) {
      db.close();
      throw err;
    }
    return new OpencodeDb(db, path);
  }

  private q(sql: string): Statement {
    let s = this.stmts.get(sql);
    if (!s) this.stmts.set(sql, (s = this.db.prepare(sql)));
    return s;
  }

  session(id: string): SessionRow | undefined {
    return this.q(`SELECT ${SESSION_COLUMNS} FROM session WHERE id = ?`).get(id) as SessionRow | undefined;
  }

  /** The session's events after `afterSeq`, in order (at most `limit`). */
  eventsAfter(sessionId: string, afterSeq: number, limit = 500): OpencodeRecord[] {
    const rows = this.q('SELECT seq, type, data FROM event WHERE aggregate_id = ? AND seq > ? ORDER BY seq LIMIT ?').all(sessionId, afterSeq, limit) as {
      seq: number;
      type: string;
      data: string;
    }[];
    return rows.map((r) => ({ seq: r.seq, type: r.type, data: parse(r.data) }));
  }

  /** The highest event seq of a session (-1 when it has none). */
  lastSeq(sessionId: string): number {
    const row = this.q('SELECT MAX(seq) AS seq FROM event WHERE aggregate_id = ?').get(sessionId) as { seq: number | null } | undefined;
    return row?.seq ?? -1;
  }

  /**
   * A whole session as records in the event shapes, from opencode's message and part
   * tables (their final state): the session, then each message followed by its parts.
   */
  *sessionRecords(sessionId: string): Generator<OpencodeRecord> {
    const info = this.q('SELECT id, directory, model FROM session WHERE id = ?').get(sessionId) as
      | { id: string; directory: string; model: string | null }
      | undefined;
    if (!info) return;
    yield {
      type: 'session.updated.1',
      data: { sessionID: info.id, info: { id: info.id, directory: info.directory, model: info.model ? parse(info.model) : undefined } },
    };
    const messages = this.q('SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created, id').all(sessionId) as { id: string; data: string }[];
    const parts = this.q('SELECT id, data FROM part WHERE message_id = ? ORDER BY id');
    for (const m of messages) {
      const data = parse(m.data);
      const info = isObj(data) ? { ...data, id: m.id, sessionID: sessionId } : data;
      // As opencode wrote it: the message begun, its parts, then the message completed.
      if (isObj(info)) {
        const time = isObj(info.time) ? info.time : {};
        yield {
          type: 'message.updated.1',
          data: { sessionID: sessionId, info: { ...info, time: { created: time.created }, finish: undefined, error: undefined } },
        };
      }
      for (const p of parts.all(m.id) as { id: string; data: string }[]) {
        const pd = parse(p.data);
        yield {
          type: 'message.part.updated.1',
          data: { sessionID: sessionId, part: isObj(pd) ? { ...pd, id: p.id, messageID: m.id, sessionID: sessionId } : pd },
        };
      }
      yield { type: 'message.updated.1', data: { sessionID: sessionId, info } };
    }
  }

  close(): void {
    this.stmts.clear();
    this.db.close();
  }
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
