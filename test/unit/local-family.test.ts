// The local-model family choice (pure): the registry's `local` rules × installed harnesses ×
// the APIs the endpoint speaks, and the endpoint probe's parsing.
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BatonError, EXIT } from '../../src/errors.js';
import { listsModel, modelNames, normalizeEndpoint, routeExists } from '../../src/plugins/local-endpoint.js';
import { chooseLocalHarness, overlayLocalRules, readLocalRules, type LocalApi } from '../../src/plugins/local-family.js';

const bundled = readLocalRules(JSON.parse(readFileSync(new URL('../../config/harness-registry.json', import.meta.url), 'utf8')));
const rules = bundled.rules;
const only =
  (...names: string[]) =>
  (d: string) =>
    names.includes(d);
const ALL: LocalApi[] = ['openai-chat', 'openai-responses', 'anthropic-messages'];
const CHAT: LocalApi[] = ['openai-chat'];

function fails(fn: () => unknown): BatonError {
  try {
    fn();
  } catch (e) {
    if (e instanceof BatonError) return e;
    throw e;
  }
  throw new Error('expected a BatonError');
}

test('the bundled registry has valid local rules', () => {
  assert.equal(bundled.problems, []);
  assert.equal(
    rules.map((r) => r.name),
    ['qwen', 'gpt-oss', 'claude-compatible', 'others'],
  );
});

test('qwen* runs in Qwen Code, then OpenCode', () => {
  assert.is(chooseLocalHarness('qwen3-coder:30b', rules, only('qwen', 'opencode', 'claude'), ALL).driver, 'qwen');
  const c = chooseLocalHarness('Qwen2.5-Coder', rules, only('opencode', 'claude'), CHAT);
  assert.equal([c.family, c.driver, c.api], ['qwen', 'opencode', 'openai-chat']);
});

test('qwen with neither harness installed falls to a claude-compatible server, then to others', () => {
  assert.equal(chooseLocalHarness('qwen3', rules, only('claude', 'goose'), ALL).driver, 'claude');
  assert.equal(chooseLocalHarness('qwen3', rules, only('claude', 'goose'), CHAT).driver, 'goose');
});

test('gpt-oss runs in Codex over Responses; OpenCode over Chat Completions where Responses is not served', () => {
  const c = chooseLocalHarness('gpt-oss:20b', rules, only('codex', 'opencode', 'claude'), ALL);
  assert.equal([c.family, c.driver, c.api], ['gpt-oss', 'codex', 'openai-responses']);
  assert.is(chooseLocalHarness('gpt-oss:20b', rules, only('codex', 'opencode'), CHAT).driver, 'opencode');
});

test('a claude-compatible server runs any model in Claude Code; others go to OpenCode, then Goose', () => {
  const c = chooseLocalHarness('llama3.1', rules, only('claude', 'opencode'), ALL);
  assert.equal([c.family, c.driver, c.api], ['claude-compatible', 'claude', 'anthropic-messages']);
  assert.is(chooseLocalHarness('llama3.1', rules, only('claude', 'opencode'), CHAT).driver, 'opencode');
  assert.is(chooseLocalHarness('mistral', rules, only('goose'), CHAT).driver, 'goose');
});

test('no installed harness: exit 3 naming what to install, and every candidate tried', () => {
  const e = fails(() => chooseLocalHarness('qwen3-coder', rules, only(), CHAT));
  assert.is(e.exitCode, EXIT.agentNotInstalled);
  assert.match(e.message, /qwen3-coder/);
  assert.match(e.hint ?? '', /install qwen or opencode or goose/);
});

test('no harness speaks any API the endpoint serves: exit 2 naming the APIs', () => {
  const e = fails(() => chooseLocalHarness('gpt-oss', rules, only('codex'), []));
  assert.is(e.exitCode, EXIT.badInput);
  assert.match(e.message, /none found/);
});

test("the user's rules go first and replace same-named ones", () => {
  const mine = readLocalRules({ local: [{ name: 'qwen', match: ['qwen*'], harnesses: [{ driver: 'goose', apis: ['openai-chat'] }] }] });
  assert.equal(mine.problems, []);
  const merged = overlayLocalRules(rules, mine.rules);
  assert.is(merged.length, rules.length);
  assert.is(chooseLocalHarness('qwen3', merged, only('qwen', 'goose'), CHAT).driver, 'goose');
});

test('bad rules are problems naming their field, good ones still read', () => {
  const r = readLocalRules({
    local: [
      { name: 'x', match: ['*'], harnesses: [{ driver: 'a', apis: ['grpc'] }] },
      { name: 'y', match: ['y*'], harnesses: [] },
    ],
  });
  assert.equal(
    r.rules.map((x) => x.name),
    ['y'],
  );
  assert.match(r.problems.join('\n'), /local\[0\]\.harnesses\[0\]\.apis/);
  assert.equal(readLocalRules({ local: 3 }).problems, ['local: expected an array of rules']);
});

test('endpoint probe: model lists of OpenAI and Ollama shapes, route statuses, URL normalization', () => {
  assert.equal(modelNames({ data: [{ id: 'qwen3-coder' }, { id: 'gpt-oss:20b' }] }), ['qwen3-coder', 'gpt-oss:20b']);
  assert.equal(modelNames({ models: [{ name: 'llama3.1:8b', model: 'llama3.1:8b' }] }), ['llama3.1:8b']);
  assert.equal(modelNames('nope'), []);
  // What `ollama pull qwen3-coder` fetched, Ollama lists as qwen3-coder:latest and serves by either name.
  assert.ok(listsModel(['qwen3-coder:latest'], 'qwen3-coder') && listsModel(['qwen3-coder:latest'], 'qwen3-coder:latest'));
  assert.not.ok(listsModel(['qwen3-coder:30b'], 'qwen3-coder'), 'another tag is not the model');
  assert.not.ok(listsModel(['qwen3-coder:latest'], 'qwen3-coder:30b'));
  assert.ok(routeExists(400) && routeExists(422) && routeExists(200));
  assert.not.ok(routeExists(404) || routeExists(405));
  assert.is(normalizeEndpoint('http://127.0.0.1:1234/v1/'), 'http://127.0.0.1:1234');
  assert.is(normalizeEndpoint('http://localhost:11434'), 'http://localhost:11434');
  assert.is(fails(() => normalizeEndpoint('ftp://x')).exitCode, EXIT.badInput);
  assert.is(fails(() => normalizeEndpoint('not a url')).exitCode, EXIT.badInput);
});

test.run();
