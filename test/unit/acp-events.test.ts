// ACP session/update -> transcript events: chunks, held tool calls, results for every
// call (a rejected one's at its rejection), terminal output, plans, usage and the turn's own cost.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TranscriptEvent } from '../../src/plugins/api.js';
import { AcpEventMapper, acpUsage } from '../../src/plugins/acp-events.js';
import type { SessionUpdate } from '../../src/plugins/acp-client.js';

function mapper(terminals: Record<string, string> = {}) {
  const out: TranscriptEvent[] = [];
  const m = new AcpEventMapper((e) => out.push(e), { terminalOutput: (id) => terminals[id] });
  const u = (x: unknown) => m.update(x as SessionUpdate);
  return { m, u, out };
}

const t = suite('acp-events');

t('message and thought chunks become agent_text and reasoning, with their message id', () => {
  const { u, out } = mapper();
  u({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'hmm' } });
  u({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hel' }, messageId: 'm1' });
  u({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: '' } });
  u({ sessionUpdate: 'agent_message_chunk', content: { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt' } });
  u({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'echo of the prompt' } });
  assert.equal(out, [
    { type: 'reasoning', text: 'hmm' },
    { type: 'agent_text', text: 'Hel', messageId: 'm1' },
    { type: 'agent_text', text: '[a.txt: file:///a.txt]' },
  ]);
});

t('a pending tool call is held until it runs, so input sent later is not lost', () => {
  const { u, out } = mapper();
  u({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Read file', kind: 'read', status: 'pending' });
  assert.equal(out, []);
  u({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', rawInput: { path: '/a' }, title: 'Read /a', status: 'in_progress' });
  u({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'data' } }] });
  assert.equal(out, [
    { type: 'tool_call', toolCallId: 'c1', toolName: 'Read file', input: { path: '/a' } },
    { type: 'tool_result', toolCallId: 'c1', toolName: 'Read file', output: 'data', isError: false },
  ]);
});

t('the tool name prefers the name field, then the first title (a later one describes the input), then the kind', () => {
  const { u, out } = mapper();
  u({ sessionUpdate: 'tool_call', toolCallId: 'a', title: 'Run ls', name: 'shell', kind: 'execute', status: 'in_progress' });
  u({ sessionUpdate: 'tool_call', toolCallId: 'b', title: '', kind: 'search', status: 'in_progress' });
  u({ sessionUpdate: 'tool_call', toolCallId: 'c', title: 'bash', kind: 'execute', status: 'pending' });
  u({ sessionUpdate: 'tool_call_update', toolCallId: 'c', title: 'echo hi > x.txt', rawInput: { command: 'echo hi > x.txt' }, status: 'completed' });
  assert.equal(
    out.filter((e) => e.type === 'tool_call').map((e) => (e as { toolName: string }).toolName),
    ['shell', 'search', 'bash'],
  );
});

t('something else said, or a permission asked, releases a held call first', () => {
  const { m, u, out } = mapper();
  u({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Edit', kind: 'edit', status: 'pending', rawInput: { p: 1 } });
  m.beforeApproval('c1', { title: 'Edit x', rawInput: { p: 2 } });
  u({ sessionUpdate: 'tool_call', toolCallId: 'c2', title: 'Search', kind: 'search', status: 'pending' });
  u({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'then' } });
  assert.equal(out, [
    { type: 'tool_call', toolCallId: 'c1', toolName: 'Edit', input: { p: 2 } },
    { type: 'tool_call', toolCallId: 'c2', toolName: 'Search', input: { title: 'Search' } },
    { type: 'agent_text', text: 'then' },
  ]);
});

t('an update for a call never announced still yields a call and its result', () => {
  const { u, out } = mapper();
  u({ sessionUpdate: 'tool_call_update', toolCallId: 'x', title: 'Fetch', status: 'failed', rawOutput: { error: 'offline' } });
  assert.equal(out, [
    { type: 'tool_call', toolCallId: 'x', toolName: 'Fetch', input: { title: 'Fetch' } },
    { type: 'tool_result', toolCallId: 'x', toolName: 'Fetch', output: '{"error":"offline"}', isError: true },
  ]);
});

t('results show diffs and terminal output; only one result per call', () => {
  const { u, out } = mapper({ t1: 'hello from the terminal\n' });
  u({ sessionUpdate: 'tool_call', toolCallId: 'w', title: 'Write', status: 'completed', content: [{ type: 'diff', path: '/f', oldText: null, newText: 'x' }] });
  u({ sessionUpdate: 'tool_call', toolCallId: 's', title: 'Shell', status: 'in_progress', content: [{ type: 'terminal', terminalId: 't1' }] });
  u({ sessionUpdate: 'tool_call_update', toolCallId: 's', status: 'completed' });
  u({ sessionUpdate: 'tool_call_update', toolCallId: 's', status: 'completed' });
  const results = out.filter((e) => e.type === 'tool_result') as Extract<TranscriptEvent, { type: 'tool_result' }>[];
  assert.equal(
    results.map((r) => r.output),
    ['created /f', 'hello from the terminal\n'],
  );
});

t('a rejected call has its result at once, before what the agent says next; a failed update after it adds nothing', () => {
  const { m, u, out } = mapper();
  u({ sessionUpdate: 'tool_call', toolCallId: 'w', title: 'WriteFile', kind: 'edit', status: 'pending', rawInput: { path: '/f' } });
  m.beforeApproval('w');
  m.rejected('w', 'No (reject_once)');
  u({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'ok, not writing' } });
  u({ sessionUpdate: 'tool_call_update', toolCallId: 'w', status: 'failed', content: [{ type: 'content', content: { type: 'text', text: 'denied' } }] });
  m.finish();
  assert.equal(out, [
    { type: 'tool_call', toolCallId: 'w', toolName: 'WriteFile', input: { path: '/f' } },
    { type: 'tool_result', toolCallId: 'w', toolName: 'WriteFile', output: '(rejected: No (reject_once); the tool did not run)', isError: true },
    { type: 'agent_text', text: 'ok, not writing' },
    { type: 'turn_end' },
  ]);
});

t('the turn end answers every open call, carries usage and the turn’s own cost', () => {
  const { m, u, out } = mapper();
  // A loaded session's running cost, seen during the replay.
  m.observe({ sessionUpdate: 'usage_update', used: 1, size: 10, cost: { amount: 0.5, currency: 'USD' } } as SessionUpdate);
  u({ sessionUpdate: 'tool_call', toolCallId: 'open', title: 'Long job', status: 'pending' });
  u({ sessionUpdate: 'usage_update', used: 2, size: 10, cost: { amount: 0.75, currency: 'USD' } });
  m.finish({ inputTokens: 10, outputTokens: 5, totalTokens: 15, cachedReadTokens: 3, thoughtTokens: 1 });
  assert.equal(out, [
    { type: 'tool_call', toolCallId: 'open', toolName: 'Long job', input: { title: 'Long job' } },
    { type: 'tool_result', toolCallId: 'open', toolName: 'Long job', output: '(no result: the turn ended before the tool finished)', isError: true },
    { type: 'turn_end', usage: { inputTokens: 10, outputTokens: 5, cachedInputTokens: 3, reasoningTokens: 1 }, costUsd: 0.25 },
  ]);
});

t("usage an agent reports per model call in a chunk's _meta (Qwen Code) is summed when the response has none; the response's own usage wins", () => {
  const metaChunk = (inputTokens: number, outputTokens: number) =>
    ({
      sessionUpdate: 'agent_message_chunk',
      content: { type: 'text', text: '' },
      _meta: { usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens, cachedReadTokens: 2 }, durationMs: 5 },
    }) as SessionUpdate;
  const { m, u, out } = mapper();
  u({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'calling a tool' } });
  u(metaChunk(100, 7));
  u({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'done' } });
  u(metaChunk(120, 3));
  m.finish(undefined);
  assert.equal(out, [
    { type: 'agent_text', text: 'calling a tool' },
    { type: 'agent_text', text: 'done' },
    { type: 'turn_end', usage: { inputTokens: 220, outputTokens: 10, cachedInputTokens: 4 } },
  ]);
  const second = mapper();
  // A load's replay is observed, not counted.
  second.m.observe(metaChunk(999, 999));
  second.u(metaChunk(1, 1));
  second.m.finish({ inputTokens: 50, outputTokens: 5, totalTokens: 55 });
  assert.equal(second.out, [{ type: 'turn_end', usage: { inputTokens: 50, outputTokens: 5 } }]);
});

t('a cost in another currency is not reported as dollars; no usage, no usage field', () => {
  const { m, u, out } = mapper();
  u({ sessionUpdate: 'usage_update', used: 2, size: 10, cost: { amount: 3, currency: 'EUR' } });
  m.finish(undefined);
  assert.equal(out, [{ type: 'turn_end' }]);
  assert.is(acpUsage(null), undefined);
});

t('plans become a notice when they change', () => {
  const { u, out } = mapper();
  const plan = (s: string) => ({ sessionUpdate: 'plan', entries: [{ content: 'step one', priority: 'high', status: s }] });
  u(plan('pending'));
  u(plan('pending'));
  u(plan('completed'));
  assert.equal(out, [
    { type: 'notice', text: 'Plan:\n[ ] step one' },
    { type: 'notice', text: 'Plan:\n[x] step one' },
  ]);
});

t.run();
