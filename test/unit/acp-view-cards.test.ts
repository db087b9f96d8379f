// baton's ACP view drawn from update sequences captured from real agents (opencode 1.18,
// Gemini CLI 0.61, Qwen Code 0.15 and claude-code-acp 0.16 over ACP against the fake LLM:
// test/fixtures/acp-view, capture.ts there) and
// from hand-made ones for what the fake LLM cannot make an agent send (plans, reasoning,
// usage, kind `other`, control sequences): the cards by kind, approvals, markdown.
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { SessionUpdate } from '../../src/plugins/acp-client.js';
import { drawBlock, permissionKeys, toolLabel } from '../../src/tui/acp-view-cards.js';
import { ViewModel, type ViewRecord } from '../../src/tui/acp-view-model.js';
import { type Line, lineBytes, lineText } from '../../src/tui/acp-view-text.js';

const s = suite('acp-view cards');

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/acp-view/${name}.json`, import.meta.url), 'utf8')) as ViewRecord[];

function modelOf(records: ViewRecord[]): ViewModel {
  const m = new ViewModel();
  for (const r of records) m.apply(r);
  return m;
}

function lines(m: ViewModel, width = 80): Line[] {
  return m.blocks.flatMap((b) => drawBlock(b, { width }));
}

const text = (m: ViewModel, width = 80) => lines(m, width).map(lineText).join('\n');

/** The records up to (not including) the first of type `t`. */
const until = (records: ViewRecord[], t: ViewRecord['t']) =>
  records.slice(
    0,
    records.findIndex((r) => r.t === t),
  );

s('opencode write, allowed: an Edit card with the path and a green diff, the permission card with its keys, then "allowed once"', () => {
  const records = fixture('opencode-write-allowed');
  const asking = modelOf(until(records, 'decision'));
  const card = text(asking);
  assert.match(card, '› you\n  write it'); // the user's message under its author
  assert.match(card, /○|◐/);
  assert.match(card, 'Edit $SCRATCH/work/hello.txt');
  assert.match(card, '+hello from the agent');
  assert.match(card, '⚑ Permission needed');
  assert.match(card, ' y  Allow once');
  assert.match(card, ' a  Always allow');
  assert.match(card, ' n  Reject');
  assert.is(asking.openPermissions().length, 1);
  const diffLine = lines(asking).find((l) => lineText(l).includes('+hello from the agent'))!;
  assert.match(lineBytes(diffLine), '\x1b[32m+hello', 'added lines are green');

  const done = modelOf(records);
  const after = text(done);
  assert.match(after, '✓ Edit');
  assert.match(after, 'allowed once');
  assert.not.match(after, 'Permission needed');
  assert.match(after, 'FAKE-LLM done after 1 tool call(s)', 'the streamed chunks joined into one text');
  assert.match(after, '2569 in · 40 out', "the turn's usage");
  assert.ok(
    done.blocks.every((b) => b.done),
    'all done at the turn end',
  );
});

s('opencode write, rejected: "rejected" and a failed card with the reason in red', () => {
  const m = modelOf(fixture('opencode-write-rejected'));
  const out = text(m);
  assert.match(out, 'rejected');
  assert.match(out, '✗ Edit');
  assert.match(out, 'The user rejected permission');
  const reason = lines(m).find((l) => lineText(l).includes('The user rejected'))!;
  assert.match(lineBytes(reason), '\x1b[31m');
});

s('opencode shell: a Run card with the command and the tail of its output', () => {
  const m = modelOf(fixture('opencode-shell'));
  const out = text(m);
  assert.match(out, '✓ Run echo one; echo two');
  assert.match(out, /│ one\n.*│ two/);
});

s('Gemini CLI shell: the command from the title, the permission answered with its own option ids', () => {
  const records = fixture('gemini-shell');
  const asking = text(modelOf(until(records, 'decision')));
  assert.match(asking, 'Run echo one; echo two');
  assert.match(asking, ' y  ');
  assert.match(text(modelOf(records)), 'allowed once');
});

s('Gemini CLI write (the client fs not offered): the card from the permission request alone, its diff, then done', () => {
  const records = fixture('gemini-write-allowed');
  const asking = text(modelOf(until(records, 'decision')));
  assert.match(asking, 'Edit $SCRATCH/work/hello.txt');
  assert.match(asking, '+hello from the agent');
  assert.match(asking, ' a  Allow for this session');
  const done = modelOf(records);
  assert.match(text(done), '✓ Edit');
  assert.match(text(done), 'allowed once');
  assert.match(text(modelOf(fixture('gemini-write-rejected'))), 'rejected');
});

s("Qwen Code: a shell call it runs without asking (its own allow-list) is a Run card with the output's tail; a write asks", () => {
  const shell = modelOf(fixture('qwen-shell'));
  assert.is(shell.blocks.filter((b) => b.k === 'permission').length, 0);
  const out = text(shell);
  assert.match(out, '✓ Run echo one; echo two');
  assert.match(out, '│ Exit Code: 0');
  const tool = shell.blocks.find((b) => b.k === 'tool');
  assert.is(tool?.k === 'tool' && tool.tool.name, 'run_shell_command', 'named by its _meta.toolName');
  assert.match(out, '20243 in · 81 out', "the turn's usage summed from its two model calls' _meta");
  assert.match(text(modelOf(fixture('qwen-write-allowed'))), 'allowed once');
  assert.match(text(modelOf(fixture('qwen-write-rejected'))), 'rejected');
});

s("claude-code-acp: a write asks with its diff; the shell call's output is drawn from baton's terminal it ran in; a rejected write fails", () => {
  const write = fixture('claude-code-acp-write-allowed');
  const asking = text(modelOf(until(write, 'decision')));
  assert.match(asking, 'Edit $SCRATCH/work/hello.txt');
  assert.match(asking, '+hello from the agent');
  assert.match(asking, ' y  Allow');
  assert.match(text(modelOf(write)), '✓ Edit');
  assert.match(text(modelOf(write)), 'allowed once');
  const shell = modelOf(fixture('claude-code-acp-shell'));
  const out = shell.blocks.flatMap((b) => drawBlock(b, { width: 80, terminalOutput: () => 'one\ntwo\n' })).map(lineText);
  assert.ok(out.includes('✓ Run echo one; echo two'), 'the command from its input, not the title in backticks');
  assert.ok(out.includes('  │ two'), out.join('\n'));
  const rejected = text(modelOf(fixture('claude-code-acp-write-rejected')));
  assert.match(rejected, '✗ Edit $SCRATCH/work/nope.txt');
  assert.match(rejected, 'rejected');
  // Its tool result comes as a markdown code block; the card shows the text, not the fences.
  assert.match(rejected, '│ User refused permission to run tool');
  assert.not.match(rejected, '```');
});

s('plain text turns: markdown-free text as written; a notice-only model draws nothing but notices', () => {
  const m = modelOf(fixture('opencode-text'));
  assert.match(text(m), 'FAKE-LLM reply. You said: Say hello in markdown please');
});

const update = (u: Record<string, unknown>): ViewRecord => ({ t: 'update', update: u as unknown as SessionUpdate });

s('reasoning is folded to one line; the plan is a task list redrawn in place while it is last; usage_update is shown', () => {
  const m = modelOf([
    { t: 'user', text: 'plan it', author: 'ana' },
    update({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'first\nsecond\nthird' } }),
    update({
      sessionUpdate: 'plan',
      entries: [
        { content: 'read the code', status: 'completed', priority: 'high' },
        { content: 'write the test', status: 'in_progress', priority: 'high' },
      ],
    }),
    update({
      sessionUpdate: 'plan',
      entries: [
        { content: 'read the code', status: 'completed', priority: 'high' },
        { content: 'write the test', status: 'completed', priority: 'high' },
        { content: 'land it', status: 'pending', priority: 'low' },
      ],
    }),
    update({ sessionUpdate: 'usage_update', used: 5000, size: 200000, cost: { amount: 0.0123, currency: 'USD' } }),
    { t: 'turn_end', stopReason: 'end_turn' },
  ]);
  const out = text(m);
  assert.match(out, '› ana');
  assert.match(out, '▸ thinking (3 lines, folded)');
  assert.not.match(out, 'second');
  assert.is(m.blocks.filter((b) => b.k === 'plan').length, 1, 'one plan, updated in place');
  assert.match(out, '☑ read the code');
  assert.match(out, '☑ write the test');
  assert.match(out, '☐ land it');
  assert.match(out, 'context 3% of 200000');
  assert.match(out, '$0.0123');
});

s('kind other is named from the tool; unknown kinds too; a long name is cut', () => {
  assert.is(toolLabel({ id: '1', kind: 'other', name: 'todowrite', content: [], locations: [] }), 'todowrite');
  assert.is(toolLabel({ id: '1', name: 'mcp__server__a_very_long_tool_name_here', content: [], locations: [] }), 'mcp__server__a_very_lon…');
  assert.is(toolLabel({ id: '1', kind: 'fetch', name: 'webfetch', content: [], locations: [] }), 'Fetch');
  const m = modelOf([update({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'todowrite', kind: 'other', status: 'completed', rawInput: { todos: 2 } })]);
  assert.match(text(m), '✓ todowrite');
});

s('read, search and fetch cards say what was looked at; an edit with old text shows removed lines red and context', () => {
  const m = modelOf([
    update({ sessionUpdate: 'tool_call', toolCallId: 'r', title: 'read', kind: 'read', status: 'completed', rawInput: { filePath: '/w/a.ts' } }),
    update({ sessionUpdate: 'tool_call', toolCallId: 's', title: 'grep', kind: 'search', status: 'completed', rawInput: { pattern: 'TODO', path: '/w' } }),
    update({ sessionUpdate: 'tool_call', toolCallId: 'f', title: 'webfetch', kind: 'fetch', status: 'in_progress', rawInput: { url: 'https://example.com' } }),
    update({
      sessionUpdate: 'tool_call',
      toolCallId: 'e',
      title: 'edit',
      kind: 'edit',
      status: 'completed',
      content: [{ type: 'diff', path: '/w/b.ts', oldText: 'a\nb\nc\nd\ne\nf\ng\n', newText: 'a\nb\nc\nD\ne\nf\ng\n' }],
    }),
  ]);
  const out = text(m);
  assert.match(out, '✓ Read /w/a.ts');
  assert.match(out, '✓ Search /w  TODO');
  assert.match(out, '◐ Fetch https://example.com');
  assert.match(out, /│ -d\n.*│ \+D/);
  assert.match(out, '│  c');
  assert.match(out, '… 1 unchanged line');
  const removed = lines(m).find((l) => lineText(l).endsWith('-d'))!;
  assert.match(lineBytes(removed), '\x1b[31m-d');
});

s('agent text is markdown (headings, lists, code) and loses its terminal control sequences', () => {
  const m = modelOf([
    update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: '# Title\n\n- one **bold**\n- two `code`\n\n```ts\nconst x = 1;\n```\n' } }),
    update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'evil \x1b]0;pwned\x07\x1b[2J\x1b[31mred\x1b[0m end' } }),
  ]);
  const ls = lines(m);
  const out = ls.map(lineText).join('\n');
  assert.match(out, 'Title');
  assert.not.match(out, '# Title');
  assert.match(out, '• one bold');
  assert.match(out, '• two code');
  assert.match(out, '  const x = 1;');
  assert.not.match(out, '```');
  assert.match(out, 'evil red end');
  const bytes = ls.map(lineBytes).join('\n');
  assert.not.match(bytes, 'pwned');
  assert.not.match(bytes, '\x1b[2J');
  assert.not.match(bytes, '\x1b]');
});

s('a cancelled turn answers its open card: "cancelled", and nothing waits any more', () => {
  const records = until(fixture('opencode-shell'), 'decision');
  const m = modelOf([
    ...records,
    { t: 'decision', toolCallId: (records.find((r) => r.t === 'permission') as { request: { toolCall: { toolCallId: string } } }).request.toolCall.toolCallId },
  ]);
  assert.is(m.openPermissions().length, 0);
  assert.match(text(m), 'cancelled');
});

// Before: Gemini CLI never reports a call it was told not to run, so its card stayed drawn
// running (○) from the rejection to the turn's end, and then as never finished.
s('Gemini CLI write, rejected: the card is failed at the rejection, before the reply, though the agent never says so', () => {
  const records = fixture('gemini-write-rejected');
  const rejected = modelOf(records.slice(0, records.findIndex((r) => r.t === 'decision') + 1));
  const card = rejected.blocks.find((b) => b.k === 'tool')!;
  assert.is(card.k === 'tool' && card.tool.status, 'failed');
  assert.ok(card.done, 'nothing more changes it');
  const out = text(rejected);
  assert.match(out, '✗ Edit');
  assert.not.match(out, '○ Edit');
  assert.match(out, 'rejected: Reject (reject_once); the tool did not run');
  const reason = lines(rejected).find((l) => lineText(l).includes('the tool did not run'))!;
  assert.match(lineBytes(reason), '\x1b[31m');
  assert.match(text(modelOf(records)), '✗ Edit', 'and after the turn');
});

s('an allowed call is not failed by its answer; a reject after the agent reported the call failed keeps what it said', () => {
  const allowed = modelOf(until(fixture('gemini-write-allowed'), 'turn_end'));
  assert.not.match(text(allowed), '✗');
  const opencode = text(modelOf(fixture('opencode-write-rejected')));
  assert.match(opencode, 'The user rejected permission');
  assert.not.match(opencode, 'the tool did not run');
});

s('a turn that ends with its card unanswered (the program ended, the agent died) leaves no card waiting', () => {
  const m = modelOf([...until(fixture('opencode-shell'), 'decision'), { t: 'turn_end', stopReason: 'cancelled' }]);
  assert.is(m.openPermissions().length, 0);
  assert.is(m.working, false);
  assert.match(text(m), 'cancelled');
});

s('every line fits the width it was drawn for', () => {
  const names = ['opencode', 'gemini', 'qwen', 'claude-code-acp'].flatMap((a) => [`${a}-write-allowed`, `${a}-write-rejected`, `${a}-shell`, `${a}-text`]);
  for (const name of names) {
    for (const width of [20, 33, 80]) {
      for (const l of lines(modelOf(fixture(name)), width)) assert.ok(lineText(l).length <= width, `${name} @${width}: ${lineText(l)}`);
    }
  }
});

s('two options of one kind get two keys (Qwen Code offers two "always allow" for a command): the first its letter, the next a digit, each drawn', () => {
  const options = [
    { optionId: 'always-cmd', name: 'Always allow sleep', kind: 'allow_always' },
    { optionId: 'always-all', name: 'Always allow all commands', kind: 'allow_always' },
    { optionId: 'once', name: 'Allow', kind: 'allow_once' },
    { optionId: 'no', name: 'Reject', kind: 'reject_once' },
  ] as const;
  const keys = permissionKeys(options);
  assert.equal(
    keys.map((k) => [k.key, k.option.optionId]),
    [
      ['a', 'always-cmd'],
      ['1', 'always-all'],
      ['y', 'once'],
      ['n', 'no'],
    ],
  );
  const m = new ViewModel();
  m.apply({ t: 'permission', request: { sessionId: 's', toolCall: { toolCallId: 't1', title: 'sleep 1' }, options: [...options] } });
  const card = text(m);
  assert.match(card, / a {2}Always allow sleep/);
  assert.match(card, / 1 {2}Always allow all commands/);
});

s.run();
