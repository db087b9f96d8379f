// The picker's model rows (src/tui/model-choices.ts, issue 14 item 2): an agent whose driver
// lists models gets one "other model…" row under it in the agent picker (one without
// models() gets none, and a fork's agent list leaves the row out); its model picker says it is
// asking until the list comes, then a row a model with the tab's running model "current" and
// the CLI's own "its default", a running model the list does not name first.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ModelList } from '../../src/plugins/api.js';
import { AgentChoices } from '../../src/tui/agent-choices.js';
import { ASKING, ModelChoices, OTHER_MODEL } from '../../src/tui/model-choices.js';
import { registryOf, testDriver as agent } from '../helpers/test-registry.js';

const listed: ModelList = { models: [{ id: 'small', name: 'Small' }, { id: 'big' }], current: 'small', source: 'table', note: 'a test table' };

test('agent picker: an "other model…" row under each agent that lists models, none for one that does not', async () => {
  const drivers = [agent('alpha', { models: async () => listed }), agent('beta')];
  const choices = new AgentChoices({ registry: registryOf(drivers), cwd: '/tmp', env: {}, agentsOnly: true });
  await choices.settled;
  assert.equal(
    choices.list().map((c) => [c.label, c.value]),
    [
      ['ALPHA', { kind: 'agent', name: 'alpha' }],
      [`ALPHA · ${OTHER_MODEL}`, { kind: 'agent', name: 'alpha', pickModel: true }],
      ['BETA', { kind: 'agent', name: 'beta' }],
    ],
  );
});

test('model picker: asking at first; then the models, the running one current, the CLI default marked', async () => {
  let answer: (l: ModelList) => void = () => {};
  const d = agent('alpha', { models: () => new Promise<ModelList>((r) => (answer = r)) });
  const choices = new ModelChoices(d, { registry: registryOf([d]), cwd: '/tmp', env: {}, running: 'big' });
  assert.equal(choices.list(), []);
  assert.is(choices.note(), ASKING);
  let changed = 0;
  choices.onChange(() => changed++);
  answer(listed);
  await choices.settled;
  assert.is(changed, 1);
  assert.equal(
    choices.list().map((c) => [c.label, c.detail, c.value]),
    [
      ['small', 'Small · its default', 'small'],
      ['big', 'current', 'big'],
    ],
  );
  assert.is(choices.note(), 'From a test table.');
});

test('model picker: a running model the list does not name comes first; an empty list says so', async () => {
  const d = agent('alpha', { models: async () => listed });
  const choices = new ModelChoices(d, { registry: registryOf([d]), cwd: '/tmp', env: {}, running: 'custom-7b' });
  await choices.settled;
  assert.equal(choices.list()[0], { label: 'custom-7b', detail: 'current', value: 'custom-7b', current: true });
  const none = agent('none', { models: async () => ({ models: [], source: 'acp' }) });
  const empty = new ModelChoices(none, { registry: registryOf([none]), cwd: '/tmp', env: {} });
  await empty.settled;
  assert.equal(empty.list(), []);
  assert.is(empty.note(), 'NONE lists no models.');
});

test.run();
