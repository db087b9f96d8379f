// claude-log.ts on session logs captured from the pinned Claude Code 2.1.197 against the
// fake LLM (test/fixtures/claude/README.md says how): the headless path's log and the TUI's
// log map to the same normalized events; tool results carry both id and name; a turn ends
// once even where the TUI also writes turn_duration; a reply the TUI wrote before its prompt
// comes after it; record shapes it does not know are counted and skipped, never fatal.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { anthropicUsage, ClaudeContent, ClaudeLogParser, recordTime, resultText } from '../../plugins/claude/log.js';
import { assertHeadlessCapture, assertTuiCapture, fixtureRecords, ofType, parseRecords } from '../helpers/log-fixtures.js';

const records = (name: string) => fixtureRecords('claude', name);

const parseAll = (recs: unknown[], parser = new ClaudeLogParser()) => parseRecords(recs, parser);

const s = suite('claude-log');

s('headless log: three turns, user text, replies, tool calls paired with results, usage per turn', () => {
  const parser = new ClaudeLogParser();
  const events = parseAll(records('headless-session.jsonl'), parser);
  assertHeadlessCapture(events, parser, {
    sessionId: 'ad51c980-73df-4d21-8b81-2a369caef7cb',
    model: 'claude-opus-4-8',
    tools: ['Bash', 'Write', 'Bash', 'Bash'],
  });
  const calls = ofType(events, 'tool_call');
  const results = ofType(events, 'tool_result');
  assert.equal(calls[0]!.input, { command: 'echo SHELL-OK > from-shell.txt', description: 'Run a command for the fake LLM' });
  assert.equal(
    results.map((r) => r.isError),
    [false, false, true, true],
  );
  assert.match(results[2]!.output, 'No such file or directory');
  assert.match(results[3]!.output, 'was blocked', 'the denied call says why');

  const ends = ofType(events, 'turn_end');
  // The tool turn made four model calls; its usage is their sum.
  assert.equal(ends[1]!.usage, { inputTokens: 7464, outputTokens: 141 });
  // Every call's result comes before the turn ends.
  const order = events.map((e) => e.type).filter((t) => t === 'tool_result' || t === 'turn_end');
  assert.equal(order, ['turn_end', 'tool_result', 'tool_result', 'tool_result', 'turn_end', 'tool_result', 'turn_end']);
});

s('TUI log: the same events; turn_duration after the final message does not end the turn twice', () => {
  const parser = new ClaudeLogParser();
  const recs = records('tui-session.jsonl');
  assert.ok(
    recs.some((r) => r.type === 'system' && r.subtype === 'turn_duration'),
    'the fixture has turn_duration records',
  );
  assertTuiCapture(parseAll(recs, parser), parser, 'Bash');
});

s('TUI log whose first reply was written before its prompt (captured): the prompt, then the reply, then the turn end', () => {
  const parser = new ClaudeLogParser();
  const recs = records('tui-reply-written-first.jsonl');
  const prompt = recs.findIndex((r) => r.type === 'user');
  assert.ok(recs.findIndex((r) => r.type === 'assistant') < prompt, 'the fixture has the reply written first');
  assert.ok(recordTime(recs[prompt])! < recordTime(recs.find((r) => r.type === 'assistant'))!, 'though its prompt came first');
  const events = parseAll(recs, parser);
  assert.equal(
    events.map((e) => e.type),
    ['user_text', 'agent_text', 'turn_end'],
  );
  assert.equal(ofType(events, 'user_text')[0]!.text, 'message NUMBER-3');
  assert.equal(ofType(events, 'turn_end')[0]!.usage, { inputTokens: 1802, outputTokens: 11 });
  assert.is(parser.skipped, 0);
  assert.equal(parser.end(), []);
});

s('a log that ends while a reply waits for a record never written: end() gives the reply and its turn end', () => {
  const parser = new ClaudeLogParser();
  const recs = records('tui-reply-written-first.jsonl').filter((r) => r.type !== 'attachment');
  assert.equal(
    parseAll(recs, parser).map((e) => e.type),
    ['user_text'],
  );
  assert.equal(
    parser.end().map((e) => e.type),
    ['agent_text', 'turn_end'],
  );
});

s('a turn whose final message has no stop reason ends at turn_duration', () => {
  const recs = records('tui-session.jsonl').map((r) => (r.type === 'assistant' ? { ...r, message: { ...r.message, stop_reason: null } } : r));
  const events = parseAll(recs);
  assert.is(ofType(events, 'turn_end').length, 2);
  assert.is(events[events.length - 1]!.type, 'turn_end');
});

s('a message written as one record per content block counts its usage once', () => {
  const recs = records('headless-session.jsonl');
  const i = recs.findIndex((r) => r.type === 'assistant' && r.message.content[0].type === 'text');
  const msg = recs[i]!;
  const thinking = { ...msg, message: { ...msg.message, stop_reason: null, content: [{ type: 'thinking', thinking: 'considering', signature: 'x' }] } };
  const events = parseAll([...recs.slice(0, i), thinking, msg]);
  const firstEnd = ofType(events, 'turn_end')[0]!;
  assert.equal(firstEnd.usage, { inputTokens: 1655, outputTokens: 12 });
  const reasoning = ofType(events, 'reasoning');
  assert.equal(reasoning, [{ type: 'reasoning', text: 'considering', messageId: msg.message.id }]);
});

s('unknown record shapes are counted and skipped; parsing goes on', () => {
  const parser = new ClaudeLogParser();
  const recs = records('headless-session.jsonl');
  const odd = [
    { type: 'hologram', sessionId: 'x', payload: { beam: 1 } },
    { notype: true },
    'a string',
    null,
    { type: 'assistant', message: 'not an object' },
    { type: 'system', subtype: 'quantum_state' },
  ];
  const events = parseAll([...odd.slice(0, 3), ...recs.slice(0, 8), ...odd.slice(3), ...recs.slice(8)], parser);
  assert.is(parser.skipped, odd.length);
  assert.equal(events, parseAll(recs));
});

s('bookkeeping records (queue, mode, snapshots, titles, attachments) emit nothing and are not unknown', () => {
  const parser = new ClaudeLogParser();
  const quiet = records('tui-session.jsonl').filter((r) => !['user', 'assistant', 'system'].includes(r.type));
  assert.ok(quiet.length >= 5);
  assert.equal(parseAll(quiet, parser), []);
  assert.is(parser.skipped, 0);
});

s("meta and command-echo user records are the CLI's own words, not the user's", () => {
  const base = records('tui-session.jsonl').find((r) => r.type === 'user')!;
  const parser = new ClaudeLogParser();
  assert.equal(parser.parse({ ...base, isMeta: true, message: { role: 'user', content: 'Caveat: the messages below were generated by the user' } }), []);
  assert.equal(parser.parse({ ...base, message: { role: 'user', content: '<command-name>/clear</command-name>' } }), []);
  assert.equal(
    parser.parse({
      ...base,
      message: {
        role: 'user',
        content: [
          { type: 'text', text: 'look at this' },
          { type: 'image', source: {} },
        ],
      },
    }),
    [{ type: 'user_text', text: 'look at this\n[image]' }],
  );
  assert.is(parser.skipped, 0);
});

s('an API error message is an error event, never agent text', () => {
  const base = records('headless-session.jsonl').find((r) => r.type === 'assistant')!;
  const parser = new ClaudeLogParser();
  const events = parser.parse({
    ...base,
    parentUuid: null, // alone here: not waiting for the record it followed in the capture
    isApiErrorMessage: true,
    error: 'rate_limit',
    message: { ...base.message, model: '<synthetic>', content: [{ type: 'text', text: 'API Error: 429 slow down' }] },
  });
  assert.equal(events, [{ type: 'error', text: 'API Error: 429 slow down', code: 'rate_limit' }]);
});

s('helpers: usage counts cache reads and writes as input; result text of blocks; record time', () => {
  assert.equal(anthropicUsage({ input_tokens: 10, cache_creation_input_tokens: 5, cache_read_input_tokens: 100, output_tokens: 7 }), {
    inputTokens: 115,
    outputTokens: 7,
    cachedInputTokens: 100,
  });
  assert.is(anthropicUsage(undefined), undefined);
  assert.is(
    resultText([
      { type: 'text', text: 'a' },
      { type: 'image', source: {} },
      { type: 'text', text: 'b' },
    ]),
    'a\n[image]\nb',
  );
  assert.is(resultText('plain'), 'plain');
  assert.is(recordTime({ timestamp: '2026-11-30T02:45:00.000Z' }), Date.parse('2026-11-30T02:45:00.000Z'));
  assert.is(recordTime({ type: 'mode' }), undefined);
  const c = new ClaudeContent();
  c.assistant({ content: [{ type: 'tool_use', id: 't1', name: 'Grep', input: { pattern: 'x' } }] });
  assert.equal(c.user({ content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'hit' }] }] }), [
    { type: 'tool_result', toolCallId: 't1', toolName: 'Grep', output: 'hit', isError: false },
  ]);
});

s.run();
