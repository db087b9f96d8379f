// The `gemini -o stream-json` mapper on output captured from gemini 0.61 against the fake
// LLM (test/fixtures/gemini/capture.ts): a plain turn, a resumed turn with a shell call, and
// lines it does not know; error results and warnings built after gemini's own shapes.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TranscriptEvent } from '../../src/plugins/api.js';
import { jsonObjectLine } from '../../src/plugins/json-lines.js';
import { GeminiStreamMapper } from '../../plugins/gemini/headless-events.js';

const fixtures = join(import.meta.dirname, '../fixtures/gemini');

function run(lines: string[]): { events: TranscriptEvent[]; mapper: GeminiStreamMapper } {
  const events: TranscriptEvent[] = [];
  const mapper = new GeminiStreamMapper((e) => events.push(e));
  // As a headless turn hands them over: only lines that are JSON objects reach the mapper.
  for (const line of lines) {
    const record = jsonObjectLine(line);
    if (record) mapper.feed(record);
  }
  return { events, mapper };
}
const fixture = (name: string) => readFileSync(join(fixtures, name), 'utf8').split('\n');

const t = suite('gemini-stream');

t('a plain turn: the session, the streamed reply in chunks of one message, the turn end with usage', () => {
  const { events, mapper } = run(fixture('stream-turn.jsonl'));
  assert.is(events[0]!.type, 'session');
  assert.is(mapper.status, 'success');
  const texts = events.filter((e): e is Extract<TranscriptEvent, { type: 'agent_text' }> => e.type === 'agent_text');
  assert.ok(texts.length > 1, 'streamed as deltas');
  assert.ok(new Set(texts.map((e) => e.messageId)).size === 1, 'one message');
  assert.is(texts.map((e) => e.text).join(''), 'FAKE-LLM reply. You said: hello TOKEN-GEM-1');
  const end = events[events.length - 1] as Extract<TranscriptEvent, { type: 'turn_end' }>;
  assert.is(end.type, 'turn_end');
  assert.ok(end.usage!.inputTokens! > 0 && end.usage!.outputTokens! > 0);
  assert.not.ok(
    events.some((e) => e.type === 'user_text'),
    'the echoed prompt is not repeated',
  );
  assert.is(mapper.skipped, 0);
});

t('a shell call: call and result with the same id and the tool name; the text after it is a new message', () => {
  const { events, mapper } = run(fixture('stream-tool.jsonl'));
  assert.equal([...new Set(events.map((e) => e.type))], ['session', 'tool_call', 'tool_result', 'agent_text', 'turn_end']);
  const call = events.find((e) => e.type === 'tool_call') as Extract<TranscriptEvent, { type: 'tool_call' }>;
  const result = events.find((e) => e.type === 'tool_result') as Extract<TranscriptEvent, { type: 'tool_result' }>;
  assert.is(call.toolName, 'run_shell_command');
  assert.is((call.input as { command: string }).command, 'echo hi-from-shell');
  assert.is(result.toolCallId, call.toolCallId);
  assert.is(result.toolName, 'run_shell_command');
  assert.is(result.output, 'hi-from-shell');
  assert.is(result.isError, false);
  const resumed = run(fixture('stream-resume.jsonl')).mapper;
  assert.is(resumed.sessionId, mapper.sessionId, 'the resumed turn reports the same session');
});

t("an error result fails the turn with gemini's message; warnings are notices; unknown lines are counted", () => {
  const { events, mapper } = run([
    'Warning: 256-color support not detected.',
    JSON.stringify({ type: 'init', session_id: 's-1', model: 'auto' }),
    JSON.stringify({ type: 'error', severity: 'warning', message: 'Loop detected, stopping' }),
    JSON.stringify({ type: 'tool_use', tool_name: 'read_file', tool_id: 't1', parameters: { path: 'x' } }),
    JSON.stringify({ type: 'tool_result', tool_id: 't1', status: 'error', output: '', error: { type: 'FILE_NOT_FOUND', message: 'no such file' } }),
    JSON.stringify({ type: 'telepathy' }),
    JSON.stringify({
      type: 'result',
      status: 'error',
      error: { type: 'unknown', message: '[API Error: quota]' },
      stats: { input_tokens: 3, output_tokens: 0 },
    }),
  ]);
  assert.equal(
    events.map((e) => e.type),
    ['session', 'notice', 'tool_call', 'tool_result', 'error', 'turn_end'],
  );
  assert.equal(events[3], { type: 'tool_result', toolCallId: 't1', toolName: 'read_file', output: 'no such file', isError: true });
  assert.is(mapper.failure, '[API Error: quota]');
  assert.is(mapper.status, 'error');
  assert.is(mapper.skipped, 1);
});

t.run();
