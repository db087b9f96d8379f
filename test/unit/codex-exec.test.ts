// The `codex exec --json` mapper on output captured from codex 0.171 against the fake LLM
// (test/fixtures/codex/capture.ts): a plain turn, a resumed turn with a shell call, a turn
// the model failed with HTTP 400, and lines it does not know.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TranscriptEvent } from '../../src/plugins/api.js';
import { jsonObjectLine } from '../../src/plugins/json-lines.js';
import { CodexExecMapper } from '../../plugins/codex/headless-events.js';

const fixtures = join(import.meta.dirname, '../fixtures/codex');

/** A stdout line as a headless turn hands it over: only lines that are JSON objects reach the mapper. */
function line(mapper: CodexExecMapper, text: string): void {
  const record = jsonObjectLine(text);
  if (record) mapper.feed(record);
}

function run(name: string): { events: TranscriptEvent[]; mapper: CodexExecMapper } {
  const events: TranscriptEvent[] = [];
  const mapper = new CodexExecMapper((e) => events.push(e));
  for (const text of readFileSync(join(fixtures, name), 'utf8').split('\n')) line(mapper, text);
  return { events, mapper };
}

const t = suite('codex-exec');

t("a plain turn: the thread id, codex's warning as a notice, the reply, the turn end with usage", () => {
  const { events, mapper } = run('exec-turn.jsonl');
  assert.equal(
    events.map((e) => e.type),
    ['session', 'notice', 'agent_text', 'turn_end'],
  );
  assert.ok(mapper.threadId && events[0]!.type === 'session' && events[0]!.agentSession === mapper.threadId);
  assert.match((events[1] as { text: string }).text, 'Model metadata');
  assert.match((events[2] as { text: string }).text, 'You said: hello TOKEN-CDX-1');
  const end = events[3] as Extract<TranscriptEvent, { type: 'turn_end' }>;
  assert.ok(end.usage!.inputTokens! > 0 && end.usage!.outputTokens! > 0);
  assert.ok(mapper.completed);
  assert.is(mapper.failure, undefined);
  assert.is(mapper.skipped, 0);
});

t('a shell call: the call when it starts, one result when it completes, same id and name', () => {
  const { events } = run('exec-tool.jsonl');
  assert.equal(
    events.map((e) => e.type),
    ['session', 'notice', 'tool_call', 'tool_result', 'agent_text', 'turn_end'],
  );
  const call = events[2] as Extract<TranscriptEvent, { type: 'tool_call' }>;
  const result = events[3] as Extract<TranscriptEvent, { type: 'tool_result' }>;
  assert.is(call.toolName, 'shell');
  assert.match(JSON.stringify(call.input), 'echo hi-from-shell');
  assert.is(result.toolCallId, call.toolCallId);
  assert.is(result.toolName, 'shell');
  assert.is(result.isError, false);
  assert.match(result.output, 'hi-from-shell');
});

t('a failed turn: the reason as an error event and in `failure`, no turn end', () => {
  const { events, mapper } = run('exec-failed.jsonl');
  assert.match(mapper.failure ?? '', 'scripted error 400');
  assert.not.ok(mapper.completed);
  assert.ok(events.some((e) => e.type === 'error' && e.text.includes('scripted error 400')));
  assert.not.ok(events.some((e) => e.type === 'turn_end'));
});

t('a non-zero exit code makes a command result an error; lines that are not events are ignored or counted', () => {
  const events: TranscriptEvent[] = [];
  const mapper = new CodexExecMapper((e) => events.push(e));
  line(mapper, 'Reading additional input from stdin...');
  line(mapper, '{not json');
  line(
    mapper,
    JSON.stringify({
      type: 'item.completed',
      item: { id: 'item_9', type: 'command_execution', command: 'false', aggregated_output: '', exit_code: 1, status: 'failed' },
    }),
  );
  line(mapper, JSON.stringify({ type: 'something.new', x: 1 }));
  line(mapper, JSON.stringify({ type: 'item.completed', item: { id: 'item_10', type: 'hologram' } }));
  assert.equal(
    events.map((e) => e.type),
    ['tool_call', 'tool_result'],
  );
  assert.is((events[1] as { isError: boolean }).isError, true);
  assert.is(mapper.skipped, 2);
});

t.run();
