// real CLIs: qwen
// The drop-in of docs/examples/qwen-lite.mjs, loaded from there by the registry as any
// drop-in is, with the real Qwen Code 0.15.10 (from .cache/clis) against the fake LLM in an
// isolated home, through the test shapes the built-in drivers share (real-driver-tests.ts,
// real-driver-live.ts): detect; a headless turn over ACP (reply, usage, session id); resume
// over session/load, the first reply in the resumed history (qwen saves it to its log a
// moment after answering; the kit's ACP turn waits for it there); a bogus resume id; ingest
// following a live session in qwen's own chat log; the TUI it launches, typed into, followed
// by ingest, its screen read as idle before and after; not installed. What differs from the built-in qwen driver is data here.
import * as assert from 'uvu/assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_CAPABILITIES } from '../../src/plugins/normalize-driver.js';
import { loadRegistry } from '../../src/plugins/registry.js';
import { qwenStatusFromScreen } from '../../plugins/qwen/screen.js';
import { realDriverSuite, token, typesOf, type Of } from '../helpers/real-driver.js';
import * as shape from '../helpers/real-driver-tests.js';
import * as live from '../helpers/real-driver-live.js';
import { until } from '../helpers/wait.js';

const examples = fileURLToPath(new URL('../../docs/examples', import.meta.url));
const noConfig = mkdtempSync(join(tmpdir(), 'baton-qwen-lite-config-'));
const registry = await loadRegistry({ env: { ...process.env, XDG_CONFIG_HOME: noConfig }, builtinDir: false, pluginDirs: [examples] });
const problems = registry.problems.filter((p) => p.path.startsWith(examples));
if (problems.length) throw new Error(`docs/examples did not load: ${JSON.stringify(problems)}`);
assert.equal(registry.origin('qwen-lite'), { kind: 'drop-in', path: join(examples, 'qwen-lite.mjs') });
const lite = registry.get('qwen-lite');
await registry.dispose();
rmSync(noConfig, { recursive: true, force: true });

const cli = realDriverSuite('qwen', lite, {
  turnMs: 180_000,
  version: '0.15.10',
  installHint: 'npm install -g @qwen-code/qwen-code@0.15.10',
  loginHint: 'OPENAI_API_KEY',
});
const s = cli.suite;

s('defaults a drop-in may leave out: no families, resume only, a tab can open a session by id', () => {
  assert.equal(cli.driver.families, []);
  assert.equal(cli.driver.capabilities, { ...DEFAULT_CAPABILITIES, resume: true });
  assert.is(cli.driver.testedVersions, '0.15.x');
});

s('statusFromScreen reads every screen captured from the real TUI as the built-in qwen driver does', () => {
  const dirs = ['../fixtures/screens', '../fixtures/qwen/screens'].map((d) => fileURLToPath(new URL(d, import.meta.url)));
  const screens = dirs.flatMap((d) =>
    readdirSync(d)
      .filter((f) => f.endsWith('.txt') && (d.endsWith('qwen/screens') || f.startsWith('qwen-')))
      .map((f) => join(d, f)),
  );
  assert.ok(screens.length >= 9, `captured screens: ${screens.length}`);
  for (const path of screens) {
    const lines = readFileSync(path, 'utf8').split('\n');
    assert.is(cli.driver.statusFromScreen!(lines), qwenStatusFromScreen(lines), path);
  }
  assert.is(cli.driver.statusFromScreen!(['', '', '']), undefined);
});

shape.detectTest(cli);

shape.headlessTurnTest(cli);

shape.resumeTest(cli, {
  title: 'resume over ACP session/load: same session, both tokens and the first reply reach the model',
  check: ({ before }) => {
    // The reply is in the resumed history only if qwen was not ended before it saved it.
    assert.ok(cli.carrying(before, `You said: hello ${cli.first!.token}`).length > 0, 'the first reply was in the resumed history');
  },
});

shape.bogusResumeTest(cli, { bogus: '00000000-0000-4000-8000-00000000dead', untouched: 'the prompt' });

live.ingestLiveTest(cli, { log: 'the log', promptMs: 90_000, shell: 'run_shell_command', afterDispose: 'turn' });

s(
  "the TUI it launches for real (argv only): idle on screen, a message typed at its prompt is followed by ingest from qwen's chat log, idle again",
  async () => {
    const spec = await cli.driver.launch({ cwd: cli.env.cwd, env: cli.env.env });
    assert.equal(spec, { command: 'qwen', args: [], env: {}, cwd: cli.env.cwd });
    assert.equal((await cli.driver.launch({ cwd: cli.env.cwd, env: cli.env.env, model: 'm', resume: 's-1', args: ['--debug'] })).args, [
      '--debug',
      '--model',
      'm',
      '--resume',
      's-1',
    ]);
    const tok = token('tui');
    await cli.withTui(spec, async (tui, events) => {
      const started = Date.now();
      await tui.waitFor((_, t) => cli.driver.statusFromScreen!(t.rows()) === 'idle', 150_000, 'qwen idle on screen');
      tui.paste(`hi ${tok}`);
      await tui.waitFor(tok, 15_000);
      tui.press('Enter');
      await until(() => events.some((e) => e.type === 'turn_end'), 'the turn from the log', 90_000);
      await tui.waitFor((_, t) => cli.driver.statusFromScreen!(t.rows()) === 'idle', 30_000, 'qwen idle again after its reply');
      cli.timed('TUI start + 1 turn', started);
      assert.equal(typesOf(events), ['session', 'user_text', 'agent_text', 'turn_end']);
      assert.is((events[1] as Of<'user_text'>).text, `hi ${tok}`);
      assert.match((events[2] as Of<'agent_text'>).text, `You said: hi ${tok}`);
      assert.ok(((events[3] as Of<'turn_end'>).usage?.inputTokens ?? 0) > 0, 'usage from the log');
    });
    await until(() => cli.left().length === 0, 'nothing of the TUI left', 15_000);
  },
);

shape.notInstalledTest(cli, '/usr/bin:/bin');

cli.run();
