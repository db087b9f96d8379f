// The codex rollout parser on rollouts captured from codex 0.171 against the fake LLM
// (test/fixtures/codex/capture.ts): a three-turn session (plain turn, resumed turn with a
// shell call, resumed turn the model failed), a TUI turn interrupted with Esc, the `since`
// cut for a resumed session, and record shapes it does not know (counted, skipped).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TranscriptEvent } from '../../src/plugins/api.js';
import { CodexLogParser, codexUsage } from '../../plugins/codex/log.js';

const fixtures = join(import.meta.dirname, '../fixtures/codex');
const records = (name: string): Record<string, any>[] =>
  readFileSync(join(fixtures, name), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, any>);

function parseAll(recs: unknown[], parser = new CodexLogParser()): TranscriptEvent[] {
  return recs.flatMap((r) => parser.feed(r));
}

const ofType = <T extends TranscriptEvent['type']>(events: TranscriptEvent[], type: T) =>
  events.filter((e): e is Extract<TranscriptEvent, { type: T }> => e.type === type);

const t = suite('codex-log');

t('a captured session: the session id first, then each turn in order, nothing skipped', () => {
  const parser = new CodexLogParser();
  const events = parseAll(records('rollout-session.jsonl'), parser);
  assert.is(parser.skipped, 0, `skipped shapes: ${[...parser.unknownShapes].join(', ')}`);
  assert.is(events[0]!.type, 'session');
  const id = (events[0] as { agentSession: string }).agentSession;
  assert.is(parser.sessionId, id);
  assert.ok(readFileSync(join(fixtures, 'exec-turn.jsonl'), 'utf8').includes(id), 'the id exec reported');
  assert.is(ofType(events, 'session').length, 1);
  assert.is(parser.model, 'fake-model');
  assert.match(parser.cwd ?? '', /\/work$/);
  assert.equal(
    events.map((e) => e.type),
    ['session', 'user_text', 'agent_text', 'turn_end', 'user_text', 'tool_call', 'tool_result', 'agent_text', 'turn_end', 'user_text', 'error', 'turn_end'],
  );
});

t("user text is only what the user typed: codex's own context messages are left out", () => {
  const users = ofType(parseAll(records('rollout-session.jsonl')), 'user_text').map((e) => e.text);
  assert.equal(users, ['hello TOKEN-CDX-1', 'run it [[FAKE_SHELL: echo hi-from-shell]] TOKEN-CDX-2', 'fail now [[FAKE_ERROR: 400]] TOKEN-CDX-3']);
});

t('agent text echoes the prompt; a tool call and its result carry the same id and the tool name', () => {
  const events = parseAll(records('rollout-session.jsonl'));
  const texts = ofType(events, 'agent_text');
  assert.match(texts[0]!.text, 'FAKE-LLM reply. You said: hello TOKEN-CDX-1');
  assert.ok(texts[0]!.messageId, 'a message id to coalesce by');
  const [call] = ofType(events, 'tool_call');
  const [result] = ofType(events, 'tool_result');
  assert.is(call!.toolName, 'exec_command');
  assert.equal(call!.input, { cmd: 'echo hi-from-shell' });
  assert.is(result!.toolCallId, call!.toolCallId);
  assert.is(result!.toolName, 'exec_command');
  assert.is(result!.isError, false);
  assert.match(result!.output, 'hi-from-shell');
  assert.match(texts[1]!.text, 'done after 1 tool call(s)');
});

t('each turn ends with its own usage; a failed turn reports the model error before it ends', () => {
  const events = parseAll(records('rollout-session.jsonl'));
  const ends = ofType(events, 'turn_end');
  assert.is(ends.length, 3);
  for (const e of ends.slice(0, 2)) {
    assert.ok((e.usage?.inputTokens ?? 0) > 0 && (e.usage?.outputTokens ?? 0) > 0, JSON.stringify(e));
  }
  // The tool turn made two model calls: its usage is the turn's, not the last call's.
  assert.ok(ends[1]!.usage!.inputTokens! > ends[0]!.usage!.inputTokens!);
  const [error] = ofType(events, 'error');
  assert.match(error!.text, 'scripted error 400');
});

t('a shell result whose process exited non-zero is an error', () => {
  const recs = records('rollout-session.jsonl');
  const out = recs.find((r) => r.type === 'response_item' && r.payload.type === 'function_call_output')!;
  const failed = structuredClone(out);
  failed.payload.output = String(out.payload.output).replace('Process exited with code 0', 'Process exited with code 2');
  const parser = new CodexLogParser();
  parser.feed(recs.find((r) => r.type === 'response_item' && r.payload.type === 'function_call')!);
  const [result] = parser.feed(failed) as Extract<TranscriptEvent, { type: 'tool_result' }>[];
  assert.is(result!.isError, true);
  assert.is(result!.toolName, 'exec_command');
});

t('a TUI turn interrupted with Esc: the prompt, a notice, and the turn still ends', () => {
  const parser = new CodexLogParser();
  const events = parseAll(records('rollout-tui-interrupted.jsonl'), parser);
  assert.is(parser.skipped, 0, [...parser.unknownShapes].join(', '));
  assert.equal(
    events.map((e) => e.type),
    ['session', 'user_text', 'notice', 'turn_end'],
  );
  assert.match((events[1] as { text: string }).text, 'TOKEN-CDX-4');
  assert.match((events[2] as { text: string }).text, 'interrupted');
});

t('since: records of a resumed session from before it give no events (but the session id still comes)', () => {
  const recs = records('rollout-session.jsonl');
  const secondPrompt = recs.find((r) => r.type === 'event_msg' && r.payload.item?.type === 'UserMessage' && JSON.stringify(r).includes('TOKEN-CDX-2'))!;
  // The second turn starts a little before its prompt is recorded.
  const start = recs.filter((r) => r.type === 'event_msg' && r.payload.type === 'task_started')[1]!;
  const parser = new CodexLogParser({ since: new Date(start.timestamp) });
  const events = parseAll(recs, parser);
  assert.ok(Date.parse(secondPrompt.timestamp) >= Date.parse(start.timestamp));
  const users = ofType(events, 'user_text').map((e) => e.text);
  assert.equal(users.length, 2);
  assert.match(users[0]!, 'TOKEN-CDX-2');
  assert.is(events[0]!.type, 'session');
  assert.is(ofType(events, 'turn_end').length, 2);
  assert.not.ok(JSON.stringify(events).includes('TOKEN-CDX-1'), 'nothing of the first turn');
});

t('record shapes it does not know are counted and skipped, never thrown on', () => {
  const parser = new CodexLogParser();
  const recs = records('rollout-session.jsonl');
  const unknown: unknown[] = [
    { timestamp: recs[1]!.timestamp, type: 'telepathy', payload: { thought: 'x' } },
    { timestamp: recs[1]!.timestamp, type: 'event_msg', payload: { type: 'brand_new_event', x: 1 } },
    { timestamp: recs[1]!.timestamp, type: 'response_item', payload: { type: 'hologram', id: 'h1' } },
    null,
    'a string',
    [1, 2],
    { type: 42 },
  ];
  const mixed = [recs[0], ...unknown, ...recs.slice(1)];
  const events = parseAll(mixed, parser);
  assert.is(parser.skipped, unknown.length);
  assert.ok(parser.unknownShapes.has('telepathy'));
  assert.ok(parser.unknownShapes.has('event_msg/brand_new_event'));
  assert.ok(parser.unknownShapes.has('response_item/hologram'));
  // The known records still give exactly what they gave without the strangers.
  assert.equal(events, parseAll(recs));
});

t('codexUsage maps codex token fields and ignores what is not usage', () => {
  assert.equal(codexUsage({ input_tokens: 10, cached_input_tokens: 4, output_tokens: 3, reasoning_output_tokens: 1, total_tokens: 13 }), {
    inputTokens: 10,
    outputTokens: 3,
    cachedInputTokens: 4,
    reasoningTokens: 1,
  });
  assert.is(codexUsage(null), undefined);
  assert.is(codexUsage({ nothing: 1 }), undefined);
});

t.run();
