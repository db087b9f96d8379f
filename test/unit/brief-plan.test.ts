// Plan/todo tool calls of each agent CLI are recognized and read: the item text and status
// in each CLI's own shape, namespaced tool names, JSON-string inputs, and what is not a plan.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isPlanTool, normalizeToolName, openItems, planItems } from '../../src/transcript/brief-plan.js';

const t = suite('brief plan');

t('the plan tools of claude, codex, gemini, qwen and opencode are recognized, also namespaced', () => {
  for (const name of ['TodoWrite', 'update_plan', 'write_todos', 'todo_write', 'todowrite', 'mcp__acp__TodoWrite', 'functions.update_plan']) {
    assert.ok(isPlanTool(name), name);
  }
  for (const name of ['Write', 'TodoRead', 'plan', 'Bash', 'write_file', 'exit_plan_mode']) assert.not.ok(isPlanTool(name), name);
  assert.is(normalizeToolName('mcp__server__Todo_Write'), 'todowrite');
});

t('claude TodoWrite: content and status', () => {
  const items = planItems({
    todos: [
      { content: 'a', status: 'completed', activeForm: 'A-ing' },
      { content: 'b', status: 'in_progress', activeForm: 'B-ing' },
      { content: 'c', status: 'pending', activeForm: 'C-ing' },
    ],
  })!;
  assert.equal(openItems(items), [
    { text: 'b', status: 'in progress' },
    { text: 'c', status: 'pending' },
  ]);
});

t('codex update_plan: step and status, with an explanation beside the plan', () => {
  const items = planItems({
    explanation: 'why',
    plan: [
      { step: 'read', status: 'completed' },
      { step: 'write', status: 'in_progress' },
    ],
  })!;
  assert.equal(openItems(items), [{ text: 'write', status: 'in progress' }]);
});

t('gemini write_todos: description and status, cancelled items are not open', () => {
  const items = planItems({
    todos: [
      { description: 'x', status: 'cancelled' },
      { description: 'y', status: 'pending' },
    ],
  })!;
  assert.equal(openItems(items), [{ text: 'y', status: 'pending' }]);
});

t('qwen todo_write and opencode todowrite: content, status, ids and priorities beside', () => {
  const q = planItems({ todos: [{ id: '1', content: 'q1', status: 'pending' }] })!;
  assert.equal(q, [{ text: 'q1', status: 'pending' }]);
  const o = planItems({
    todos: [
      { id: 'a', content: 'o1', status: 'in_progress', priority: 'high' },
      { id: 'b', content: 'o2', status: 'completed', priority: 'low' },
    ],
  })!;
  assert.equal(openItems(o), [{ text: 'o1', status: 'in progress' }]);
});

t('an input given as JSON text is read; unreadable inputs are no plan, not an error', () => {
  assert.equal(planItems('{"todos":[{"content":"s","status":"pending"}]}'), [{ text: 's', status: 'pending' }]);
  for (const bad of [undefined, null, 'not json', '{broken', 42, [], { todos: 'x' }, { nothing: [] }])
    assert.is(planItems(bad), undefined, JSON.stringify(bad));
  assert.equal(planItems({ todos: [null, 3, { status: 'pending' }, 'plain string item'] }), [{ text: 'plain string item', status: 'pending' }]);
});

t('statuses are normalized; a missing status is pending; an unknown one is kept and counts as open', () => {
  const items = planItems({
    todos: [{ content: 'a' }, { content: 'b', status: 'DONE' }, { content: 'c', status: 'In-Progress' }, { content: 'd', status: 'blocked' }],
  })!;
  assert.equal(
    items.map((i) => i.status),
    ['pending', 'completed', 'in progress', 'blocked'],
  );
  assert.equal(
    openItems(items).map((i) => i.text),
    ['a', 'c', 'd'],
  );
});

t.run();
