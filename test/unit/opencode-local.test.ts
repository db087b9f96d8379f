// plugins/opencode/local.ts: opencode pointed at a local model server through its config
// variable: baton's provider merged over the user's own OPENCODE_CONFIG_CONTENT, the model
// named `baton-local/<model>` (main and small), long timeouts, nothing on the command line.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { opencodeLocalEndpoint } from '../../plugins/opencode/local.js';
import { BatonError, EXIT, LOCAL_REQUEST_TIMEOUT_MS } from '../../src/plugins/kit.js';

const o = { endpoint: 'http://127.0.0.1:11434', api: 'openai-chat' as const, model: 'qwen3-coder:30b' };
const content = (spec: { env: Record<string, string> }) => JSON.parse(spec.env.OPENCODE_CONFIG_CONTENT!) as Record<string, any>;

test('a provider of its own in OPENCODE_CONFIG_CONTENT, the model as opencode names it, no args', () => {
  const spec = opencodeLocalEndpoint(o);
  assert.equal(spec.args, []);
  assert.is(spec.model, 'baton-local/qwen3-coder:30b');
  assert.equal(Object.keys(spec.env), ['OPENCODE_CONFIG_CONTENT']);
  const c = content(spec);
  assert.is(c.model, 'baton-local/qwen3-coder:30b');
  assert.is(c.small_model, 'baton-local/qwen3-coder:30b', 'titles on the same server, not a cloud provider');
  const p = c.provider['baton-local'];
  assert.is(p.npm, '@ai-sdk/openai-compatible');
  assert.is(p.options.baseURL, 'http://127.0.0.1:11434/v1');
  for (const k of ['timeout', 'headerTimeout', 'chunkTimeout']) assert.is(p.options[k], LOCAL_REQUEST_TIMEOUT_MS, k);
  assert.ok(p.models['qwen3-coder:30b'], 'the model is declared (opencode lists no others for a custom provider)');
});

test("merged over the user's own OPENCODE_CONFIG_CONTENT; one that is not a JSON object gives way", () => {
  const user = { model: 'anthropic/claude-x', share: 'disabled', provider: { mine: { npm: 'x' } } };
  const c = content(opencodeLocalEndpoint({ ...o, env: { OPENCODE_CONFIG_CONTENT: JSON.stringify(user) } }));
  assert.is(c.model, 'baton-local/qwen3-coder:30b', 'the local model wins');
  assert.is(c.share, 'disabled', "the user's other settings stay");
  assert.ok(c.provider.mine && c.provider['baton-local']);
  const jsonc = content(opencodeLocalEndpoint({ ...o, env: { OPENCODE_CONFIG_CONTENT: '{ // jsonc\n }' } }));
  assert.is(jsonc.model, 'baton-local/qwen3-coder:30b');
});

test('another API than Chat Completions is refused (exit 2), naming the way out', () => {
  try {
    opencodeLocalEndpoint({ ...o, api: 'anthropic-messages' });
    assert.unreachable('refused');
  } catch (err) {
    assert.instance(err, BatonError);
    assert.is((err as BatonError).exitCode, EXIT.badInput);
    assert.match((err as BatonError).message, /Chat Completions only/);
  }
});

test.run();
