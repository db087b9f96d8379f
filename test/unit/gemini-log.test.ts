// The gemini chat-log readers on a log captured from gemini 0.61 against the fake LLM
// (test/fixtures/gemini/capture.ts): one session of three turns (a plain turn, a resumed
// turn with a shell call, another resumed turn), so it holds gemini's resume rewrites, the
// re-appended message that gains its tool calls and the tool results sent back as a user
// turn. The follower (ingest) and the replay (import), the `since` cut, a rewind, and
// record shapes neither knows (counted, skipped).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TranscriptEvent } from '../../src/plugins/api.js';
import { GeminiLogFollower, isIgnoredUserText, replayGeminiLog } from '../../plugins/gemini/log.js';

const fixtures = join(import.meta.dirname, '../fixtures/gemini');
const records = (): Record<string, any>[] =>
  readFileSync(join(fixtures, 'chat-session.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, any>);

const ofType = <T extends TranscriptEvent['type']>(events: TranscriptEvent[], type: T) =>
  events.filter((e): e is Extract<TranscriptEvent, { type: T }> => e.type === type);

function follow(recs: unknown[], follower = new GeminiLogFollower()): TranscriptEvent[] {
  const out = recs.flatMap((r) => follower.feed(r));
  return [...out, ...follower.flushTurnEnd()];
}

const PROMPTS = ['hello TOKEN-GEM-1', 'run it [[FAKE_SHELL: echo hi-from-shell]] TOKEN-GEM-2', 'and again TOKEN-GEM-3'];
const TURN_SHAPE = [
  'session',
  'user_text',
  'agent_text',
  'turn_end',
  'user_text',
  'tool_call',
  'tool_result',
  'agent_text',
  'turn_end',
  'user_text',
  'agent_text',
  'turn_end',
];

const f = suite('gemini-log follower');

f('three turns from one growing log: one session event, each prompt, tool call and reply once', () => {
  const follower = new GeminiLogFollower();
  const events = follow(records(), follower);
  assert.is(follower.skipped, 0, [...follower.unknownShapes].join(', '));
  assert.equal(
    events.map((e) => e.type),
    TURN_SHAPE,
  );
  assert.equal(
    ofType(events, 'user_text').map((e) => e.text),
    PROMPTS,
  );
  assert.is(follower.sessionId, (events[0] as { agentSession: string }).agentSession);
  assert.ok(readFileSync(join(fixtures, 'stream-turn.jsonl'), 'utf8').includes(follower.sessionId!), 'the id gemini reported');
});

f('the tool call and its result: same id, the tool name on both, the output the model saw', () => {
  const events = follow(records());
  const [call] = ofType(events, 'tool_call');
  const [result] = ofType(events, 'tool_result');
  assert.is(call!.toolName, 'run_shell_command');
  assert.is((call!.input as { command: string }).command, 'echo hi-from-shell');
  assert.is(result!.toolCallId, call!.toolCallId);
  assert.is(result!.toolName, 'run_shell_command');
  assert.is(result!.isError, false);
  assert.match(result!.output, 'hi-from-shell');
});

f('turns end when the next prompt comes, with the summed usage of their model calls', () => {
  const events = follow(records());
  const ends = ofType(events, 'turn_end');
  assert.is(ends.length, 3);
  for (const e of ends) assert.ok((e.usage?.inputTokens ?? 0) > 0 && (e.usage?.outputTokens ?? 0) > 0, JSON.stringify(e));
  // The tool turn's two model calls are summed.
  const toolTurn = records().filter(
    (r) => r.type === 'gemini' && r.tokens && r.timestamp > records().find((x) => JSON.stringify(x.content ?? '').includes('TOKEN-GEM-2'))!.timestamp,
  );
  const calls = new Map(toolTurn.map((m) => [m.id, m.tokens.output as number]));
  const sum = [...calls.values()].slice(0, 2).reduce((a, b) => a + b, 0);
  assert.is(ends[1]!.usage!.outputTokens, sum);
});

f('a finished answer makes a turn end due; a tool call or tool results going back do not', () => {
  const recs = records();
  const follower = new GeminiLogFollower();
  const dueAfter: Record<string, boolean> = {};
  for (const r of recs) {
    follower.feed(r);
    if (typeof r.id === 'string') dueAfter[`${r.type}:${r.id}:${r.toolCalls ? 'calls' : 'plain'}`] = follower.turnEndDue;
  }
  const keys = Object.keys(dueAfter);
  const toolMsg = keys.find((k) => k.endsWith(':calls'))!;
  const emptyFirst = keys.find((k) => k.startsWith('gemini:' + toolMsg.split(':')[1]) && k.endsWith(':plain'))!;
  assert.is(dueAfter[emptyFirst], false, 'an empty model message waiting for its tool calls');
  assert.is(dueAfter[toolMsg], false, 'a message with tool calls');
  assert.is(follower.turnEndDue, true, 'the last answer');
  assert.equal(
    follower.flushTurnEnd().map((e) => e.type),
    ['turn_end'],
  );
  assert.equal(follower.flushTurnEnd(), [], 'only once');
});

f("since: a resumed session's earlier messages give no events, even restated with new timestamps", () => {
  const recs = records();
  const third = recs.find((r) => r.type === 'user' && JSON.stringify(r.content).includes('TOKEN-GEM-3'))!;
  const follower = new GeminiLogFollower({ since: new Date(third.timestamp) });
  const events = follow(recs, follower);
  assert.equal(
    events.map((e) => e.type),
    ['session', 'user_text', 'agent_text', 'turn_end'],
  );
  assert.is((events[1] as { text: string }).text, 'and again TOKEN-GEM-3');
});

f('record shapes it does not know are counted and skipped, never thrown on', () => {
  const recs = records();
  const strangers: unknown[] = [{ $delete: { messages: [] } }, { id: 'x1', type: 'telepathy', content: 'hm' }, null, 'text', [1], 42];
  const follower = new GeminiLogFollower();
  const events = follow([recs[0], ...strangers, ...recs.slice(1)], follower);
  assert.is(follower.skipped, strangers.length);
  assert.ok(follower.unknownShapes.has('message/telepathy'));
  assert.equal(events, follow(recs));
});

const r = suite('gemini-log replay');

r('a whole session as gemini loads it: the same turns, each tool call and result once', () => {
  const replay = replayGeminiLog(records());
  assert.is(replay.skipped, 0);
  assert.equal(
    replay.events.map((e) => e.type),
    TURN_SHAPE.slice(1),
  );
  assert.equal(
    ofType(replay.events, 'user_text').map((e) => e.text),
    PROMPTS,
  );
  assert.is(replay.model, 'gemini-3.8-flash');
  assert.match(replay.projectHash ?? '', /^[0-9a-f]{64}$/);
  // Richest form: the original records, with their token counts, not the resume's restatement.
  assert.ok(ofType(replay.events, 'turn_end').every((e) => (e.usage?.inputTokens ?? 0) > 0));
});

r('only the restatement left (the originals lost): tool calls from functionCall parts, results from the user turn', () => {
  const recs = records();
  const lastSet = [...recs].reverse().find((x) => Array.isArray(x.$set?.messages) && x.$set.messages.length > 3)!;
  const replay = replayGeminiLog([recs[0], lastSet]);
  const [call] = ofType(replay.events, 'tool_call');
  const results = ofType(replay.events, 'tool_result');
  assert.is(call!.toolName, 'run_shell_command');
  assert.is(results.length, 1, 'the rewrite holds the result twice; it is shown once');
  assert.is(results[0]!.toolCallId, call!.toolCallId);
  assert.match(results[0]!.output, 'hi-from-shell');
});

r('a rewind drops the messages from the one named on', () => {
  const recs = records();
  const third = recs.find((x) => x.type === 'user' && JSON.stringify(x.content).includes('TOKEN-GEM-3'))!;
  const replay = replayGeminiLog([...recs, { $rewindTo: third.id }]);
  assert.equal(
    ofType(replay.events, 'user_text').map((e) => e.text),
    PROMPTS.slice(0, 2),
  );
  assert.not.ok(JSON.stringify(replay.events).includes('TOKEN-GEM-3'));
});

r("gemini's own setup and command messages are not prompts", () => {
  assert.ok(isIgnoredUserText('<session_context>\nThis is the Gemini CLI.'));
  assert.ok(isIgnoredUserText('/compress'));
  assert.ok(isIgnoredUserText('   '));
  assert.not.ok(isIgnoredUserText('fix the bug'));
});

f.run();
r.run();
