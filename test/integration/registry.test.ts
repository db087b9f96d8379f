// The registry: the bundled config, unknown names, families and "first installed wins",
// config overlays and defaults, and the rows `baton agents` prints.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { BatonError } from '../../src/errors.js';
import { describeAgents, formatAgents } from '../../src/plugins/describe-agents.js';
import { loadRegistry, type Registry } from '../../src/plugins/registry.js';
import { fixtureDecl, writeFixtureDropIn } from '../helpers/acp-fixture.js';

let root = '';
let env: NodeJS.ProcessEnv = {};
let cfg = '';
let reg: Registry | undefined;

const open = async (e: NodeJS.ProcessEnv = env) => (reg = await loadRegistry({ env: e, builtinDir: false }));
const overlay = (json: unknown) => writeFileSync(join(cfg, 'harness-registry.json'), JSON.stringify(json));
const ghost = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  command: `baton-test-${name}-not-installed`,
  installHint: `install ${name} with: npm i -g ${name}`,
  ...extra,
});

async function rejects(p: Promise<unknown>): Promise<BatonError> {
  try {
    await p;
  } catch (err) {
    assert.instance(err, BatonError);
    return err as BatonError;
  }
  throw new Error('expected a BatonError');
}

const t = suite('registry');
t.before.each(() => {
  root = mkdtempSync(join(tmpdir(), 'baton-registry-'));
  cfg = join(root, 'config', 'baton');
  mkdirSync(cfg, { recursive: true });
  env = { ...process.env, XDG_CONFIG_HOME: join(root, 'config'), HOME: join(root, 'home') };
});
t.after.each(async () => {
  await reg?.dispose();
  reg = undefined;
  rmSync(root, { recursive: true, force: true });
});

t('the bundled config loads cleanly and declares the ACP agents', async () => {
  const r = await open();
  assert.equal(r.problems, []);
  for (const name of ['goose', 'cursor-agent', 'codex-acp', 'claude-code-acp']) {
    assert.ok(r.has(name), name);
    assert.is(r.origin(name)!.kind, 'config');
    assert.match(r.origin(name)!.path, /config[/\\]harness-registry\.json$/);
  }
  assert.equal(
    r.families.map((f) => f.name),
    ['claude', 'gpt', 'gemini', 'qwen'],
  );
});

t("built-ins: plugins/<cli>/index loads, the folder's other modules and files beside the folders are never imported", async () => {
  const dir = join(root, 'builtins');
  for (const d of ['alpha', 'broken', 'helpers-only']) mkdirSync(join(dir, d), { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  const driverTs = (name: string) => `
import type { HarnessDriver } from ${JSON.stringify(new URL('../../src/plugins/kit.ts', import.meta.url).pathname)};
export const driver: HarnessDriver = {
  name: ${JSON.stringify(name)}, title: 'Built-in ${name}', families: ['fixture'],
  capabilities: { resume: true, fork: false },
  detect: async () => ({ installed: false, installHint: 'bundled' }),
  launch: ({ cwd }) => ({ command: ${JSON.stringify(name)}, args: [], env: {}, cwd }),
};
`;
  writeFileSync(join(dir, 'alpha', 'index.ts'), driverTs('alpha'));
  // Importing either of these would throw: the loader must not touch them.
  writeFileSync(join(dir, 'alpha', 'log.ts'), 'throw new Error("a driver part was imported by the loader");\n');
  writeFileSync(join(dir, 'stray.ts'), driverTs('stray') + 'throw new Error("a flat file was imported");\n');
  writeFileSync(join(dir, 'helpers-only', 'log.ts'), 'throw new Error("imported");\n');
  writeFileSync(join(dir, 'broken', 'index.ts'), 'export default 5;\n');
  const dropIn = join(cfg, 'plugins', 'alpha.mjs');
  mkdirSync(join(cfg, 'plugins'));
  writeFileSync(dropIn, `export default (kit) => kit.acpDriver({ name: 'alpha', command: 'x', installHint: 'y' });`);
  reg = await loadRegistry({ env, builtinDir: dir });
  assert.is(reg.get('alpha').title, 'Built-in alpha');
  assert.equal(reg.origin('alpha'), { kind: 'builtin', path: join(dir, 'alpha', 'index.ts') });
  assert.not.ok(reg.has('stray'));
  const paths = reg.problems.map((p) => p.path);
  assert.ok(paths.includes(join(dir, 'broken', 'index.ts')), 'a built-in index exporting a non-driver is reported');
  assert.not.ok(
    reg.problems.some((p) => /imported/.test(p.message)),
    'no driver part or stray file was imported',
  );
  assert.equal(reg.problems.find((p) => p.paths)!.paths, [join(dir, 'alpha', 'index.ts'), dropIn]);
});

t('an unknown agent is bad input (exit 2) listing the known ones', async () => {
  const r = await open();
  try {
    r.get('nope');
    assert.unreachable();
  } catch (err) {
    assert.instance(err, BatonError);
    const e = err as BatonError;
    assert.is(e.exitCode, 2);
    assert.match(e.message, '"nope"');
    for (const n of r.names()) assert.match(e.hint!, n);
  }
});

t('model names map to families by name or pattern, case-insensitively', async () => {
  const r = await open();
  assert.is(r.familyOf('claude-sonnet-4-5')!.name, 'claude');
  assert.is(r.familyOf('opus')!.name, 'claude');
  assert.is(r.familyOf('gpt-5.1-codex')!.name, 'gpt');
  assert.is(r.familyOf('GEMINI-2.5-PRO')!.name, 'gemini');
  assert.is(r.familyOf('qwen')!.name, 'qwen');
  assert.is(r.familyOf('openai/gpt-4.1')!.name, 'gpt');
  assert.is(r.familyOf('llama-3'), undefined);
  const e = await rejects(r.resolveFamily('llama-3'));
  assert.is(e.exitCode, 2);
  assert.match(e.hint!, 'claude, gpt, gemini, qwen');
});

t('first installed wins, in the family order, then drivers that list the family themselves', async () => {
  overlay({
    families: [{ name: 'fixture', match: ['fixture-*'], drivers: ['ghost-a', 'acp-fixture', 'ghost-b', 'unregistered'] }],
    acpAgents: [ghost('ghost-a'), ghost('ghost-b'), fixtureDecl()],
  });
  const r = await open();
  assert.equal(r.problems, []);
  const got = await r.resolveFamily('fixture-model-7');
  assert.is(got.family, 'fixture');
  assert.is(got.driver.name, 'acp-fixture');
  assert.is(got.detected.installed, true);
  assert.equal(got.tried, [
    { name: 'ghost-a', installed: false },
    { name: 'acp-fixture', installed: true },
  ]);
  await r.dispose();

  // Now ghost-a exists on PATH (node under that name): it is earlier in the list, so it wins.
  const bin = join(root, 'bin');
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, 'baton-test-ghost-a-not-installed'));
  const r2 = await open({ ...env, PATH: `${bin}${delimiter}${env.PATH ?? ''}` });
  assert.is((await r2.resolveFamily('FIXTURE-x')).driver.name, 'ghost-a');
});

t('drivers listing a family in their own `families` are candidates after the configured ones', async () => {
  overlay({
    families: [{ name: 'fixture', match: ['fixture-*'], drivers: ['ghost-a'] }],
    acpAgents: [ghost('ghost-a')],
  });
  writeFixtureDropIn(join(cfg, 'plugins'), { families: ['fixture'] });
  const r = await open();
  const got = await r.resolveFamily('fixture-1');
  assert.is(got.driver.name, 'acp-fixture');
  assert.equal(
    got.tried.map((x) => x.name),
    ['ghost-a', 'acp-fixture'],
  );
});

t('none installed: exit 3 naming what was tried, with the first one’s install command', async () => {
  overlay({
    families: [{ name: 'ghosts', match: ['ghost*'], drivers: ['ghost-a', 'ghost-b'] }],
    acpAgents: [ghost('ghost-a'), ghost('ghost-b')],
  });
  const r = await open();
  const e = await rejects(r.resolveFamily('ghost-model'));
  assert.is(e.exitCode, 3);
  assert.match(e.message, 'ghost-a, ghost-b');
  assert.match(e.hint!, 'install ghost-a with: npm i -g ghost-a');
});

t('the user’s config overlays the bundled one: families first, defaults and agents replaced by name', async () => {
  overlay({
    families: [{ name: 'gpt', match: ['gpt*'], drivers: ['goose'] }],
    defaults: { codex: { args: ['--flag'], model: 'gpt-5' }, goose: { env: { A: '1' } } },
    acpAgents: [ghost('goose', { title: 'My goose' })],
  });
  const r = await open();
  assert.equal(r.problems, []);
  assert.is(r.families[0]!.name, 'gpt');
  assert.equal(r.families[0]!.drivers, ['goose']);
  assert.is(r.families.filter((f) => f.name === 'gpt').length, 1);
  assert.equal(r.settings('codex'), { args: ['--flag'], model: 'gpt-5' });
  assert.equal(r.settings('goose'), { env: { A: '1' } });
  assert.equal(r.settings('nobody'), {});
  assert.is(r.get('goose').title, 'My goose');
  assert.is(r.origin('goose')!.path, join(cfg, 'harness-registry.json'));
});

t('mistakes in the user’s config are problems naming the file and the field', async () => {
  overlay({ acpAgents: [{ name: 'Bad Name', command: 7 }, ghost('fine')], families: [{ name: 'x' }] });
  const r = await open();
  assert.ok(r.has('fine'));
  const file = join(cfg, 'harness-registry.json');
  const msgs = r.problems.filter((p) => p.path === file).map((p) => p.message);
  assert.ok(
    msgs.some((m) => m.startsWith('acpAgents[0].name:')),
    msgs.join('\n'),
  );
  assert.ok(
    msgs.some((m) => m.startsWith('acpAgents[0].command: expected a non-empty string, got 7')),
    msgs.join('\n'),
  );
  assert.ok(
    msgs.some((m) => m.startsWith('acpAgents[0].installHint:')),
    msgs.join('\n'),
  );
  assert.ok(
    msgs.some((m) => m.startsWith('families[0].match:')),
    msgs.join('\n'),
  );

  writeFileSync(join(cfg, 'harness-registry.json'), '{ not json');
  await r.reload();
  assert.ok(r.problems.some((p) => p.path === file && p.message.startsWith('cannot read')));
  assert.ok(r.has('goose'), 'the bundled config still loads');
});

t('local rules: the bundled ones, the user’s first (replacing a same-named one), a bad one a problem naming the file', async () => {
  overlay({
    local: [
      { name: 'qwen', match: ['qwen*'], harnesses: [{ driver: 'goose', apis: ['openai-chat'] }] },
      { name: 'broken', match: ['x*'], harnesses: [{ driver: 'goose', apis: ['carrier-pigeon'] }] },
    ],
  });
  const r = await open();
  assert.equal(
    r.localRules.map((x) => x.name),
    ['qwen', 'gpt-oss', 'claude-compatible', 'others'],
  );
  assert.equal(r.localRules[0]!.harnesses[0]!.driver, 'goose');
  const file = join(cfg, 'harness-registry.json');
  assert.ok(
    r.problems.some((p) => p.path === file && p.message.startsWith('local[1].harnesses[0].apis')),
    JSON.stringify(r.problems),
  );
});

t('with watch, an edit of the user’s config is picked up and announced', async () => {
  overlay({ acpAgents: [ghost('ghost-a')] });
  const r = await loadRegistry({ env, builtinDir: false, watch: true });
  reg = r;
  const added: string[] = [];
  r.onChange((c) => added.push(...c.added));
  assert.ok(r.has('ghost-a'));
  overlay({ acpAgents: [ghost('ghost-a'), ghost('ghost-b')] });
  const deadline = Date.now() + 10_000;
  while (!r.has('ghost-b')) {
    if (Date.now() > deadline) throw new Error('the config change was not picked up');
    await new Promise((res) => setTimeout(res, 25));
  }
  // With baton's view of it (every ACP agent gets one).
  assert.equal(added, ['ghost-b', 'ghost-b-view']);
});

t('a drop-in and a config agent with one name: an error naming both files', async () => {
  overlay({ acpAgents: [ghost('twin')] });
  const dropIn = writeFixtureDropIn(join(cfg, 'plugins'), { name: 'twin' });
  const r = await open();
  const p = r.problems.find((x) => x.paths)!;
  assert.equal(p.paths, [join(cfg, 'harness-registry.json'), dropIn]);
  assert.is(r.origin('twin')!.kind, 'config');
});

t('detect results are cached until asked to refresh', async () => {
  writeFixtureDropIn(join(cfg, 'plugins'));
  const r = await open();
  const a = r.detect('acp-fixture');
  assert.is(r.detect('acp-fixture'), a);
  const fresh = r.detect('acp-fixture', { refresh: true });
  assert.is.not(fresh, a);
  assert.is((await a).version, '1.2.3');
  // Its probe writes the version cache under the test's HOME: done before the dir is removed.
  await fresh;
});

t('rows for `baton agents`: installed and version, install hint when missing, untested-version warning', async () => {
  overlay({ acpAgents: [ghost('ghost-a', { loginHint: 'log in with ghost login' })] });
  writeFixtureDropIn(join(cfg, 'plugins'), { testedVersions: '>=2.0.0 <3' });
  const r = await open();
  const rows = await describeAgents(r);
  const fx = rows.find((x) => x.name === 'acp-fixture')!;
  assert.is(fx.installed, true);
  assert.is(fx.version, '1.2.3');
  assert.is(fx.path, process.execPath);
  assert.is(fx.origin, 'drop-in');
  assert.match(fx.warning!, '1.2.3 is outside the tested range (>=2.0.0 <3)');
  assert.is(fx.installHint, undefined);
  const g = rows.find((x) => x.name === 'ghost-a')!;
  assert.is(g.installed, false);
  assert.is(g.installHint, 'install ghost-a with: npm i -g ghost-a');
  assert.is(g.loginHint, 'log in with ghost login');
  const text = formatAgents(rows);
  assert.match(text, /acp-fixture\s+ACP fixture agent — installed 1\.2\.3/);
  assert.match(text, 'install: install ghost-a with: npm i -g ghost-a');
  assert.match(text, 'warning: version 1.2.3 is outside the tested range');
  assert.ok(JSON.parse(JSON.stringify(rows)).length === rows.length, 'rows are plain data for --json');
  // Described for another environment, in which ghost-a is on PATH.
  const bin = join(root, 'bin');
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, 'baton-test-ghost-a-not-installed'));
  const again = await describeAgents(r, { ...env, PATH: bin });
  assert.is(again.find((x) => x.name === 'ghost-a')!.installed, true);
  assert.is((await describeAgents(r)).find((x) => x.name === 'ghost-a')!.installed, false, 'the registry’s own environment is unchanged');
});

// Before: each agent with a view was listed twice (`gemini` and `gemini-view`, the same CLI,
// installed or not together), and the ACP adapters, which print no version, read "version
// unknown" though their npm package says which version they are.
t('`baton agents`: an agent is one row, its view named on it; an ACP adapter’s version is read from its npm package', async () => {
  const pkg = join(root, 'prefix/lib/node_modules/@acme/adapter');
  mkdirSync(join(pkg, 'dist'), { recursive: true });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: '@acme/adapter', version: '0.9.1' }));
  writeFileSync(join(pkg, 'dist/index.js'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
  const bin = join(root, 'prefix/bin');
  mkdirSync(bin, { recursive: true });
  symlinkSync(join(pkg, 'dist/index.js'), join(bin, 'acme-adapter'));
  overlay({
    acpAgents: [
      {
        name: 'acme-adapter',
        title: 'Acme (ACP adapter)',
        command: 'acme-adapter',
        args: [],
        npmPackage: '@acme/adapter',
        installHint: 'npm i -g @acme/adapter',
      },
    ],
  });
  writeFixtureDropIn(join(cfg, 'plugins'));
  const r = await open();
  assert.ok(r.has('acp-fixture-view') && r.has('acme-adapter-view'), 'the views are drivers still');
  const rows = await describeAgents(r, { ...env, PATH: bin });
  const names = rows.map((x) => x.name);
  assert.not.ok(
    names.some((n) => n.endsWith('-view')),
    `no view listed as an agent: ${names}`,
  );
  assert.is(names.filter((n) => n === 'acp-fixture').length, 1);
  assert.equal(rows.find((x) => x.name === 'acp-fixture')!.view, { name: 'acp-fixture-view', title: 'ACP fixture agent (baton view)' });
  const acme = rows.find((x) => x.name === 'acme-adapter')!;
  assert.is(acme.installed, true);
  assert.is(acme.version, '0.9.1', 'from its package.json, the adapter never asked');
  assert.is(acme.view?.name, 'acme-adapter-view');
  const text = formatAgents(rows);
  assert.match(text, /^acme-adapter +Acme \(ACP adapter\) — installed 0\.9\.1 /m);
  assert.match(text, /^ +view: acp-fixture-view \(its ACP session drawn by baton in a tab\)$/m);
  assert.not.match(text, /^\S+-view /m);
  assert.not.match(text, /version unknown/);
});

t.run();
