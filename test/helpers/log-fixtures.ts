// Session logs captured from the pinned real CLIs (test/fixtures/<cli>/, each README says
// how), for the log parser and ingest tests: the records or raw lines of a capture, events
// of one kind, a line restamped to another time; and the facts of the two captures claude
// and qwen made with the same script (headless-session: three turns, the second with shell,
// write and failing shell calls; tui-session: a plain turn, then one shell call), checked
// the same way for both parsers.
// It must never write into test/fixtures.
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TranscriptEvent } from '../../src/plugins/api.js';
import { REPO_ROOT } from './cli-env.js';

/** The non-empty lines of test/fixtures/<cli>/<name>. */
export const fixtureLines = (cli: string, name: string) =>
  readFileSync(join(REPO_ROOT, 'test/fixtures', cli, name), 'utf8')
    .split('\n')
    .filter((l) => l.trim());

/** A TUI screen captured from the CLI: the rows of test/fixtures/<cli>/screens/<name>.txt. */
export const fixtureScreen = (cli: string, name: string) => readFileSync(join(REPO_ROOT, 'test/fixtures', cli, 'screens', `${name}.txt`), 'utf8').split('\n');

/** Each line of test/fixtures/<cli>/<name> parsed. */
export const fixtureRecords = (cli: string, name: string) => fixtureLines(cli, name).map((l) => JSON.parse(l) as Record<string, any>);

/** A JSONL line with every "timestamp" set to at (an ISO time). */
export const restamp = (line: string, at: string) => line.replace(/"timestamp":"[^"]+"/g, `"timestamp":"${at}"`);

export const ofType = <T extends TranscriptEvent['type']>(events: TranscriptEvent[], type: T) =>
  events.filter((e): e is Extract<TranscriptEvent, { type: T }> => e.type === type);

/** Every record through one parser, its events in order. */
export const parseRecords = (recs: unknown[], parser: { parse(record: unknown): TranscriptEvent[] }) => recs.flatMap((r) => parser.parse(r));

/** What a parser reports besides events. */
export interface ParserFacts {
  skipped: number;
  sessionId?: string;
  model?: string;
  cwd?: string;
}

/** The headless capture: nothing skipped, its session, model and cwd, the three prompts, the first reply, the calls paired with their results by id and name. */
export function assertHeadlessCapture(events: TranscriptEvent[], parser: ParserFacts, want: { sessionId: string; model: string; tools: string[] }): void {
  assert.is(parser.skipped, 0);
  assert.is(parser.sessionId, want.sessionId);
  assert.is(parser.model, want.model);
  assert.match(parser.cwd!, /\/work$/);
  assert.equal(
    ofType(events, 'user_text').map((e) => e.text),
    [
      'hello FIXTURE-TOKEN-1',
      '[[FAKE_SHELL: echo SHELL-OK > from-shell.txt]] [[FAKE_WRITE: from-write.txt :: WRITE-OK]] [[FAKE_SHELL: ls /nonexistent-fixture-dir]]',
      '[[FAKE_SHELL: echo DENIED > denied.txt]]',
    ],
  );
  assert.is(ofType(events, 'agent_text')[0]!.text, 'FAKE-LLM reply. You said: hello FIXTURE-TOKEN-1');
  const calls = ofType(events, 'tool_call');
  assert.equal(
    calls.map((c) => c.toolName),
    want.tools,
  );
  assert.equal(
    ofType(events, 'tool_result').map((r) => [r.toolCallId, r.toolName]),
    calls.map((c) => [c.toolCallId, c.toolName]),
  );
  assert.is(ofType(events, 'turn_end').length, 3);
}

/** The TUI capture: nothing skipped, the same shape of events as a headless run, the shell call's result named. */
export function assertTuiCapture(events: TranscriptEvent[], parser: ParserFacts, shell: string): void {
  assert.is(parser.skipped, 0);
  assert.equal(
    events.map((e) => e.type),
    ['user_text', 'agent_text', 'turn_end', 'user_text', 'tool_call', 'tool_result', 'agent_text', 'turn_end'],
  );
  assert.is(ofType(events, 'user_text')[0]!.text, 'hello TUI-FIXTURE-TOKEN');
  assert.is(ofType(events, 'tool_result')[0]!.toolName, shell);
}
