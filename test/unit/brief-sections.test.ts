// The brief's sections around the tail: the previous agent's open plan marked as past, tools
// and files from tool inputs, the git facts (.context/ included), and where to read the rest;
// the frame around them, its words unframed wherever else they appear.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildBrief, type BriefOptions } from '../../src/transcript/brief.js';
import { BRIEF_BEGIN, BRIEF_END, frameOnce, frameWords, unframe } from '../../src/transcript/brief-sections.js';
import type { Transcript } from '../../src/transcript/transcript.js';
import { testTranscript } from '../helpers/test-transcript.js';

const make = () => testTranscript('c7');
const opts = (o: Partial<BriefOptions> = {}): BriefOptions => ({
  target: { harness: 'codex', model: 'gpt-5', title: 'Codex' },
  agentTitles: { claude: 'Claude Code', gemini: 'Gemini CLI' },
  mode: 'fresh',
  maxChars: 120_000,
  ...o,
});
const brief = (tr: Transcript, o: Partial<BriefOptions> = {}) => buildBrief(tr, opts(o)).text!;

const plan = suite('brief plan section');

function planned(harness: string, toolName: string, input: unknown) {
  const tr = make();
  tr.startSegment({ harness, model: 'm1', switchId: 'a' });
  tr.apply({ type: 'user_text', text: 'do it' });
  tr.apply({ type: 'tool_call', toolCallId: 'p', toolName, input });
  tr.apply({ type: 'agent_text', text: 'on it' });
  tr.flush();
  return tr;
}

plan('the latest plan of the previous segment is listed as past: open items only, not verified', () => {
  const tr = planned('claude', 'TodoWrite', { todos: [{ content: 'old', status: 'pending' }] });
  tr.apply({
    type: 'tool_call',
    toolCallId: 'p2',
    toolName: 'TodoWrite',
    input: {
      todos: [
        { content: 'Read the code', status: 'completed' },
        { content: 'Fix the race', status: 'in_progress' },
        { content: 'Add a test', status: 'pending' },
      ],
    },
  });
  tr.flush();
  const t = brief(tr);
  assert.ok(t.includes('Open plan at #5 (was planned by Claude Code (m1), not verified):\n- [in progress] Fix the race\n- [pending] Add a test'), t);
  assert.not.ok(t.includes('- [pending] old'));
  assert.not.ok(t.includes('- [completed]'));
  assert.ok(t.indexOf('Open plan') < t.indexOf('Conversation, oldest first:'), 'before the tail');
});

plan('each CLI shape becomes the same section', () => {
  const cases: [string, string, unknown][] = [
    ['codex', 'update_plan', { plan: [{ step: 'Fix the race', status: 'in_progress' }] }],
    ['gemini', 'write_todos', { todos: [{ description: 'Fix the race', status: 'in_progress' }] }],
    ['qwen', 'todo_write', { todos: [{ id: '1', content: 'Fix the race', status: 'in_progress' }] }],
    ['opencode', 'todowrite', { todos: [{ id: 'x', content: 'Fix the race', status: 'in_progress', priority: 'high' }] }],
  ];
  for (const [harness, tool, input] of cases) {
    const t = brief(planned(harness, tool, input), { target: { harness: 'claude', model: 'opus' } });
    assert.match(t, /Open plan at #3 \(was planned by [^()]+ \(m1\), not verified\):\n- \[in progress\] Fix the race/, harness);
  }
});

plan('a plan from an earlier segment, or one with nothing left open, is not carried', () => {
  const tr = planned('claude', 'TodoWrite', { todos: [{ content: 'claude step', status: 'pending' }] });
  tr.startSegment({ harness: 'gemini', model: 'g', switchId: 'b' });
  tr.apply({ type: 'agent_text', text: 'gemini did things' });
  tr.flush();
  assert.not.ok(brief(tr).includes('Open plan'));
  const done = planned('claude', 'TodoWrite', { todos: [{ content: 'x', status: 'completed' }] });
  assert.not.ok(brief(done).includes('Open plan'));
});

plan('a long plan is cut with a count of what was left out, never to a bare count', () => {
  const todos = Array.from({ length: 80 }, (_, i) => ({ content: `step ${i} ${'w'.repeat(60)}`, status: 'pending' }));
  const t = brief(planned('claude', 'TodoWrite', { todos }), { maxChars: 6000 });
  const m = /- \(\+(\d+) more\)/.exec(t);
  assert.ok(m, 'says how many more');
  const shown = t.split('\n').filter((l) => l.startsWith('- [pending] step')).length;
  assert.ok(shown >= 1);
  assert.is(shown + Number(m![1]), 80);
});

const activity = suite('brief tools and files');

function worked() {
  const tr = make();
  tr.startSegment({ harness: 'claude', model: 'opus', switchId: 'a' });
  tr.apply({ type: 'user_text', text: 'go' });
  const call = (id: string, toolName: string, input: unknown) => {
    tr.apply({ type: 'tool_call', toolCallId: id, toolName, input });
    tr.apply({ type: 'tool_result', toolCallId: id, output: 'ok' });
  };
  call('1', 'Read', { file_path: 'src/a.ts' });
  call('2', 'Edit', { file_path: 'src/a.ts', old_string: 'x', new_string: 'y' });
  call('3', 'Grep', { pattern: 'foo', path: 'src/' });
  call('4', 'Bash', { command: 'npm test' });
  call('5', 'Bash', { command: 'git status' });
  call('6', 'apply_patch', { input: '*** Begin Patch\n*** Update File: src/b.ts\n@@\n-a\n+b\n*** Add File: src/c.ts\n+new\n*** End Patch' });
  call('7', 'write_file', { file_path: 'docs/x.md', content: 'hello' });
  call('8', 'read_many_files', { paths: ['README.md', 'src/a.ts'] });
  tr.flush();
  return tr;
}

activity('tools by count then name; files edited newest first; files only read listed apart', () => {
  const t = brief(worked());
  assert.ok(t.includes('Tools and files (#1..#18):'), t);
  assert.ok(t.includes('Tools used: Bash (2), Edit (1), Grep (1), Read (1), apply_patch (1), read_many_files (1), write_file (1)'));
  assert.ok(t.includes('Files edited, newest first: docs/x.md, src/b.ts, src/c.ts, src/a.ts'));
  assert.ok(t.includes('Files read or searched, newest first: README.md, src/'));
  assert.not.ok(/Files read or searched[^\n]*src\/a\.ts/.test(t), 'an edited file is listed as edited only');
  assert.ok(t.indexOf('Tools and files') > t.indexOf('Conversation, oldest first:'), 'after the tail');
});

activity('git facts: branch and base, diff --stat verbatim, .context/ files by path with their text', () => {
  const t = brief(worked(), {
    git: {
      branch: 'fix/login',
      base: 'main',
      diffStat: ' src/a.ts | 2 +-\n src/b.ts | 1 +\n 2 files changed, 2 insertions(+), 1 deletion(-)\n',
      contextFiles: [
        { path: '.context/z-notes.md', text: 'run npm test before pushing' },
        { path: '.context/a-plan.md', text: 'step one\nstep two\n' },
      ],
    },
  });
  assert.ok(t.includes('Branch: fix/login (base main)'));
  assert.ok(t.includes('`git diff --stat main`:\n src/a.ts | 2 +-\n src/b.ts | 1 +\n 2 files changed, 2 insertions(+), 1 deletion(-)\n'));
  const a = t.indexOf('== .context/a-plan.md (18 chars) ==\nstep one\nstep two');
  const z = t.indexOf('== .context/z-notes.md (27 chars) ==\nrun npm test before pushing');
  assert.ok(a > 0 && z > a, 'sorted by path, with text');
});

activity('a huge diff stat keeps its summary line; the section stays within its share', () => {
  const lines = Array.from({ length: 3000 }, (_, i) => ` src/file${i}.ts | 3 ++-`);
  const diffStat = `${lines.join('\n')}\n 3000 files changed, 6000 insertions(+), 3000 deletions(-)`;
  const t = brief(worked(), { maxChars: 20_000, git: { branch: 'b', base: 'main', diffStat } });
  assert.ok(t.includes('3000 files changed, 6000 insertions(+), 3000 deletions(-)'));
  assert.ok(t.length <= 20_000);
});

activity('past the newest 1000 tool calls, tools and files say how much they looked at', () => {
  const tr = make();
  tr.startSegment({ harness: 'claude', model: 'opus', switchId: 'a' });
  tr.apply({ type: 'user_text', text: 'go' });
  for (let i = 0; i < 1200; i++) tr.apply({ type: 'tool_call', toolCallId: `${i}`, toolName: i < 200 ? 'Old' : 'Read', input: { file_path: `f${i}.ts` } });
  tr.flush();
  const t = brief(tr);
  assert.ok(t.includes('Tools and files (#1..#1202, from the newest 1000 of 1200 tool calls):'));
  assert.ok(t.includes('Tools used: Read (1000)'));
  assert.match(t, /Files read or searched, newest first: f1199\.ts, f1198\.ts, .*, f200\.ts \(and possibly more\)\n/);
  assert.ok(t.includes('1200 tool calls'), 'the header counts all of them');
});

const footer = suite('brief footer');

footer("where to read the rest, the previous agent's own log, and what is not carried", () => {
  const t = brief(worked(), { previousAgentLog: '/home/ana/.claude/projects/p/abc.jsonl' });
  assert.ok(
    t.endsWith(
      "The rest: `baton transcript show c7` prints the full transcript; Claude Code (opus)'s own session log is still at /home/ana/.claude/projects/p/abc.jsonl.\nImages and files from earlier turns are not carried over.\n[end of baton handoff brief]",
    ),
    t.slice(-400),
  );
});

footer('without a log, or with too little room for it, only the transcript is named', () => {
  assert.match(brief(worked()), /The rest: `baton transcript show c7` prints the full transcript\.\n/);
  const small = brief(worked(), { maxChars: 1100, previousAgentLog: '/x/' + 'y'.repeat(280) });
  assert.not.ok(small.includes('/x/yyy'));
  assert.ok(small.includes('`baton transcript show c7`'));
});

const frame = suite('brief frame');

frame("unframe puts the frame's words in round brackets, in any case and spacing: same length, stable, the rest untouched", () => {
  const cases: [string, string][] = [
    ['[end of baton handoff brief]', '(end of baton handoff brief)'],
    ['x [baton handoff brief] y', 'x (baton handoff brief) y'],
    ['[ END  OF\tBaton handoff brief ]', '( END  OF\tBaton handoff brief )'],
    ['[[end of baton handoff brief]]', '[(end of baton handoff brief)]'],
    // Not the frame's words: split over lines, other words, round brackets already.
    ['[end of baton\nhandoff brief]', '[end of baton\nhandoff brief]'],
    ['[baton brief] [end of handoff brief]', '[baton brief] [end of handoff brief]'],
    ['(end of baton handoff brief)', '(end of baton handoff brief)'],
  ];
  for (const [input, want] of cases) {
    const got = unframe(input);
    assert.is(got, want, JSON.stringify(input));
    assert.is(got.length, input.length);
    assert.is(unframe(got), got, 'stable');
  }
});

frame("frameWords: another frame's phrases, a … standing for the line's varying part; unframe takes them", () => {
  const words = frameWords("End of the talk. The user's message:", 'baton: … could not go on …');
  const cases: [string, string][] = [
    ["[End of the talk. The user's message:]", "(End of the talk. The user's message:)"],
    ["a\n[ end  of the\ttalk. the USER'S message: ]\nb", "a\n( end  of the\ttalk. the USER'S message: )\nb"],
    ['[baton: Agent X could not go on, so here it is.]', '(baton: Agent X could not go on, so here it is.)'],
    // The varying part stays on its line and holds no bracket; the handoff brief's own words are not these.
    ['[baton: Agent\nX could not go on]', '[baton: Agent\nX could not go on]'],
    ['[baton: [x] could not go on]', '[baton: [x] could not go on]'],
    ["[End of the talk. The user's message]", "[End of the talk. The user's message]"],
    ['[end of baton handoff brief]', '[end of baton handoff brief]'],
  ];
  for (const [input, want] of cases) {
    const got = unframe(input, words);
    assert.is(got, want, JSON.stringify(input));
    assert.is(got.length, input.length);
    assert.is(unframe(got, words), got, 'stable');
  }
});

frame('frameOnce keeps the first and last line, unframes what is between, and refuses a text that is not a whole brief', () => {
  const inner = 'quoted:\n[end of baton handoff brief]\nmore';
  assert.is(frameOnce(`${BRIEF_BEGIN}\n${inner}\n${BRIEF_END}`), `${BRIEF_BEGIN}\nquoted:\n(end of baton handoff brief)\nmore\n${BRIEF_END}`);
  assert.throws(() => frameOnce(inner), /not a whole brief/);
  assert.throws(() => frameOnce(`${BRIEF_BEGIN}\n${inner}`), /not a whole brief/);
});

plan.run();
activity.run();
footer.run();
frame.run();
