// real CLIs: gemini
// The gemini driver with the real gemini 0.61 (from .cache/clis) against the fake LLM, in an
// isolated home: detect; headless turns (reply, usage, session id, the token in the model's
// request), a 200 KB prompt through stdin, native resume, a bogus resume id, a shell tool
// call with --yes and none offered without it; ingest following a live session (events
// while gemini waits for the model; abort; dispose); readSession; launch() argv and its TUI
// run for real in a PTY (an approval on screen, ingest); timeout, model errors, a missing
// key and a missing CLI. Each gemini runs in its own process group; the home's leftovers
// are ended by pid in cleanup. The shapes every driver shares are in
// test/helpers/real-driver-tests.ts and real-driver-live.ts; this file holds gemini's data
// and the checks only gemini has.
// The tests are steps in one home, in order: the resume tests (headless and TUI) resume the
// first turn's session, and readSession reads the one the live-ingest test followed.
import * as assert from 'uvu/assert';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ARGV_PROMPT_LIMIT } from '../../src/plugins/api.js';
import { driver } from '../../plugins/gemini/index.js';
import { geminiArgs } from '../../plugins/gemini/headless.js';
import { realDriverSuite, textOf, token, typesOf } from '../helpers/real-driver.js';
import * as shape from '../helpers/real-driver-tests.js';
import * as live from '../helpers/real-driver-live.js';
import { until } from '../helpers/wait.js';

const cli = realDriverSuite('gemini', driver, {
  turnMs: 180_000,
  version: '0.61.0',
  installHint: 'npm install -g @google/gemini-cli@0.61.0',
  loginHint: 'GEMINI_API_KEY',
});
const s = cli.suite;

shape.detectTest(cli);

shape.headlessTurnTest(cli, {
  check: ({ events, tok }) => assert.is(textOf(events), `FAKE-LLM reply. You said: hello ${tok}`),
});

shape.resumeTest(cli, {
  title: "resume: the second turn runs in the same session and its request carries the first turn's token",
  check: ({ events, tok }) => assert.match(textOf(events), tok),
});

shape.bogusResumeTest(cli, { bogus: 'd50bfe5a-0000-49c9-a3d3-54a519b7c9fd', untouched: 'any request' });

s('a 200 KB prompt goes on stdin, not argv, and reaches the model whole', async () => {
  const head = token('big-head');
  const tail = token('big-tail');
  const lines = Array.from({ length: 4000 }, (_, i) => `line ${i} of a long handoff brief about module ${i % 97}`);
  const prompt = `${head}\n${lines.join('\n')}\n${tail}`;
  assert.ok(Buffer.byteLength(prompt) > 1.5 * ARGV_PROMPT_LIMIT, `${prompt.length} chars`);
  const { argv, stdin } = geminiArgs({ prompt, yes: false });
  assert.is(stdin, prompt);
  assert.ok(argv.every((a) => Buffer.byteLength(a) < 1000));
  const before = cli.lastSeq();
  const { events } = await cli.turn('200 KB prompt', prompt);
  assert.ok(cli.carrying(before, head, tail, 'line 3999 of a long').length > 0, 'the whole prompt reached the model');
  assert.match(textOf(events), tail);
});

shape.toolsTest(cli, { names: ['run_shell_command'] });

s('without yes, gemini offers the model no tool that needs approval: nothing runs', async () => {
  const before = cli.lastSeq();
  const { events } = await cli.turn('tool denied', '[[FAKE_SHELL: echo nope > denied.txt]]');
  assert.not.ok(events.some((e) => e.type === 'tool_call'));
  assert.not.ok(existsSync(join(cli.env.cwd, 'denied.txt')));
  const main = cli.carrying(before, 'denied.txt').filter((r) => r.stream);
  assert.ok(main.length > 0);
  const declared = ((main[0]!.body as { tools?: { functionDeclarations?: { name: string }[] }[] }).tools ?? []).flatMap((t) =>
    (t.functionDeclarations ?? []).map((f) => f.name),
  );
  assert.ok(declared.includes('read_file'), 'read-only tools are offered');
  assert.not.ok(declared.includes('run_shell_command') || declared.includes('write_file'), `no shell or write tool declared: ${declared.join(', ')}`);
});

// gemini writes no turn boundary: a followed turn ends once the log stays quiet after the answer.
live.ingestLiveTest(cli, {
  log: 'the log',
  promptMs: 120_000,
  shell: 'run_shell_command',
  afterDispose: (at) => ({ id: 'after-dispose', timestamp: at, type: 'info', content: 'after dispose' }),
});

shape.readSessionTest(cli, {
  where: "gemini's own log",
  types: ['user_text', 'tool_call', 'tool_result', 'agent_text', 'notice', 'turn_end'],
  unknown: 'd50bfe5a-0000-49c9-a3d3-0000000dead0',
});

live.launchArgvTest(cli, {
  title: 'launch(): argv for a new session, a model and resume, never a message; no native fork; an account gets its own GEMINI_CLI_HOME',
  plain: { args: (session) => ['--session-id', session], env: () => ({}), session: /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/ },
  full: {
    opts: { model: 'gemini-2.5-pro', resume: 'abc-123', args: ['--debug'] },
    args: ['--resume', 'abc-123', '-m', 'gemini-2.5-pro', '--debug'],
  },
  fork: 'refused',
  account: { env: (dir) => ({ GEMINI_CLI_HOME: dir, GEMINI_FORCE_FILE_STORAGE: 'true' }), made: (dir) => dir },
  // A new account's settings: session retention off (gemini's cleanup would delete sessions to resume).
  check: (dir) => {
    const settings = join(dir, '.gemini/settings.json');
    assert.equal(JSON.parse(readFileSync(settings, 'utf8')), { general: { sessionRetention: { enabled: false } } });
    assert.is(statSync(settings).mode & 0o777, 0o600);
  },
});

s('the launched TUI for real: the approval on screen, then ingest has the call, its result and the answer', async () => {
  const tok = token('tui');
  const spec = await cli.driver.launch({ cwd: cli.env.cwd, env: cli.env.env });
  await cli.withTui(spec, async (tui, events) => {
    const started = Date.now();
    await live.firstMessage(cli, tui, `[[FAKE_SHELL: echo ${tok} > tui.txt]] ${tok}`, undefined, events);
    await tui.waitFor((_, t) => driver.statusFromScreen!(t.rows()) === 'approval', 120_000, 'gemini asking to run the shell command');
    tui.press('Enter'); // "Allow once" is selected
    await until(() => events.some((e) => e.type === 'turn_end'), 'the turn end from the log', 60_000);
    await tui.waitFor((_, t) => driver.statusFromScreen!(t.rows()) === 'idle', 30_000, 'gemini idle on screen');
    cli.timed('TUI start + 1 turn with an approval', started);
    assert.equal(typesOf(events), ['session', 'user_text', 'tool_call', 'tool_result', 'agent_text', 'turn_end']);
    assert.is(readFileSync(join(cli.env.cwd, 'tui.txt'), 'utf8').trim(), tok);
  });
  await until(() => cli.left().length === 0, 'nothing of the TUI left', 10_000);
});

live.tuiResumeTest(cli, { resumeMs: 120_000 });
shape.timeoutTest(cli, { timeoutMs: 30_000, message: 'did not finish within', reachesModel: false });
shape.modelErrorTest(cli, "gemini's reason");
shape.loginFailureTest(cli, {
  title: 'no API key: exit 4 with the login hint',
  label: 'no key',
  prompt: 'hello',
  drop: 'GEMINI_API_KEY',
  message: 'GEMINI_API_KEY',
  hint: 'GEMINI_API_KEY',
});
shape.notInstalledTest(cli, '/nonexistent');

cli.run();
