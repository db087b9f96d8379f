// plugins/opencode/log-log-db.ts: read-only queries against an opencode database. The database is
// a real SQLite file in a temp dir holding the rows captured from opencode 1.18.33
// (test/fixtures/opencode/: the `event` rows and the session/message/part rows of one
// session); it is written here with better-sqlite3 and read back through OpencodeDb.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { TranscriptEvent } from '../../src/plugins/api.js';
import { OpencodeDb } from '../../plugins/opencode/log-db.js';
import { OpencodeLogParser, type OpencodeRecord } from '../../plugins/opencode/log.js';
import { type OpencodeTables, writeOpencodeTables } from '../helpers/opencode-tables.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/opencode');
const events = readFileSync(join(FIXTURES, 'events.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as { seq: number; type: string; data: unknown });
const tables = JSON.parse(readFileSync(join(FIXTURES, 'tables.json'), 'utf8')) as OpencodeTables;
const SESSION = tables.session[0]!.id as string;

let dir = '';
let path = '';

function build(file: string): void {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  writeOpencodeTables(db, tables);
  db.exec('CREATE UNIQUE INDEX event_aggregate_seq_idx ON event (aggregate_id, seq)');
  const insert = db.prepare('INSERT INTO event VALUES (?, ?, ?, ?, ?)');
  for (const e of events) insert.run(`evt_${e.seq}`, SESSION, e.seq, e.type, JSON.stringify(e.data));
  // Another session's events, interleaved in the table: never returned for ours.
  insert.run('evt_other', 'ses_other', 1000, 'session.created.1', '{}');
  db.close();
}

const s = suite('opencode database (read-only)');
s.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-opencode-db-'));
  path = join(dir, 'opencode.db');
  build(path);
});
s.after(() => rmSync(dir, { recursive: true, force: true }));

s('events after a seq: only later ones of that session, in order, parsed; lastSeq', async () => {
  const db = await OpencodeDb.open(path);
  try {
    const last = events[events.length - 1]!.seq;
    assert.is(db.lastSeq(SESSION), last);
    assert.is(db.lastSeq('ses_none'), -1);
    const later = db.eventsAfter(SESSION, 60);
    assert.equal(
      later.map((r) => r.seq),
      events.filter((e) => e.seq > 60).map((e) => e.seq),
    );
    assert.equal(later[0]!.data, events.find((e) => e.seq === 61)!.data);
    assert.equal(db.eventsAfter(SESSION, last), []);
    // Paged: a limit bounds one look.
    assert.equal(
      db.eventsAfter(SESSION, -1, 5).map((r) => r.seq),
      [0, 1, 2, 3, 4],
    );
  } finally {
    db.close();
  }
});

s('sessions: by id', async () => {
  const db = await OpencodeDb.open(path);
  try {
    const row = db.session(SESSION)!;
    assert.is(row.id, SESSION);
    assert.match(row.directory, /\/work$/);
    assert.is(row.parentId, null);
    assert.is(db.session('ses_none'), undefined);
  } finally {
    db.close();
  }
});

s('a whole session from the message and part tables parses as the event log does', async () => {
  const db = await OpencodeDb.open(path);
  const fromTables: TranscriptEvent[] = [];
  const tParser = new OpencodeLogParser();
  try {
    for (const r of db.sessionRecords(SESSION)) fromTables.push(...tParser.feed(r));
  } finally {
    db.close();
  }
  const lParser = new OpencodeLogParser();
  const fromLog = events.flatMap((e) => lParser.feed(e as OpencodeRecord));
  // The tables hold each part's final state: the same events, text said whole at once.
  assert.equal(fromTables, fromLog);
  assert.is(tParser.skipped, 0);
  assert.is(tParser.model, 'fake/fake-model');
});

s("never writes: the file is unchanged by reading it; a file that is not opencode's is refused", async () => {
  const before = readFileSync(path);
  const db = await OpencodeDb.open(path);
  db.eventsAfter(SESSION, -1);
  [...db.sessionRecords(SESSION)];
  db.close();
  assert.ok(readFileSync(path).equals(before));

  const other = join(dir, 'other.db');
  const o = new Database(other);
  o.exec('CREATE TABLE t (x)');
  o.close();
  try {
    await OpencodeDb.open(other);
    assert.unreachable("opened a database without opencode's tables");
  } catch (err) {
    assert.match(String(err), /no such table/);
  }
  try {
    await OpencodeDb.open(join(dir, 'missing.db'));
    assert.unreachable('opened a missing file');
  } catch (err) {
    assert.not.instance(err, assert.Assertion);
  }
});

s.run();
