// plugins/opencode/log.ts: opencode's event records -> transcript events, on records
// captured from a real opencode 1.18.33 session against the fake LLM
// (test/fixtures/opencode/events.jsonl, see capture.ts there): a turn, a turn with a
// shell and a write call, a turn whose shell call was refused, a turn the model failed.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TranscriptEvent } from '../../src/plugins/api.js';
import { OpencodeLogParser, type OpencodeRecord } from '../../plugins/opencode/log.js';

const FIXTURE = join(import.meta.dirname, '../fixtures/opencode/events.jsonl');
const records: OpencodeRecord[] = readFileSync(FIXTURE, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as OpencodeRecord);
const SESSION = (records[0]!.data as { sessionID: string }).sessionID;

function feedAll(parser: OpencodeLogParser, rs: OpencodeRecord[]): TranscriptEvent[] {
  return rs.flatMap((r) => parser.feed(r));
}

type Of<T extends TranscriptEvent['type']> = Extract<TranscriptEvent, { type: T }>;

const s = suite('opencode log parser');

s('a whole captured session: every turn in order, each tool call paired with its result by id and name', () => {
  const parser = new OpencodeLogParser();
  const events = feedAll(parser, records);
  assert.equal(
    events.map((e) => e.type),
    [
      'session',
      'user_text',
      'agent_text',
      'turn_end',
      'user_text',
      'tool_call',
      'tool_result',
      'tool_call',
      'tool_result',
      'agent_text',
      'turn_end',
      'user_text',
      'tool_call',
      'tool_result',
      'turn_end',
      'user_text',
      'error',
      'turn_end',
    ],
  );
  assert.equal(events[0], { type: 'session', agentSession: SESSION });
  assert.is((events[1] as Of<'user_text'>).text, 'hello FIXTURE-TOKEN');
  assert.match((events[2] as Of<'agent_text'>).text, 'You said: hello FIXTURE-TOKEN');

  const calls = events.filter((e): e is Of<'tool_call'> => e.type === 'tool_call');
  const results = events.filter((e): e is Of<'tool_result'> => e.type === 'tool_result');
  assert.equal(
    calls.map((c) => c.toolName),
    ['bash', 'write', 'bash'],
  );
  assert.equal(
    results.map((r) => [r.toolCallId, r.toolName]),
    calls.map((c) => [c.toolCallId, c.toolName]),
  );
  assert.equal(calls[0]!.input, { command: 'echo fixture > from-shell.txt' });
  assert.is((calls[1]!.input as { content: string }).content, 'written by the fixture');
  assert.equal(
    results.map((r) => r.isError),
    [false, false, true],
  );
  assert.match(results[2]!.output, 'rejected permission');

  const ends = events.filter((e): e is Of<'turn_end'> => e.type === 'turn_end');
  // The tool turn took two model calls: its usage is both added up.
  assert.ok(ends[1]!.usage!.inputTokens! > ends[0]!.usage!.inputTokens! * 2, JSON.stringify(ends));
  assert.is(ends[1]!.costUsd, 0);
  const error = events.find((e): e is Of<'error'> => e.type === 'error')!;
  assert.is(error.code, 'APIError');
  assert.match(error.text, 'scripted error 400');

  assert.is(parser.skipped, 0);
  assert.is(parser.sessionId, SESSION);
  assert.is(parser.model, 'fake/fake-model');
  assert.match(parser.cwd ?? '', /\/work$/);
  assert.is(parser.lastSeq, records[records.length - 1]!.seq);
});

s('fed in pieces (as a follower reads them) it says exactly what it says fed at once', () => {
  const whole = feedAll(new OpencodeLogParser(), records);
  const parser = new OpencodeLogParser();
  const pieces: TranscriptEvent[] = [];
  for (let i = 0; i < records.length; i += 7) pieces.push(...feedAll(parser, records.slice(i, i + 7)));
  assert.equal(pieces, whole);
  // Records already seen again (a second look over the same rows) say nothing new.
  assert.equal(
    feedAll(parser, records.slice(-10)).filter((e) => e.type !== 'session'),
    [],
  );
});

s('a part that grows is said as what it gained; reasoning too', () => {
  const parser = new OpencodeLogParser();
  const msg = { sessionID: 'ses_x', info: { id: 'msg_a', sessionID: 'ses_x', role: 'assistant', parentID: 'msg_u', time: { created: 1 } } };
  const part = (type: string, text: string) => ({ type: 'message.part.updated.1', data: { part: { id: `prt_${type}`, messageID: 'msg_a', type, text } } });
  const out = feedAll(parser, [
    { type: 'message.updated.1', data: msg },
    part('reasoning', 'thinking'),
    part('reasoning', 'thinking hard'),
    part('text', ''),
    part('text', 'Hello'),
    part('text', 'Hello, world'),
    part('text', 'Hello, world'),
  ]);
  assert.equal(out, [
    { type: 'session', agentSession: 'ses_x' },
    { type: 'reasoning', text: 'thinking', messageId: 'prt_reasoning' },
    { type: 'reasoning', text: ' hard', messageId: 'prt_reasoning' },
    { type: 'agent_text', text: 'Hello', messageId: 'prt_text' },
    { type: 'agent_text', text: ', world', messageId: 'prt_text' },
  ]);
});

s('with `since`: the messages of earlier turns give no events, the later ones do', () => {
  const firstUser = records.find((r) => r.type.startsWith('message.updated') && (r.data as { info: { role: string } }).info.role === 'user')!;
  const turn2User = records
    .filter((r) => r.type.startsWith('message.updated') && (r.data as { info: { role: string } }).info.role === 'user')
    .map((r) => (r.data as { info: { time: { created: number } } }).info.time.created)
    .find((t) => t > (firstUser.data as { info: { time: { created: number } } }).info.time.created)!;
  const parser = new OpencodeLogParser({ since: new Date(turn2User) });
  const events = feedAll(parser, records);
  assert.not.ok(
    events.some((e) => e.type === 'user_text' && e.text.includes('FIXTURE-TOKEN')),
    'the first turn is old',
  );
  assert.is(events.filter((e) => e.type === 'turn_end').length, 3);
  assert.is(events.filter((e) => e.type === 'user_text').length, 3);
  assert.is(parser.skipped, 0);
});

s('a part before its message is held until the message comes', () => {
  const parser = new OpencodeLogParser();
  const out = feedAll(parser, [
    { type: 'message.part.updated.1', data: { part: { id: 'prt_1', messageID: 'msg_u', type: 'text', text: 'hi there' } } },
    { type: 'message.updated.1', data: { info: { id: 'msg_u', sessionID: 'ses_y', role: 'user', time: { created: 5 } } } },
  ]);
  assert.equal(out, [
    { type: 'session', agentSession: 'ses_y' },
    { type: 'user_text', text: 'hi there' },
  ]);
});

s('record shapes it does not know are skipped and counted, never fatal; what follows still parses', () => {
  const parser = new OpencodeLogParser();
  const strange: OpencodeRecord[] = [
    { seq: 100, type: 'session.shared.1', data: { sessionID: SESSION } },
    { seq: 101, type: 'message.part.updated.1', data: null },
    { seq: 102, type: 'message.updated.1', data: { info: { id: 'msg_z', role: 'system' } } },
    { seq: 103, type: '', data: {} },
    {
      seq: 104,
      type: 'message.part.updated.1',
      data: { part: { id: 'prt_h', messageID: (records[1]!.data as { info: { id: string } }).info.id, type: 'hologram' } },
    },
  ];
  const events = feedAll(parser, [records[0]!, records[1]!, ...strange, ...records.slice(2)]);
  assert.is(parser.skipped, strange.length);
  assert.equal(events, feedAll(new OpencodeLogParser(), records));
  assert.is(parser.lastSeq, Math.max(104, records[records.length - 1]!.seq!));
});

s('synthetic text (context opencode added itself) is not said; a refused call ends the turn', () => {
  const parser = new OpencodeLogParser();
  const out = feedAll(parser, [
    { type: 'message.updated.1', data: { info: { id: 'msg_u', sessionID: 's', role: 'user', time: { created: 1 } } } },
    { type: 'message.part.updated.1', data: { part: { id: 'prt_s', messageID: 'msg_u', type: 'text', text: 'file contents', synthetic: true } } },
    { type: 'message.updated.1', data: { info: { id: 'msg_a', sessionID: 's', role: 'assistant', parentID: 'msg_u', time: { created: 2 } } } },
    {
      type: 'message.part.updated.1',
      data: {
        part: {
          id: 'prt_t',
          messageID: 'msg_a',
          type: 'tool',
          tool: 'question',
          callID: 'c1',
          state: { status: 'error', input: { q: 1 }, error: 'The user dismissed this question' },
        },
      },
    },
    {
      type: 'message.updated.1',
      data: {
        info: {
          id: 'msg_a',
          sessionID: 's',
          role: 'assistant',
          parentID: 'msg_u',
          finish: 'tool-calls',
          tokens: { input: 3, output: 1, cache: { read: 2 } },
          cost: 0.5,
          time: { created: 2, completed: 3 },
        },
      },
    },
  ]);
  assert.equal(
    out.map((e) => e.type),
    ['session', 'tool_call', 'tool_result', 'turn_end'],
  );
  assert.equal(out[3], { type: 'turn_end', usage: { inputTokens: 3, outputTokens: 1, cachedInputTokens: 2 }, costUsd: 0.5 });
});

s.run();
