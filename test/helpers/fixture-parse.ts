// What baton's parsers make of each captured CLI log in test/fixtures/<cli>/ (the session
// logs, the headless processes' stdout, opencode's tables), one function per file, and the
// shape of the events they give: their types in order, each with its fields' names and the
// kinds of their values, which is what a CLI release that changes its log format changes.
// The same for the ACP sessions captured for baton's view (test/fixtures/acp-view): the
// blocks the view's model makes of them (viewShapes).
// test/real/fixtures-current.test.ts compares the committed files with fresh captures
// through these; the unit tests of each parser check the committed files' contents.
// It must never write into test/fixtures.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { TranscriptEvent } from '../../src/plugins/api.js';
import { jsonObjectLine } from '../../src/plugins/json-lines.js';
import { ViewModel, type ViewRecord } from '../../src/tui/acp-view-model.js';
import { ClaudeLogParser } from '../../plugins/claude/log.js';
import { CodexExecMapper } from '../../plugins/codex/headless-events.js';
import { CodexLogParser } from '../../plugins/codex/log.js';
import { GeminiStreamMapper } from '../../plugins/gemini/headless-events.js';
import { GeminiLogFollower } from '../../plugins/gemini/log.js';
import { OpencodeDb } from '../../plugins/opencode/log-db.js';
import { OpencodeLogParser, type OpencodeRecord } from '../../plugins/opencode/log.js';
import { QwenLogParser } from '../../plugins/qwen/log.js';
import { type OpencodeTables, writeOpencodeTables } from './opencode-tables.js';

export interface Parsed {
  events: TranscriptEvent[];
  /** Records the parser did not know (skipped, counted). */
  skipped: number;
}

/** A fixture file's content through the parser baton reads it with. */
export type FixtureParser = (text: string) => Parsed | Promise<Parsed>;

const records = (text: string): unknown[] =>
  text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as unknown);

/** A headless process's stdout as baton hands it over: only the lines that are one JSON object. */
const stdoutObjects = (text: string) =>
  text
    .split('\n')
    .map(jsonObjectLine)
    .filter((r) => r !== undefined);

const claudeLog: FixtureParser = (text) => {
  const p = new ClaudeLogParser();
  return { events: records(text).flatMap((r) => p.parse(r)), skipped: p.skipped };
};

const qwenLog: FixtureParser = (text) => {
  const p = new QwenLogParser();
  return { events: records(text).flatMap((r) => p.parse(r)), skipped: p.skipped };
};

const codexRollout: FixtureParser = (text) => {
  const p = new CodexLogParser();
  return { events: records(text).flatMap((r) => p.feed(r)), skipped: p.skipped };
};

const codexExec: FixtureParser = (text) => {
  const events: TranscriptEvent[] = [];
  const m = new CodexExecMapper((e) => events.push(e));
  for (const r of stdoutObjects(text)) m.feed(r);
  return { events, skipped: m.skipped };
};

const geminiStream: FixtureParser = (text) => {
  const events: TranscriptEvent[] = [];
  const m = new GeminiStreamMapper((e) => events.push(e));
  for (const r of stdoutObjects(text)) m.feed(r);
  return { events, skipped: m.skipped };
};

const geminiChat: FixtureParser = (text) => {
  const f = new GeminiLogFollower();
  const events = records(text).flatMap((r) => f.feed(r));
  return { events: [...events, ...f.flushTurnEnd()], skipped: f.skipped };
};

const opencodeEvents: FixtureParser = (text) => {
  const p = new OpencodeLogParser();
  return { events: (records(text) as OpencodeRecord[]).flatMap((r) => p.feed(r)), skipped: p.skipped };
};

/**
 * opencode's session, message and part rows (tables.json) read back the way baton reads a
 * finished session: through OpencodeDb, from a database holding just those rows.
 */
const opencodeTables: FixtureParser = async (text) => {
  const tables = JSON.parse(text) as OpencodeTables;
  const dir = mkdtempSync(join(tmpdir(), 'baton-fixture-db-'));
  try {
    const file = join(dir, 'opencode.db');
    const db = new Database(file);
    // OpencodeDb asks for opencode's event table too; a session read from its tables needs no rows of it.
    writeOpencodeTables(db, tables);
    db.close();
    const od = await OpencodeDb.open(file);
    const p = new OpencodeLogParser();
    const events: TranscriptEvent[] = [];
    try {
      for (const r of od.sessionRecords(tables.session[0]!.id as string)) events.push(...p.feed(r));
    } finally {
      od.close();
    }
    return { events, skipped: p.skipped };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

/** Every captured log file of each CLI (test/fixtures/<cli>/<file>) and how baton parses it. */
export const FIXTURE_PARSERS: Record<'claude' | 'codex' | 'gemini' | 'qwen' | 'opencode', Record<string, FixtureParser>> = {
  claude: { 'headless-session.jsonl': claudeLog, 'tui-session.jsonl': claudeLog, 'tui-reply-written-first.jsonl': claudeLog },
  qwen: { 'headless-session.jsonl': qwenLog, 'tui-session.jsonl': qwenLog },
  codex: {
    'exec-turn.jsonl': codexExec,
    'exec-tool.jsonl': codexExec,
    'exec-failed.jsonl': codexExec,
    'rollout-session.jsonl': codexRollout,
    'rollout-tui-interrupted.jsonl': codexRollout,
  },
  gemini: { 'stream-turn.jsonl': geminiStream, 'stream-tool.jsonl': geminiStream, 'stream-resume.jsonl': geminiStream, 'chat-session.jsonl': geminiChat },
  opencode: { 'events.jsonl': opencodeEvents, 'tables.json': opencodeTables },
};

/**
 * A value's shape: objects as their fields' names (sorted) and shapes, arrays as the shapes
 * of their items, anything else as its kind. Texts, ids, paths and numbers drop out.
 */
export function shapeOf(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(shapeOf);
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
        .map((k) => [k, shapeOf((v as Record<string, unknown>)[k])]),
    );
  }
  return v === null ? 'null' : typeof v;
}

/** The events' types in order, each event's shape beside its type. */
export const shapes = (events: TranscriptEvent[]) => events.map((e) => `${e.type} ${JSON.stringify(shapeOf(e))}`);

/**
 * What baton's view makes of a captured ACP session (a test/fixtures/acp-view file): its
 * blocks in order (streamed text already joined into one), each with its shape.
 */
export function viewShapes(text: string): string[] {
  const m = new ViewModel();
  for (const r of JSON.parse(text) as ViewRecord[]) m.apply(r);
  return m.blocks.map((b) => `${b.k} ${JSON.stringify(shapeOf(b))}`);
}
