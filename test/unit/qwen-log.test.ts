// qwen-log.ts on chat logs captured from the pinned Qwen Code 0.15.10 against the fake LLM
// (test/fixtures/qwen/README.md says how): the headless path's log and the TUI's log map to
// the same normalized events; function calls pair with their responses by id and name; a
// model message without a function call ends the turn; telemetry is quiet; record shapes it
// does not know are counted and skipped, never fatal.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { geminiUsage, QwenLogParser, qwenRecordTime } from '../../plugins/qwen/log.js';
import { assertHeadlessCapture, assertTuiCapture, fixtureRecords, ofType, parseRecords } from '../helpers/log-fixtures.js';

const records = (name: string) => fixtureRecords('qwen', name);

const parseAll = (recs: unknown[], parser = new QwenLogParser()) => parseRecords(recs, parser);

const s = suite('qwen-log');

s('headless log: three turns, user text, replies, function calls paired with responses, usage per turn', () => {
  const parser = new QwenLogParser();
  const events = parseAll(records('headless-session.jsonl'), parser);
  assertHeadlessCapture(events, parser, {
    sessionId: '474903d3-f720-45b2-9eee-638fb8e79f0f',
    model: 'fake-model',
    tools: ['run_shell_command', 'write_file', 'run_shell_command'],
  });
  const calls = ofType(events, 'tool_call');
  const results = ofType(events, 'tool_result');
  assert.equal((calls[1]!.input as { content: string }).content, 'WRITE-OK');
  assert.match(results[0]!.output, 'Exit Code: 0');
  assert.match(results[2]!.output, 'No such file or directory');
  // Qwen reports a command that exits non-zero as a successful tool call (the output says the code).
  assert.equal(
    results.map((r) => r.isError),
    [false, false, false],
  );

  const ends = ofType(events, 'turn_end');
  assert.equal(ends[0]!.usage, { inputTokens: 9677, outputTokens: 12 });
  // The tool turn made four model calls; its usage is their sum (the background memory call is only telemetry).
  assert.equal(ends[1]!.usage, { inputTokens: 39685, outputTokens: 170 });
  // Without --yes the last turn offered no shell tool: the model only answered.
  const last = events.slice(events.findIndex((e) => e.type === 'user_text' && e.text.includes('DENIED')));
  assert.equal(
    last.map((e) => e.type),
    ['user_text', 'agent_text', 'turn_end'],
  );
});

s('TUI log: the same shape of events as the headless log', () => {
  const parser = new QwenLogParser();
  assertTuiCapture(parseAll(records('tui-session.jsonl'), parser), parser, 'run_shell_command');
});

s('telemetry and attribution records are quiet, not unknown', () => {
  const parser = new QwenLogParser();
  const quiet = records('headless-session.jsonl').filter((r) => r.type === 'system');
  assert.ok(quiet.some((r) => r.subtype === 'ui_telemetry') && quiet.some((r) => r.subtype === 'attribution_snapshot'));
  assert.equal(parseAll(quiet, parser), []);
  assert.is(parser.skipped, 0);
});

s('unknown record shapes are counted and skipped; parsing goes on', () => {
  const parser = new QwenLogParser();
  const recs = records('headless-session.jsonl');
  const odd = [
    { type: 'hologram', beam: 1 },
    { parts: [] },
    42,
    { type: 'assistant', message: { role: 'model' } },
    { type: 'system', subtype: 'quantum_state' },
    { type: 'tool_result' },
  ];
  const events = parseAll([odd[0], odd[1], ...recs.slice(0, 6), odd[2], odd[3], ...recs.slice(6), odd[4], odd[5]], parser);
  assert.is(parser.skipped, odd.length);
  assert.equal(events, parseAll(recs));
});

s('thought parts are reasoning; a failed tool result is an error; a function response error is its text', () => {
  const recs = records('tui-session.jsonl');
  const asst = recs.find((r) => r.type === 'assistant')!;
  const tool = recs.find((r) => r.type === 'tool_result')!;
  const parser = new QwenLogParser();
  assert.equal(parser.parse({ ...asst, message: { role: 'model', parts: [{ text: 'pondering', thought: true }, { text: 'answer' }] } }), [
    { type: 'reasoning', text: 'pondering', messageId: asst.uuid },
    { type: 'agent_text', text: 'answer', messageId: asst.uuid },
    { type: 'turn_end', usage: geminiUsage(asst.usageMetadata)! },
  ]);
  const id = tool.message.parts[0].functionResponse.id;
  assert.equal(
    parser.parse({
      ...tool,
      message: {
        role: 'user',
        parts: [{ functionResponse: { id, name: 'run_shell_command', response: { error: 'Tool "run_shell_command" was canceled by the user.' } } }],
      },
      toolCallResult: { callId: id, status: 'cancelled' },
    }),
    [{ type: 'tool_result', toolCallId: id, toolName: 'run_shell_command', output: 'Tool "run_shell_command" was canceled by the user.', isError: true }],
  );
});

s('helpers: usage mapping and record time', () => {
  assert.equal(geminiUsage({ promptTokenCount: 100, candidatesTokenCount: 5, cachedContentTokenCount: 40, thoughtsTokenCount: 3, totalTokenCount: 108 }), {
    inputTokens: 100,
    outputTokens: 5,
    cachedInputTokens: 40,
    reasoningTokens: 3,
  });
  assert.equal(geminiUsage({ promptTokenCount: 9, candidatesTokenCount: 1, cachedContentTokenCount: 0, thoughtsTokenCount: 0 }), {
    inputTokens: 9,
    outputTokens: 1,
  });
  assert.is(qwenRecordTime(records('tui-session.jsonl')[0]), Date.parse(records('tui-session.jsonl')[0]!.timestamp));
  assert.is(qwenRecordTime({}), undefined);
});

s.run();
