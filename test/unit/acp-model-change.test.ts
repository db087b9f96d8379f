// The pure pieces of a model change in a view tab's running session (issue 14 item 2): how an
// ACP session/new answer says the model can be changed (acp-models.ts modelControl: the model
// config option first, then the older `models` field, else not at all, as Gemini CLI, Qwen
// Code, opencode and claude-code-acp answer), the agent's own id for the name baton lists
// (Qwen Code's ids carry a runtime prefix and the auth type), and the request typed into the
// view: an APC string the view's key reader takes whole, even split across reads, never as text.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { agentModelId, bareModelName, modelControl } from '../../src/plugins/acp-models.js';
import { modelRequest, parseModelRequest } from '../../src/plugins/acp-view-log.js';
import { KeyReader } from '../../src/tui/acp-view-keys.js';

const s = suite('acp model change');

const option = (current: string, values: string[]) => ({
  id: 'model',
  name: 'Model',
  category: 'model',
  type: 'select',
  currentValue: current,
  options: values.map((value) => ({ value, name: value })),
});
const legacy = (current: string, ids: string[]) => ({ currentModelId: current, availableModels: ids.map((modelId) => ({ modelId, name: modelId })) });

s('modelControl: the config option of category model first, else session/set_model, else none', () => {
  // opencode: the config option alone.
  assert.equal(
    modelControl({
      sessionId: 'x',
      configOptions: [option('fake/a', ['fake/a', 'fake/b']), { id: 'mode', category: 'mode', type: 'select', currentValue: 'build', options: [] }],
    }),
    {
      via: 'config',
      configId: 'model',
      ids: ['fake/a', 'fake/b'],
      current: 'fake/a',
    },
  );
  // Qwen Code: both; the config option wins.
  const qwen = {
    configOptions: [option('$runtime|openai|m(openai)', ['coder-model(qwen-oauth)', '$runtime|openai|m(openai)'])],
    models: legacy('$runtime|openai|m(openai)', ['x']),
  };
  assert.is(modelControl(qwen)?.via, 'config');
  // Gemini CLI, claude-code-acp: the older field.
  assert.equal(modelControl({ models: legacy('auto', ['auto', 'gemini-2.5-pro']) }), { via: 'set_model', ids: ['auto', 'gemini-2.5-pro'], current: 'auto' });
  // The fixture agent by default, codex-acp without models: none.
  assert.is(modelControl({ sessionId: 'x' }), undefined);
  assert.is(modelControl({}), undefined);
});

s("agentModelId: the agent's id for baton's name of it", () => {
  const ids = ['coder-model(qwen-oauth)', '$runtime|openai|fake-model(openai)'];
  assert.is(agentModelId(ids, 'fake-model'), '$runtime|openai|fake-model(openai)');
  assert.is(agentModelId(ids, 'coder-model(qwen-oauth)'), 'coder-model(qwen-oauth)');
  assert.is(agentModelId(['gemini-2.5-pro'], 'gemini-2.5-pro'), 'gemini-2.5-pro');
  // A name the agent does not list is passed as it is: the agent says whether it takes it.
  assert.is(agentModelId(['a'], 'other'), 'other');
  assert.is(bareModelName('$runtime|openai|fake-model(openai)'), 'fake-model');
});

s('the request typed into the view: one key, whole even when split, never text', () => {
  const bytes = modelRequest('n1', 'fake/fake-model-2');
  assert.equal(new KeyReader().read(`ab${bytes}c`), [
    { k: 'text', text: 'ab' },
    { k: 'apc', text: 'baton-model;n1;fake/fake-model-2' },
    { k: 'text', text: 'c' },
  ]);
  // Split anywhere past its ESC _ (an ESC alone at the end of a read is the Escape key: the
  // driver writes the request in one write, which a PTY hands over in one read).
  for (let cut = 2; cut < bytes.length; cut++) {
    const r = new KeyReader();
    const keys = [...r.read(bytes.slice(0, cut)), ...r.read(`${bytes.slice(cut)}x`)];
    assert.equal(
      keys,
      [
        { k: 'apc', text: 'baton-model;n1;fake/fake-model-2' },
        { k: 'text', text: 'x' },
      ],
      `cut at ${cut}`,
    );
  }
  assert.equal(parseModelRequest('baton-model;n1;fake/fake-model-2'), { nonce: 'n1', model: 'fake/fake-model-2' });
  assert.is(parseModelRequest('something-else;1;2'), undefined);
  assert.throws(() => modelRequest('n1', 'evil\x1b\\x'));
});

s.run();
