// real CLIs: claude, codex, gemini, qwen, opencode
// test/helpers/multi-cli-env.ts with the real CLIs: claude, codex, gemini, qwen and
// opencode each run one plain non-interactive turn in ONE shared home and ONE environment
// (as baton hands them its own), against one fake LLM: every reply echoes its token, the
// fake's log shows each token reaching the model through that CLI's own API, each CLI's
// session store is in the shared home, and cleanup leaves no process and no dir.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeLlm, type FakeLlm } from '../fake-llm/server.js';
import { processesUnder } from '../../src/proc/index.js';
import { cliEnv } from '../helpers/cli-env.js';
import { selectedRuns } from '../helpers/cli-runs.js';
import { multiCliEnv, processesWithHome, type MultiCliEnv } from '../helpers/multi-cli-env.js';
import { describeRun, runCli } from '../helpers/run-cli.js';

const SPECS = selectedRuns();
const NAMES = SPECS.map((s) => s.name);
const timings: string[] = [];

const config = suite('multiCliEnv: one home for several CLIs');

config("the union of every CLI's variables and config files in one home; a missing CLI or a conflict is an error", async () => {
  const m = multiCliEnv({ fakeUrl: 'http://127.0.0.1:9', names: NAMES });
  try {
    for (const name of NAMES) {
      const single = cliEnv(name, { fakeUrl: 'http://127.0.0.1:9' });
      try {
        for (const [k, v] of Object.entries(single.env)) {
          if (['HOME', 'PWD', 'TMPDIR'].includes(k) || k.startsWith('XDG_')) continue;
          // CODEX_HOME names a dir in the home: the same place, another scratch dir.
          const want = k === 'CODEX_HOME' ? join(m.home, '.codex') : v;
          assert.is(m.env[k], want, `${name} needs ${k}`);
        }
      } finally {
        await single.cleanup();
      }
      assert.is(m.cli(name).env, m.env, 'every CLI gets the same environment');
      assert.is(m.cli(name).bin, m.bins[name]);
    }
    for (const f of ['.claude.json', '.codex/config.toml', '.gemini/settings.json', '.qwen/settings.json']) {
      assert.ok(existsSync(join(m.home, f)), f);
    }
    assert.match(readFileSync(join(m.home, '.codex/config.toml'), 'utf8'), `[projects.${JSON.stringify(m.cwd)}]`);
    assert.ok(JSON.parse(readFileSync(join(m.home, '.claude.json'), 'utf8')).projects[m.cwd].hasTrustDialogAccepted);
    assert.is(m.env.HOME, m.home);
    assert.is(m.env.PWD, m.cwd);
    assert.throws(() => m.cli('codex-acp'), /not one of/);
  } finally {
    await m.cleanup();
    await m.cleanup();
  }
  assert.not.ok(existsSync(m.dir), 'cleanup removed the dir');
  assert.throws(() => multiCliEnv({ fakeUrl: 'http://x', names: [] }), /names is empty/);
});

const real = suite('five real CLIs in one environment');
let fake: FakeLlm;
let m: MultiCliEnv;

real.before(async () => {
  fake = await startFakeLlm();
  m = multiCliEnv({ fakeUrl: fake.url, names: NAMES });
});
real.after(async () => {
  await m.cleanup();
  await fake.close();
});

for (const spec of SPECS) {
  real(`${spec.name}: a plain turn in the shared env echoes its token and reaches the model`, async () => {
    const tok = `TOK-multi-${spec.name}-${randomBytes(4).toString('hex')}`;
    const r = await runCli(m.cli(spec.name), spec.turn(tok));
    timings.push(`${spec.name}: ${(r.ms / 1000).toFixed(1)} s`);
    assert.ok(!r.timedOut && r.code === 0, `${spec.name}: ${describeRun(r)}`);
    assert.match(spec.parse(r).reply, tok, `${spec.name} reply: ${describeRun(r)}`);
    const reached = fake.requestsContaining(tok);
    assert.ok(reached.length > 0, `a model request carried ${tok}`);
    assert.ok(
      reached.some((q) => q.api === spec.api),
      `${spec.name} spoke ${spec.api}: got ${reached.map((q) => q.api).join(', ')}`,
    );
    assert.ok(existsSync(join(m.home, spec.store)), `${spec.name} keeps its sessions in the shared home (${spec.store})`);
  });
}

real('cleanup ends whatever is left by pid, and removes the home', async () => {
  const { dir, home } = m;
  await m.cleanup();
  assert.equal(processesUnder(dir), []);
  assert.equal(processesWithHome(home), []);
  assert.not.ok(existsSync(dir));
});

config.run();
real.run();

process.on('exit', () => console.log(`\nOne turn per CLI in one shared env (wall clock):\n  ${timings.join('\n  ')}`));
