// test/helpers/cli-env.ts: the isolated home each real CLI gets (config files, env, PATH),
// and ending what a CLI left running under that home, by pid, without touching anything
// outside it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alive, processesUnder, signalPid } from '../../src/proc/index.js';
import { CLI_BIN_DIR, CLI_NAMES, cliEnv, killProcessesUnder, type CliEnv } from '../helpers/cli-env.js';

const FAKE = 'http://127.0.0.1:9';
const envs: CliEnv[] = [];
function make(name: (typeof CLI_NAMES)[number]): CliEnv {
  const e = cliEnv(name, { fakeUrl: FAKE });
  envs.push(e);
  return e;
}

const config = suite('cli-env config');
config.after.each(async () => {
  while (envs.length) await envs.pop()!.cleanup();
});

config('every CLI gets a fresh home, its own PATH first, PWD = cwd, and no CI or foreign credentials', () => {
  const saved = { CI: process.env.CI, OPENAI_API_KEY: process.env.OPENAI_API_KEY, CI_JOB_ID: process.env.CI_JOB_ID };
  process.env.CI = 'true';
  process.env.OPENAI_API_KEY = 'sk-real-must-not-leak';
  process.env.CI_JOB_ID = '1';
  try {
    for (const name of CLI_NAMES) {
      const e = make(name);
      assert.ok(e.home.startsWith(`${e.dir}/`));
      assert.ok(statSync(e.home).isDirectory() && statSync(e.cwd).isDirectory());
      assert.is(e.env.HOME, e.home);
      assert.is(e.env.PWD, e.cwd);
      assert.is(e.env.PATH!.split(':')[0], CLI_BIN_DIR);
      assert.is(e.bin, join(CLI_BIN_DIR, name));
      assert.not.ok('CI' in e.env || 'CI_JOB_ID' in e.env, name);
      if (name !== 'qwen') assert.not.ok('OPENAI_API_KEY' in e.env, name);
      assert.ok(e.env.TMPDIR!.startsWith(`${e.dir}/`));
    }
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
});

config('claude: onboarding done, the cwd trusted, a Bearer token, IS_SANDBOX', () => {
  const e = make('claude');
  const json = JSON.parse(readFileSync(join(e.home, '.claude.json'), 'utf8'));
  assert.is(json.hasCompletedOnboarding, true);
  assert.is(json.projects[e.cwd].hasTrustDialogAccepted, true);
  assert.is(e.env.ANTHROPIC_BASE_URL, FAKE);
  assert.is(e.env.ANTHROPIC_AUTH_TOKEN, 'fake-token');
  assert.not.ok('ANTHROPIC_API_KEY' in e.env);
  assert.is(e.env.IS_SANDBOX, '1');
  assert.is(e.env.DISABLE_AUTOUPDATER, '1');
  assert.is(statSync(join(e.home, '.claude.json')).mode & 0o777, 0o600);
});

config('codex and codex-acp: config.toml with the fake Responses provider', () => {
  for (const name of ['codex', 'codex-acp'] as const) {
    const e = make(name);
    assert.is(e.env.CODEX_HOME, join(e.home, '.codex'));
    const toml = readFileSync(join(e.home, '.codex/config.toml'), 'utf8');
    assert.match(toml, 'model_provider = "fake"');
    assert.match(toml, `base_url = "${FAKE}/v1"`);
    assert.match(toml, 'wire_api = "responses"');
    assert.match(toml, 'check_for_update_on_startup = false');
    assert.match(toml, `[projects."${e.cwd}"]`);
  }
});

config('gemini, qwen, opencode: auto-update off and the fake endpoint', () => {
  const g = make('gemini');
  const gs = JSON.parse(readFileSync(join(g.home, '.gemini/settings.json'), 'utf8'));
  assert.is(gs.general.enableAutoUpdate, false);
  assert.is(gs.general.sessionRetention.enabled, false);
  assert.is(gs.security.folderTrust.enabled, false);
  assert.is(gs.security.auth.selectedType, 'gemini-api-key');
  assert.is(g.env.GOOGLE_GEMINI_BASE_URL, FAKE);

  const q = make('qwen');
  const qs = JSON.parse(readFileSync(join(q.home, '.qwen/settings.json'), 'utf8'));
  assert.is(qs.general.enableAutoUpdate, false);
  assert.is(q.env.OPENAI_BASE_URL, `${FAKE}/v1`);

  const o = make('opencode');
  const oc = JSON.parse(o.env.OPENCODE_CONFIG_CONTENT!);
  assert.is(oc.autoupdate, false);
  assert.is(oc.provider.fake.options.baseURL, `${FAKE}/v1`);
  assert.is(o.env.OPENCODE_DISABLE_AUTOUPDATE, '1');
});

config('cleanup removes the scratch dir', async () => {
  const e = cliEnv('codex', { fakeUrl: FAKE });
  assert.ok(existsSync(e.dir));
  await e.cleanup();
  assert.not.ok(existsSync(e.dir));
});

const reaper = suite('processes under a home');
let dir = '';
const started: ChildProcess[] = [];
reaper.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-reaper-'));
});
reaper.after.each(() => {
  for (const c of started.splice(0)) {
    signalPid(c.pid!, 'SIGKILL');
  }
  rmSync(dir, { recursive: true, force: true });
});

function daemon(cmd: string, args: string[], cwd: string): ChildProcess {
  // detached + unref: like codex's app-server, it is no longer anyone's child to wait for.
  const c = spawn(cmd, args, { cwd, detached: true, stdio: 'ignore' });
  c.unref();
  started.push(c);
  return c;
}

reaper('ends a daemon whose executable lives under the dir, and one whose cwd does, not others', async () => {
  mkdirSync(join(dir, 'home/bin'), { recursive: true });
  copyFileSync('/bin/sleep', join(dir, 'home/bin/sleep'));
  const byExe = daemon(join(dir, 'home/bin/sleep'), ['60'], tmpdir());
  const byCwd = daemon('/bin/sleep', ['60'], join(dir, 'home'));
  const outside = daemon('/bin/sleep', ['60'], tmpdir());
  const deadline = Date.now() + 5000;
  while (processesUnder(dir).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));

  const found = processesUnder(dir).sort();
  assert.equal(found, [byExe.pid!, byCwd.pid!].sort());
  const killed = await killProcessesUnder(dir);
  assert.equal(killed.sort(), found);
  assert.not.ok(alive(byExe.pid!));
  assert.not.ok(alive(byCwd.pid!));
  assert.ok(alive(outside.pid!), 'a process outside the dir is left alone');
  assert.equal(processesUnder(dir), []);
});

config.run();
reaper.run();
