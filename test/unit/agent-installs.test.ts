// What `baton agents install` installs and where baton then looks: each recipe in
// config/agent-installs.json pins the version test/clis/package.json pins (what the real
// tier runs) and that version is inside its driver's testedVersions, so an install never
// lands outside what was tested; the managed bin dir goes after the user's PATH, once;
// the progress line's bar; the install scripts a prefix allows are the ones the test CLIs'
// pins allow.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { progressLine } from '../../src/commands/agents-install.js';
import { prefixManifest } from '../../src/plugins/agent-install.js';
import type { DriverDefinition } from '../../src/plugins/api.js';
import { installRecipes, managedAgentsDir, managedBinDir, withManagedAgents } from '../../src/plugins/managed-agents.js';
import { versionInRange } from '../../src/plugins/version-range.js';

const ROOT = join(import.meta.dirname, '../..');
const testClis = JSON.parse(readFileSync(join(ROOT, 'test/clis/package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  allowScripts: Record<string, boolean>;
};
const pins = testClis.dependencies;

test('the five built-in CLIs, each at the version the tests pin and inside its driver’s tested range', async () => {
  const recipes = installRecipes();
  assert.equal([...recipes.keys()].sort(), ['claude', 'codex', 'gemini', 'opencode', 'qwen']);
  for (const r of recipes.values()) {
    assert.is(r.version, pins[r.package], `${r.name}: ${r.package} is pinned at ${pins[r.package]} in test/clis/package.json`);
    const driver = (await import(`../../plugins/${r.name}/index.ts`)).default as DriverDefinition;
    assert.ok(driver.testedVersions, `${r.name} has testedVersions`);
    assert.is(versionInRange(r.version, driver.testedVersions!), true, `${r.name} ${r.version} in ${driver.testedVersions}`);
    assert.ok(r.needs.length > 10, `${r.name} says what it needs`);
  }
});

test('each prefix allows the install scripts its CLI needs: together, the ones test/clis/package.json allows', () => {
  const recipes = [...installRecipes().values()];
  const allowed = recipes.flatMap((r) => r.allowScripts);
  assert.equal([...new Set(allowed)].sort(), Object.keys(testClis.allowScripts).sort());
  const claude = installRecipes().get('claude')!;
  assert.equal(prefixManifest(claude).allowScripts, { '@anthropic-ai/claude-code': true });
  assert.equal(prefixManifest(installRecipes().get('gemini')!).allowScripts, { '@github/keytar': true, 'node-pty': true });
  assert.equal(prefixManifest(installRecipes().get('qwen')!).allowScripts, {});
});

test('the managed bin dir: under XDG_DATA_HOME (else ~/.local/share), after the user’s PATH, added once', () => {
  const env = { HOME: '/home/u', XDG_DATA_HOME: '/data', PATH: '/usr/local/bin:/usr/bin' };
  assert.is(managedAgentsDir(env), '/data/baton/agents');
  assert.is(managedAgentsDir({ HOME: '/home/u' }), '/home/u/.local/share/baton/agents');
  // A relative XDG_DATA_HOME is ignored, as the XDG spec says.
  assert.is(managedAgentsDir({ HOME: '/home/u', XDG_DATA_HOME: 'rel' }), '/home/u/.local/share/baton/agents');
  const once = withManagedAgents(env);
  assert.is(once.PATH, '/usr/local/bin:/usr/bin:/data/baton/agents/bin');
  assert.is(withManagedAgents(once), once);
  assert.is(withManagedAgents({ HOME: '/h' }).PATH, managedBinDir({ HOME: '/h' }));
});

test('the progress line: a bar from the unpacked bytes when the size is known, MB downloaded always', () => {
  const p = { phase: 'downloading' as const, bytes: 5 * 1024 * 1024, fetched: 1 };
  assert.is(progressLine('Qwen Code', '0.15.10', p), 'Installing Qwen Code 0.15.10  5.0 MB downloaded');
  assert.is(
    progressLine('Qwen Code', '0.15.10', { ...p, unpacked: 50, unpackedSize: 100 }),
    `Installing Qwen Code 0.15.10  [${'#'.repeat(12)}${'.'.repeat(12)}]  50%  5.0 MB downloaded`,
  );
  assert.is(progressLine('Qwen Code', '0.15.10', { ...p, phase: 'checking' }), 'Installing Qwen Code 0.15.10: asking the registry…');
});

test.run();
