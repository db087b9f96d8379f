// Drop-ins that never finish loading (src/plugins/drop-in-load.ts): a top-level await that
// never settles (with a timer keeping it alive, or with nothing left to settle it), a busy
// loop at top level, a process.exit() at top level. Every command that
// loads plugins still works with the other agents, and names each file that did not load.
// The built CLI runs in a process of its own (a drop-in that spins would take a test
// process with it).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFixtureDropIn } from '../helpers/acp-fixture.js';
import { startCliProcess, type CliProcessRun } from '../helpers/cli-process.js';

let home = '';
let cwd = '';
let plugins = '';
const files: Record<string, string> = {};

const driver = (name: string) =>
  `export default { name: '${name}', title: '${name}', families: [], capabilities: { resume: false, fork: false },
  detect: async () => ({ installed: false, installHint: 'none' }), launch: ({ cwd }) => ({ command: 'true', args: [], env: {}, cwd }) };\n`;

/** Runs the built CLI to its end; one still running after `ms` fails the test (and is killed). */
function baton(args: string[], ms = 60_000): Promise<CliProcessRun> {
  const env = { ...process.env, BATON_HOME: home, XDG_CONFIG_HOME: join(home, 'config'), BATON_PLUGIN_LOAD_TIMEOUT: '1' };
  return startCliProcess(['--plugins', plugins, ...args], cwd, env).exit(ms);
}

function assertNamesEachBadFile(err: string): void {
  for (const f of [files.awaits!, files.forgets!, files.spins!]) {
    assert.match(err, `baton: warning: ${f}: did not finish loading within 1 s`);
  }
  assert.match(err, `baton: warning: ${files.exits!}: ended the thread that loaded it (process.exit(0)): not loaded`);
}

const t = suite('drop-in-load');
t.before.each(() => {
  home = mkdtempSync(join(tmpdir(), 'baton-dropin-'));
  cwd = mkdtempSync(join(tmpdir(), 'baton-dropin-cwd-'));
  plugins = join(home, 'plugins');
  mkdirSync(plugins);
  // In name order, the bad ones before and between the good ones.
  files.awaits = join(plugins, 'a-awaits.mjs');
  files.forgets = join(plugins, 'a2-forgets.mjs');
  files.spins = join(plugins, 'c-spins.mjs');
  files.exits = join(plugins, 'd-exits.mjs');
  writeFileSync(files.awaits, `await new Promise(() => { setInterval(() => {}, 1000); });\n${driver('awaits')}`);
  writeFileSync(files.forgets, `await new Promise(() => {});\n${driver('forgets')}`);
  writeFixtureDropIn(plugins, { name: 'alpha', title: 'Alpha', env: { ACP_FIXTURE_HOME: join(home, 'alpha-sessions') } }, 'b-alpha.mjs');
  writeFileSync(files.spins, `for (;;) {}\n${driver('spins')}`);
  writeFileSync(files.exits, `process.exit(0);\n${driver('exits')}`);
  writeFileSync(join(plugins, 'e-fine.mjs'), driver('fine'));
});
t.after.each(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
});

t('baton agents lists the drivers that loaded and names each drop-in that did not', async () => {
  const r = await baton(['agents']);
  assert.is(r.code, 0, r.err);
  assert.match(r.out, /^alpha +Alpha — installed/m);
  assert.match(r.out, /^fine +fine — not installed/m);
  assert.match(r.out, /^claude /m);
  for (const name of ['awaits', 'forgets', 'spins', 'exits']) assert.not.match(r.out, new RegExp(`^${name} `, 'm'));
  assertNamesEachBadFile(r.err);
});

t('baton chat with another agent still works, and says which drop-ins did not load', async () => {
  const r = await baton(['chat', '--new', '--agent', 'alpha', 'hello MARK-LOADED']);
  assert.is(r.code, 0, r.err);
  assert.match(r.out, /echo: hello MARK-LOADED/);
  assertNamesEachBadFile(r.err);
  const bad = await baton(['chat', '--new', '--agent', 'spins', 'hi']);
  assert.is(bad.code, 2, bad.err);
  assert.match(bad.err, /unknown agent "spins"/);
});

t.run();
