// A whole session log read for import through the CLI's own parser (a captured Claude Code
// log, test/fixtures/claude): every record's events in order, lines that are not JSON
// counted with the parser's own skips, the model and directory the records name; what the
// parser still holds back when the log ends is not lost.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TranscriptEvent } from '../../src/plugins/api.js';
import { importSessionLog } from '../../src/plugins/session-log-import.js';
import { ClaudeLogParser } from '../../plugins/claude/log.js';
const REPO_ROOT = join(import.meta.dirname, '../..');

const fixture = readFileSync(join(REPO_ROOT, 'test/fixtures/claude/tui-session.jsonl'), 'utf8');

let dir = '';
const t = suite('session-log-import');
t.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-import-'));
});
t.after.each(() => rmSync(dir, { recursive: true, force: true }));

t('the events of every record in order, bad lines counted as skipped, model and cwd from the records', async () => {
  const path = join(dir, 'session.jsonl');
  const lines = fixture.split('\n').filter((l) => l.trim());
  // Two lines a crash or a concurrent write left broken, one blank.
  writeFileSync(path, [lines[0], '{"type":"assistant","mess', '', ...lines.slice(1), '{'].join('\n'));

  const expected = new ClaudeLogParser();
  const events: TranscriptEvent[] = [];
  for (const l of lines) events.push(...expected.parse(JSON.parse(l)));
  assert.ok(
    events.some((e) => e.type === 'agent_text'),
    'the fixture has an answer',
  );
  assert.ok(expected.model && expected.cwd, 'the fixture names a model and a cwd');

  const got = await importSessionLog(path, 'the-id', new ClaudeLogParser());
  assert.equal(got, { agentSession: 'the-id', events, skipped: expected.skipped + 2, logPath: path, model: expected.model, cwd: expected.cwd });
});

t('a log that ends while records wait for one never written: their events come last, none lost', async () => {
  const path = join(dir, 'hole.jsonl');
  const lines = readFileSync(join(REPO_ROOT, 'test/fixtures/claude/tui-reply-written-first.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim());
  writeFileSync(path, lines.filter((l) => !l.includes('"type":"attachment"')).join('\n'));
  const got = await importSessionLog(path, 'x', new ClaudeLogParser());
  assert.equal(
    got.events.map((e) => e.type),
    ['user_text', 'agent_text', 'turn_end'],
  );
});

t('a log with nothing the parser knows: no events, no model or cwd keys', async () => {
  const path = join(dir, 'empty.jsonl');
  writeFileSync(path, '\n');
  assert.equal(await importSessionLog(path, 'x', new ClaudeLogParser()), { agentSession: 'x', events: [], skipped: 0, logPath: path });
});

t.run();
