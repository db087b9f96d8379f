// Drop-in plugins: where they are looked for, what a good one looks like, broken ones
// reported by path while the rest load, the fields a drop-in may leave out and the ones it
// may still declare though nothing reads them, the tested-range verdict the registry adds to
// detect(), duplicate names, reloading while baton runs, and the example in
// docs/plugins.md loaded exactly as written.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { HarnessDriver } from '../../src/plugins/api.js';
import { describeAgents } from '../../src/plugins/describe-agents.js';
import { configDir, defaultPluginDir, listPluginFiles } from '../../src/plugins/loader.js';
import { DEFAULT_CAPABILITIES } from '../../src/plugins/normalize-driver.js';
import { loadRegistry, type Registry, type RegistryChange } from '../../src/plugins/registry.js';
import { until } from '../helpers/wait.js';

const driverSource = (name: string, title = 'Test driver', extra = '') => `
export default {
  name: ${JSON.stringify(name)},
  title: ${JSON.stringify(title)},
  families: [],
  capabilities: { resume: false, fork: false },
  detect: async () => ({ installed: false, installHint: 'nothing to install' }),
  launch: ({ cwd }) => ({ command: 'true', args: [], env: {}, cwd }),
  ${extra}
};
`;

let root = '';
let env: NodeJS.ProcessEnv = {};
let pluginDir = '';
let extraDir = '';
let emptyConfig = '';
let reg: Registry | undefined;

const open = async (opts: { pluginDirs?: string[]; watch?: boolean; env?: NodeJS.ProcessEnv } = {}) => {
  reg = await loadRegistry({ env: opts.env ?? env, builtinDir: false, configPath: emptyConfig, pluginDirs: opts.pluginDirs, watch: opts.watch });
  return reg;
};

const t = suite('loader');
t.before.each(() => {
  root = mkdtempSync(join(tmpdir(), 'baton-loader-'));
  env = { ...process.env, XDG_CONFIG_HOME: join(root, 'config'), HOME: join(root, 'home') };
  pluginDir = join(root, 'config', 'baton', 'plugins');
  extraDir = join(root, 'extra');
  mkdirSync(pluginDir, { recursive: true });
  emptyConfig = join(root, 'registry.json');
  writeFileSync(emptyConfig, '{}');
});
t.after.each(async () => {
  await reg?.dispose();
  reg = undefined;
  rmSync(root, { recursive: true, force: true });
});

t('drop-ins live in $XDG_CONFIG_HOME/baton/plugins, else ~/.config/baton/plugins', () => {
  assert.is(configDir({ XDG_CONFIG_HOME: '/x/cfg', HOME: '/home/a' }), '/x/cfg/baton');
  assert.is(defaultPluginDir({ XDG_CONFIG_HOME: '/x/cfg', HOME: '/home/a' }), '/x/cfg/baton/plugins');
  assert.is(defaultPluginDir({ HOME: '/home/a' }), '/home/a/.config/baton/plugins');
  // The XDG spec ignores relative paths.
  assert.is(defaultPluginDir({ XDG_CONFIG_HOME: 'rel', HOME: '/home/a' }), '/home/a/.config/baton/plugins');
});

t('only *.js and *.mjs files are plugins', () => {
  for (const f of ['a.mjs', 'b.js', 'c.ts', 'd.d.ts', 'notes.txt', '.hidden.mjs', 'e.cjs']) writeFileSync(join(pluginDir, f), '');
  mkdirSync(join(pluginDir, 'dir.mjs'));
  assert.equal(listPluginFiles(pluginDir), [join(pluginDir, 'a.mjs'), join(pluginDir, 'b.js')]);
  assert.equal(listPluginFiles(join(root, 'missing')), []);
});

t('a good drop-in loads: default export, named `driver` export, or a factory given the kit', async () => {
  writeFileSync(join(pluginDir, 'one.mjs'), driverSource('one'));
  writeFileSync(join(pluginDir, 'two.js'), driverSource('two').replace('export default', 'export const driver ='));
  writeFileSync(
    join(pluginDir, 'three.mjs'),
    `export default (kit) => kit.acpDriver({ name: 'three', command: 'no-such-acp-agent', installHint: 'get three' });`,
  );
  const r = await open();
  assert.equal(r.problems, []);
  // An ACP agent comes with baton's view of it, from the same file.
  assert.equal(r.names(), ['one', 'three', 'two', 'three-view']);
  assert.equal(r.origin('three-view'), { kind: 'drop-in', path: join(pluginDir, 'three.mjs') });
  assert.is(r.get('three-view').title, 'three (baton view)');
  assert.equal(r.origin('one'), { kind: 'drop-in', path: join(pluginDir, 'one.mjs') });
  const three = r.get('three');
  assert.is(typeof three.headless, 'function');
  assert.equal(await r.detect('three'), { installed: false, installHint: 'get three' });
});

t('a broken drop-in is reported by its path, naming the field, and the rest still load', async () => {
  const files = {
    syntax: join(pluginDir, 'a-syntax.mjs'),
    none: join(pluginDir, 'b-none.mjs'),
    shape: join(pluginDir, 'c-shape.mjs'),
    throws: join(pluginDir, 'd-throws.mjs'),
  };
  writeFileSync(files.syntax, 'export default {\n');
  writeFileSync(files.none, 'export const somethingElse = 1;\n');
  writeFileSync(
    files.shape,
    driverSource('shape')
      .replace('fork: false', 'fork: 3')
      .replace(/launch: .*\n/, 'launch: "not a function",\n'),
  );
  writeFileSync(files.throws, 'export default () => { throw new Error("factory exploded"); };\n');
  writeFileSync(join(pluginDir, 'z-good.mjs'), driverSource('good'));
  const r = await open();
  assert.equal(r.names(), ['good']);
  const byPath = new Map(r.problems.map((p) => [p.path, p.message]));
  assert.equal([...byPath.keys()].sort(), Object.values(files).sort());
  assert.match(byPath.get(files.syntax)!, 'failed to load');
  assert.match(byPath.get(files.none)!, 'exports no driver');
  assert.match(byPath.get(files.shape)!, 'capabilities.fork: expected true or false, got 3');
  assert.match(byPath.get(files.shape)!, 'launch: expected a function');
  assert.match(byPath.get(files.throws)!, 'factory exploded');
});

t("a drop-in may leave out families, capabilities and a launch's env; planMode and submit, which nothing reads, are ignored", async () => {
  writeFileSync(
    join(pluginDir, 'bare.mjs'),
    `export default {
  name: 'bare', title: 'Bare',
  detect: async () => ({ installed: false, installHint: 'get bare' }),
  launch: async ({ cwd }) => ({ command: 'bare', args: [], cwd }),
};`,
  );
  writeFileSync(
    join(pluginDir, 'older.mjs'),
    driverSource('older').replace('fork: false }', "fork: true, planMode: true, submit: 'type', someday: 'x' }").replace('env: {}, ', ''),
  );
  const r = await open();
  assert.equal(r.problems, []);
  const bare = r.get('bare');
  assert.equal(bare.families, []);
  assert.equal(bare.capabilities, DEFAULT_CAPABILITIES);
  assert.equal(await bare.launch({ cwd: root, env }), { command: 'bare', args: [], env: {}, cwd: root });
  const older = r.get('older');
  assert.equal(older.capabilities, { ...DEFAULT_CAPABILITIES, fork: true }, 'only the fields baton reads');
  assert.equal((await older.launch({ cwd: root, env })).env, {});
});

t(
  'the registry compares the version detect() found with testedVersions: outside is flagged (and `baton agents` warns), inside or unreadable is not, whatever the driver said',
  async () => {
    const versioned = (name: string, version: string, claims = '') =>
      driverSource(name, name, `testedVersions: '1.2.x',`).replace(
        "detect: async () => ({ installed: false, installHint: 'nothing to install' })",
        `detect: async () => ({ installed: true, version: ${JSON.stringify(version)}, installHint: 'x'${claims} })`,
      );
    writeFileSync(join(pluginDir, 'newer.mjs'), versioned('newer', '1.3.0'));
    // A driver that still compares for itself (as drivers did) is not believed: the registry decides.
    writeFileSync(join(pluginDir, 'inside.mjs'), versioned('inside', 'inside 1.2.9 (build 4)', ", untestedVersion: 'its own idea'"));
    writeFileSync(join(pluginDir, 'odd.mjs'), versioned('odd', 'nightly'));
    const r = await open();
    assert.equal(r.problems, []);
    assert.equal(await r.detect('newer'), { installed: true, version: '1.3.0', installHint: 'x', untestedVersion: '1.2.x' });
    assert.equal(await r.detect('inside'), { installed: true, version: 'inside 1.2.9 (build 4)', installHint: 'x' });
    assert.equal(await r.detect('odd'), { installed: true, version: 'nightly', installHint: 'x' });
    const rows = new Map((await describeAgents(r)).map((row) => [row.name, row]));
    assert.match(rows.get('newer')!.warning ?? '', 'version 1.3.0 is outside the tested range (1.2.x)');
    assert.is(rows.get('inside')!.warning, undefined);
    // With an environment of its own, `baton agents` asks the driver directly: the same verdict.
    const own = new Map((await describeAgents(r, env)).map((row) => [row.name, row]));
    assert.match(own.get('newer')!.warning ?? '', 'outside the tested range (1.2.x)');
  },
);

t('two plugins with one name is an error naming both files; the first one is kept', async () => {
  mkdirSync(extraDir);
  const first = join(pluginDir, 'twin.mjs');
  const second = join(extraDir, 'also-twin.mjs');
  writeFileSync(first, driverSource('twin', 'First twin'));
  writeFileSync(second, driverSource('twin', 'Second twin'));
  const r = await open({ pluginDirs: [extraDir] });
  assert.is(r.get('twin').title, 'First twin');
  assert.is(r.problems.length, 1);
  const p = r.problems[0]!;
  assert.equal(p.paths, [first, second]);
  assert.ok(p.message.includes(first) && p.message.includes(second), p.message);
});

t('while baton runs, added, edited and removed drop-ins are picked up (chokidar)', async () => {
  const r = await open({ watch: true, pluginDirs: [extraDir] });
  const changes: RegistryChange[] = [];
  r.onChange((c) => changes.push(c));
  assert.equal(r.names(), []);

  const file = join(pluginDir, 'late.mjs');
  writeFileSync(file, driverSource('late', 'Late v1'));
  await until(() => r.has('late'), 'the late plugin loaded');
  assert.ok(changes.some((c) => c.added.includes('late')));

  writeFileSync(file, driverSource('late', 'Late v2'));
  await until(() => r.has('late') && r.get('late').title === 'Late v2', 'the late plugin reloaded as v2');
  assert.ok(changes.some((c) => c.updated.includes('late')));

  // A --plugins directory that did not exist when baton started.
  mkdirSync(extraDir);
  writeFileSync(join(extraDir, 'later.mjs'), driverSource('later'));
  await until(() => r.has('later'), 'the later plugin loaded');

  writeFileSync(join(pluginDir, 'broken.mjs'), 'export default 42;\n');
  await until(() => r.problems.some((p) => p.path === join(pluginDir, 'broken.mjs')), 'broken.mjs reported');
  assert.ok(r.has('late') && r.has('later'), 'a broken newcomer does not take the others down');

  unlinkSync(file);
  await until(() => !r.has('late'), 'the late plugin gone');
  assert.ok(changes.some((c) => c.removed.includes('late')));
});

t('the drop-in example in docs/plugins.md loads exactly as written and works', async () => {
  const doc = readFileSync(new URL('../../docs/plugins.md', import.meta.url), 'utf8');
  const marker = doc.indexOf('<!-- drop-in example: my-agent.mjs');
  assert.ok(marker >= 0, 'the example is marked in the doc');
  const block = /```js\n([\s\S]*?)```/.exec(doc.slice(marker));
  assert.ok(block, 'a js block follows the marker');
  writeFileSync(join(pluginDir, 'my-agent.mjs'), block![1]!);

  // A `my-agent` on PATH: node itself under that name, so `--version` really runs.
  const bin = join(root, 'bin');
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, 'my-agent'));
  const r = await open({ env: { ...env, PATH: `${bin}${delimiter}${env.PATH ?? ''}` } });
  assert.equal(r.problems, []);
  const d: HarnessDriver = r.get('my-agent');
  assert.is(d.title, 'My Agent');

  const det = await d.detect({ env: { ...env, PATH: `${bin}${delimiter}${env.PATH ?? ''}` } });
  assert.is(det.installed, true);
  assert.is(det.path, join(bin, 'my-agent'));
  assert.is(det.version, process.versions.node);
  assert.is(det.untestedVersion, undefined);
  const missing = await d.detect({ env: { ...env, PATH: join(root, 'empty') } });
  assert.equal(missing, { installed: false, installHint: 'npm install -g my-agent' });

  const spec = await d.launch({ env, cwd: root, model: 'm1', args: ['--x'] });
  assert.equal(spec, { command: 'my-agent', args: ['--x', '--model', 'm1'], env: {}, cwd: root });
});

t('the qwen-lite example in docs/plugins.md is docs/examples/qwen-lite.mjs, verbatim (test/real/qwen-lite.test.ts runs that file)', () => {
  const doc = readFileSync(new URL('../../docs/plugins.md', import.meta.url), 'utf8');
  const marker = doc.indexOf('<!-- drop-in example: docs/examples/qwen-lite.mjs');
  assert.ok(marker >= 0, 'the example is marked in the doc');
  const block = /```js\n([\s\S]*?)```/.exec(doc.slice(marker));
  assert.is(block?.[1], readFileSync(new URL('../../docs/examples/qwen-lite.mjs', import.meta.url), 'utf8'));
});

t.run();
