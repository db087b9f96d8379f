// opencode's session tables (session, message, part) as the captured fixture holds them
// (test/fixtures/opencode/tables.json), written into a SQLite database for tests that read
// a session the way baton reads opencode's own store, plus the event table opencode has.
import type Database from 'better-sqlite3';

export type OpencodeTables = Record<'session' | 'message' | 'part', Record<string, unknown>[]>;

/** Creates each table with the fixture's columns and rows, and opencode's (empty) event table. */
export function writeOpencodeTables(db: Database.Database, tables: OpencodeTables): void {
  for (const [name, rows] of Object.entries(tables)) {
    const cols = Object.keys(rows[0]!);
    db.exec(`CREATE TABLE ${name} (${cols.map((c) => `"${c}"`).join(', ')})`);
    const insert = db.prepare(`INSERT INTO ${name} VALUES (${cols.map(() => '?').join(', ')})`);
    for (const r of rows) insert.run(...cols.map((c) => r[c]));
  }
  db.exec('CREATE TABLE event (id TEXT PRIMARY KEY, aggregate_id TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL)');
}
