// Models (issue 14 item 2) below the CLIs: src/plugins/describe-models.ts (the current model
// marked: baton's configured one, else the CLI's, else the driver default; a configured model
// the list does not name still offered; a hanging driver reported, not waited on), reading an
// ACP session/new answer (acp-models.ts: configOptions of category model, grouped or not, and
// the older `models` field), the per-CLI pieces (codex's catalog and config.toml, qwen's ACP
// ids, Claude Code's table), and `models` as an optional driver method that drop-ins may have
// and that validation checks.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DriverDefinition, ModelList } from '../../src/plugins/api.js';
import { modelsFromSession } from '../../src/plugins/acp-models.js';
import { describeModels, formatModels, markCurrent, modelsOf } from '../../src/plugins/describe-models.js';
import { cachedModels, modelEnvDigest } from '../../src/plugins/model-cache.js';
import { normalizeDriver } from '../../src/plugins/normalize-driver.js';
import { driverProblems } from '../../src/plugins/validate.js';
import { codexCatalogModels, configuredModel } from '../../plugins/codex/models.js';
import { qwenModelName } from '../../plugins/qwen/models.js';
import { claudeModels } from '../../plugins/claude/models.js';
import { registryOf, testDriver as agent } from '../helpers/test-registry.js';

const s = suite('models');

const list = (current?: string): ModelList => ({
  models: [{ id: 'small' }, { id: 'big', name: 'Big One', description: 'the strong one' }],
  source: 'table',
  note: 'a test table',
  ...(current ? { current } : {}),
});

s('markCurrent: the current one marked; one the list does not name comes first, marked', () => {
  assert.equal(
    markCurrent(list().models, 'big').map((m) => [m.id, m.current]),
    [
      ['small', false],
      ['big', true],
    ],
  );
  assert.equal(
    markCurrent(list().models, 'custom-7b').map((m) => [m.id, m.current]),
    [
      ['custom-7b', true],
      ['small', false],
      ['big', false],
    ],
  );
  assert.equal(
    markCurrent(list().models, undefined).filter((m) => m.current),
    [],
  );
});

s('current: baton configured model, else what the CLI says it runs, else the driver default', async () => {
  const opts = { cwd: '/tmp', env: {} };
  const cli = agent('alpha', { defaultModel: 'small', models: async () => list('big') });
  assert.is((await modelsOf(registryOf([cli]), cli, opts)).current, 'big');
  assert.is((await modelsOf(registryOf([cli], { alpha: { model: 'small' } }), cli, opts)).current, 'small');
  const quiet = agent('beta', { defaultModel: 'small', models: async () => list() });
  const rows = await modelsOf(registryOf([quiet]), quiet, opts);
  assert.is(rows.current, 'small');
  assert.equal(rows.source, 'table');
  assert.equal(rows.note, 'a test table');
});

s('a driver that hangs is reported after the deadline; one without models() lists none; not installed says so', async () => {
  const hang = agent('hang', { models: () => new Promise<ModelList>(() => {}) });
  const none = agent('none');
  const gone = agent('gone', { detect: async () => ({ installed: false, installHint: 'get it' }), models: async () => list() });
  const rows = await describeModels(registryOf([hang, none, gone]), { cwd: '/tmp', env: {}, timeoutMs: 50 });
  assert.match(rows[0]!.error ?? '', /took longer than/);
  assert.equal(rows[1]!.models, []);
  assert.is(rows[1]!.error, undefined);
  assert.is(rows[2]!.installed, false);
  const text = formatModels(rows);
  assert.match(text, /hang {2}HANG\n {2}error: listing models took longer/);
  assert.match(text, /none {2}NONE\n {2}\(lists no models/);
  assert.match(text, /gone {2}GONE — not installed/);
});

s('formatModels: one line a model, * and (current) on the current one', async () => {
  const cli = agent('alpha', { models: async () => list('big') });
  const text = formatModels(await describeModels(registryOf([cli]), { cwd: '/tmp', env: {} }));
  assert.is(text, ['alpha  ALPHA — from a test table', '  small', '* big    Big One: the strong one  (current)'].join('\n'));
});

s('ACP session/new: configOptions of category model (grouped too), else the older models field; none: undefined', () => {
  const flat = {
    configOptions: [
      { id: 'mode', category: 'mode', type: 'select', currentValue: 'build', options: [{ value: 'build', name: 'build' }] },
      {
        id: 'model',
        category: 'model',
        type: 'select',
        currentValue: 'fake/fake-model',
        options: [
          { value: 'fake/fake-model', name: 'Fake/Fake Model' },
          { value: 'o/x', name: 'o/x' },
        ],
      },
    ],
  };
  assert.equal(modelsFromSession(flat), { models: [{ id: 'fake/fake-model', name: 'Fake/Fake Model' }, { id: 'o/x' }], current: 'fake/fake-model' });
  const grouped = {
    configOptions: [
      {
        id: 'm',
        category: 'model',
        type: 'select',
        currentValue: 'b',
        options: [
          {
            group: 'g',
            name: 'G',
            options: [
              { value: 'a', name: 'A' },
              { value: 'b', name: 'b', description: 'bee' },
            ],
          },
        ],
      },
    ],
  };
  assert.equal(modelsFromSession(grouped), {
    models: [
      { id: 'a', name: 'A' },
      { id: 'b', description: 'bee' },
    ],
    current: 'b',
  });
  const legacy = {
    models: {
      currentModelId: 'auto',
      availableModels: [
        { modelId: 'auto', name: 'Auto', description: 'let it decide' },
        { modelId: 'gemini-2.5-pro', name: 'gemini-2.5-pro' },
      ],
    },
  };
  assert.equal(modelsFromSession(legacy), { models: [{ id: 'auto', name: 'Auto', description: 'let it decide' }, { id: 'gemini-2.5-pro' }], current: 'auto' });
  assert.is(modelsFromSession({ sessionId: 'x' }), undefined);
  assert.is(modelsFromSession(null), undefined);
  assert.is(modelsFromSession({ configOptions: [{ id: 'model', type: 'boolean', currentValue: true }] }), undefined);
});

s('codex: the catalog entries codex lists, in its priority order; the model config.toml sets at its top', () => {
  const json = JSON.stringify({
    models: [
      { slug: 'b', display_name: 'B', visibility: 'list', priority: 2, upgrade: { model: 'a' } },
      { slug: 'hidden', visibility: 'hide', priority: 0 },
      { slug: 'a', display_name: 'a', description: 'first', visibility: 'list', priority: 1 },
    ],
  });
  assert.equal(codexCatalogModels(json), [
    { id: 'a', description: 'first' },
    { id: 'b', name: 'B', description: "(codex's TUI moves it to a)" },
  ]);
  assert.equal(codexCatalogModels('not json'), []);
  assert.is(configuredModel('# c\nmodel = "gpt-5.5"\n[model_providers.x]\nmodel = "no"\n'), 'gpt-5.5');
  assert.is(configuredModel('[profiles.x]\nmodel = "inside a table"\n'), undefined);
});

s('qwen: the name --model takes, from its ACP ids', () => {
  assert.is(qwenModelName('$runtime|openai|fake-model(openai)'), 'fake-model');
  assert.is(qwenModelName('coder-model(qwen-oauth)'), 'coder-model');
  assert.is(qwenModelName('plain'), 'plain');
});

s("claude: baton's table, the current one from ANTHROPIC_MODEL, else the account's settings.json", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'baton-models-'));
  try {
    const table = await claudeModels({ cwd: dir, env: { HOME: dir } });
    assert.is(table.source, 'table');
    assert.ok(table.models.some((m) => m.id === 'sonnet'));
    assert.match(table.note ?? '', /may be stale/);
    assert.is(table.current, undefined);
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ model: 'haiku' }));
    assert.is((await claudeModels({ cwd: dir, env: { HOME: dir, CLAUDE_CONFIG_DIR: dir } })).current, 'haiku');
    assert.is((await claudeModels({ cwd: dir, env: { HOME: dir, CLAUDE_CONFIG_DIR: dir, ANTHROPIC_MODEL: 'opus' } })).current, 'opus');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

s('cache: asked once per build and deciding environment; refresh asks again; an empty list is not kept', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'baton-models-'));
  try {
    const exe = join(dir, 'cli');
    writeFileSync(exe, '#!/bin/sh\n', { mode: 0o755 });
    const env = { BATON_HOME: join(dir, 'home'), OPENAI_MODEL: 'm1' };
    let asked = 0;
    const probe = async () => {
      asked++;
      return list();
    };
    assert.equal((await cachedModels(exe, ['x'], env, probe))?.models.length, 2);
    await cachedModels(exe, ['x'], env, probe);
    assert.is(asked, 1, 'cached');
    await cachedModels(exe, ['x'], { ...env, OPENAI_MODEL: 'm2' }, probe);
    assert.is(asked, 2, 'another provider model is asked for its own list');
    await cachedModels(exe, ['x'], env, probe, { refresh: true });
    assert.is(asked, 3, 'refresh asks again');
    let empty = 0;
    const nothing = async () => {
      empty++;
      return { models: [], source: 'acp' as const };
    };
    assert.is(await cachedModels(exe, ['y'], env, nothing), undefined);
    await cachedModels(exe, ['y'], env, nothing);
    assert.is(empty, 2, 'nothing found is asked again');
    assert.is(modelEnvDigest({ PATH: '/a', OPENAI_MODEL: 'x' }), modelEnvDigest({ PATH: '/b', OPENAI_MODEL: 'x' }), 'only deciding variables count');
    assert.is(modelEnvDigest({ OPENAI_API_KEY: 'sk-1' }), modelEnvDigest({ OPENAI_API_KEY: 'sk-2' }), 'a key counts by being set, not by its value');
    assert.is.not(modelEnvDigest({ OPENAI_API_KEY: 'sk-1' }), modelEnvDigest({}));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

s('models is an optional driver method: a drop-in may have it, validation checks it, normalizeDriver keeps its this', async () => {
  assert.equal(
    driverProblems({
      name: 'x',
      title: 'X',
      detect: async () => ({ installed: false, installHint: 'h' }),
      launch: () => ({ command: 'x', args: [], cwd: '/' }),
      models: 'x',
    } as never),
    ['models: expected a function, got "x"'],
  );
  const def = {
    name: 'cls',
    title: 'Cls',
    mine: 'own',
    detect: async () => ({ installed: true, installHint: 'h' }),
    launch: () => ({ command: 'x', args: [], cwd: '/' }),
    async models(this: { mine: string }) {
      return { models: [{ id: this.mine }], source: 'table' as const };
    },
  };
  assert.equal((await normalizeDriver(def as DriverDefinition).models!({ cwd: '/', env: {} })).models, [{ id: 'own' }]);
});

s.run();
