// The transcript model: apply(), coalescing, segments and handoffs, cursors, slices, resets.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Transcript } from '../../src/transcript/transcript.js';
import { ANA, testTranscript } from '../helpers/test-transcript.js';
import type { Entry } from '../../src/transcript/types.js';

const user = ANA;
const make = (sink?: (e: readonly Entry[], o: { sync: boolean }) => void) => testTranscript('c1', sink);

const t = suite('transcript');

t('user text gets the configured author and seq from 1', () => {
  const tr = make();
  tr.startSegment({ harness: 'claude', model: 'opus', switchId: 'sw1' });
  const [e] = tr.apply({ type: 'user_text', text: 'hello' });
  assert.is(e!.seq, 2);
  assert.equal(e!.author, user);
  assert.is(e!.kind, 'user_message');
  assert.is(tr.entries[0]!.seq, 1);
});

t('streamed agent chunks coalesce into one entry per message', () => {
  const tr = make();
  tr.startSegment({ harness: 'codex', model: 'gpt', switchId: 'sw1' });
  tr.apply({ type: 'user_text', text: 'q' });
  assert.equal(tr.apply({ type: 'agent_text', text: 'Hel' }), []);
  tr.apply({ type: 'agent_text', text: 'lo ' });
  tr.apply({ type: 'agent_text', text: 'world' });
  const out = tr.apply({ type: 'turn_end', usage: { inputTokens: 3, outputTokens: 2 }, costUsd: 0.01 });
  assert.is(out.length, 2);
  assert.is(out[0]!.kind, 'agent_text');
  assert.is((out[0] as { text: string }).text, 'Hello world');
  assert.equal(out[0]!.author, { type: 'agent', harness: 'codex', model: 'gpt' });
  assert.is(out[1]!.kind, 'turn_end');
});

t('a new message id starts a new entry; reasoning interleaved splits text', () => {
  const tr = make();
  tr.startSegment({ harness: 'a', model: 'm', switchId: 's' });
  tr.apply({ type: 'agent_text', text: 'one', messageId: 'm1' });
  tr.apply({ type: 'agent_text', text: 'two', messageId: 'm2' });
  tr.apply({ type: 'reasoning', text: 'think' });
  tr.apply({ type: 'agent_text', text: 'three' });
  tr.flush();
  const kinds = tr.entries.slice(1).map((e) => [e.kind, (e as { text?: string }).text]);
  assert.equal(kinds, [
    ['agent_text', 'one'],
    ['agent_text', 'two'],
    ['reasoning', 'think'],
    ['agent_text', 'three'],
  ]);
});

t('tool results carry both id and name, resolved from the call when one is missing', () => {
  const tr = make();
  tr.startSegment({ harness: 'gemini', model: 'g', switchId: 's' });
  tr.apply({ type: 'tool_call', toolCallId: 'call-1', toolName: 'run_shell_command', input: { command: 'ls' } });
  const [byName] = tr.apply({ type: 'tool_result', toolName: 'run_shell_command', output: 'a\nb' });
  assert.is((byName as { toolCallId: string }).toolCallId, 'call-1');
  const [byId] = tr.apply({ type: 'tool_result', toolCallId: 'call-1', output: 'x', isError: true });
  assert.is((byId as { toolName: string }).toolName, 'run_shell_command');
  assert.is((byId as { isError: boolean }).isError, true);
});

t('startSegment closes the current segment and records a handoff', () => {
  const tr = make();
  tr.startSegment({ harness: 'claude', model: 'opus', switchId: 'a' });
  tr.apply({ type: 'session', agentSession: 'claude-sess' });
  tr.apply({ type: 'user_text', text: 'x' });
  const h = tr.startSegment({ harness: 'codex', model: 'gpt-5', switchId: 'b', briefChars: 120, briefHash: 'abc', budget: 5000 });
  assert.is(h.kind, 'handoff');
  if (h.kind !== 'handoff') return;
  assert.equal(h.from, { harness: 'claude', model: 'opus' });
  assert.equal(h.to, { harness: 'codex', model: 'gpt-5' });
  assert.is(h.uptoSeq, 3);
  assert.is(tr.segments.length, 2);
  assert.is(tr.segments[0]!.agentSession, 'claude-sess');
  assert.is(tr.currentSegment!.harness, 'codex');
  assert.is(tr.currentSegment!.firstSeq, h.seq);
  const [e] = tr.apply({ type: 'agent_text', text: 'hi' }).concat(tr.flush());
  assert.equal(e!.author, { type: 'agent', harness: 'codex', model: 'gpt-5' });
  assert.is(e!.segment, 's2');
});

t('the sink sees every entry once, synced at turn ends and handoffs', () => {
  const seen: [number, boolean][] = [];
  const tr = make((es, o) => {
    for (const e of es) seen.push([e.seq, o.sync]);
  });
  tr.startSegment({ harness: 'a', model: 'm', switchId: 's' });
  tr.apply({ type: 'user_text', text: 'q' });
  tr.apply({ type: 'agent_text', text: 'r' });
  tr.apply({ type: 'turn_end' });
  assert.equal(seen, [
    [1, true],
    [2, false],
    [3, true],
    [4, true],
  ]);
});

t('upto and since slice by seq', () => {
  const tr = make();
  tr.startSegment({ harness: 'a', model: 'm', switchId: 's' });
  for (let i = 0; i < 5; i++) tr.apply({ type: 'user_text', text: `m${i}` });
  assert.equal(
    tr.upto(3).map((e) => e.seq),
    [1, 2, 3],
  );
  assert.equal(
    tr.since(3).map((e) => e.seq),
    [4, 5, 6],
  );
  assert.is(tr.entry(4)!.seq, 4);
});

t('upto and since are exact where a loaded log has a gap in its seqs (a skipped corrupt line)', () => {
  const full = make();
  full.startSegment({ harness: 'a', model: 'm', switchId: 's' });
  for (let i = 0; i < 6; i++) full.apply({ type: 'user_text', text: `m${i}` });
  const tr = new Transcript({ id: 'c1', entries: full.entries.filter((e) => e.seq !== 4) });
  for (const seq of [0, 1, 3, 4, 5, 7, 99]) {
    assert.equal(
      tr.upto(seq).map((e) => e.seq),
      [1, 2, 3, 5, 6, 7].filter((s) => s <= seq),
      `upto(${seq})`,
    );
    assert.equal(
      tr.since(seq).map((e) => e.seq),
      [1, 2, 3, 5, 6, 7].filter((s) => s > seq),
      `since(${seq})`,
    );
  }
});

t('cursors advance only by confirm, and a failed resume invalidates them', () => {
  const tr = make();
  tr.startSegment({ harness: 'claude', model: 'm', switchId: 's' });
  tr.apply({ type: 'session', agentSession: 'S1' });
  assert.is(tr.cursor('claude'), undefined);
  tr.confirmCursor('claude', 'S1', 7);
  assert.equal(tr.cursor('claude'), { harness: 'claude', agentSession: 'S1', deliveredSeq: 7 });
  tr.invalidateCursor('claude');
  assert.is(tr.cursor('claude'), undefined);
});

t('cursors and segments are rebuilt from loaded entries', () => {
  const a = make();
  a.startSegment({ harness: 'claude', model: 'm', switchId: 's' });
  a.apply({ type: 'session', agentSession: 'S1' });
  a.confirmCursor('claude', 'S1', 2);
  a.startSegment({ harness: 'codex', model: 'g', switchId: 't' });
  const b = new Transcript({ id: 'c1', entries: a.entries });
  assert.equal(b.segments, a.segments);
  assert.equal(b.cursor('claude'), a.cursor('claude'));
  assert.is(b.lastSeq, a.lastSeq);
});

t('turn counts ignore tool traffic', () => {
  const tr = make();
  tr.startSegment({ harness: 'a', model: 'm', switchId: 's' });
  tr.apply({ type: 'user_text', text: 'one' });
  tr.apply({ type: 'tool_call', toolCallId: '1', toolName: 'Bash', input: {} });
  tr.apply({ type: 'tool_result', toolCallId: '1', output: 'ok' });
  tr.apply({ type: 'agent_text', text: 'done' });
  tr.apply({ type: 'turn_end' });
  tr.apply({ type: 'user_text', text: 'two' });
  assert.is(tr.turnCount, 2);
});

t('a reset hides later entries without deleting them, and can be undone', () => {
  const tr = make();
  tr.startSegment({ harness: 'a', model: 'm', switchId: 's' });
  tr.apply({ type: 'user_text', text: 'keep' }); // 2
  tr.apply({ type: 'user_text', text: 'drop' }); // 3
  const r = tr.reset(2); // 4
  assert.equal(
    tr.visible().map((e) => e.seq),
    [1, 2, 4],
  );
  assert.is(tr.entries.length, 4);
  assert.is(tr.turnCount, 1);
  tr.reset(2, { undoes: r.seq });
  assert.equal(
    tr.visible().map((e) => e.seq),
    [1, 2, 3, 4, 5],
  );
});

t('credentials are redacted as entries are committed, ordinary code is not', () => {
  const seen: Entry[] = [];
  const tr = make((es) => seen.push(...es));
  tr.startSegment({ harness: 'a', model: 'm', switchId: 's' });
  tr.apply({
    type: 'tool_result',
    toolCallId: '1',
    toolName: 'Bash',
    output: 'export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789\ntoken := lexer.Next()',
  });
  const out = (seen[1] as { output: string }).output;
  assert.not.match(out, /ghp_abcdefghijklmnopqrstuvwxyz0123456789/);
  assert.match(out, /token := lexer\.Next\(\)/);
  assert.is((tr.entries[1] as { output: string }).output, out, 'memory and store agree');
});

t.run();
