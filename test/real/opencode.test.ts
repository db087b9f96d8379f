// real CLIs: opencode
// The opencode driver with the real opencode 1.18.33 (from .cache/clis) against the fake
// LLM, in an isolated home: detect; headless turns over ACP (reply, usage, session id, the
// token in the model's request, unquoted), native resume through session/load, a bogus
// resume id, a shell call allowed with --yes and refused without it; ingest following
// opencode's SQLite database during a live turn (events before the model answered; abort;
// dispose); readSession; launch() argv and its TUI run for real in a PTY (ingest, screen
// status); timeout, a 401 from the model, a missing CLI. Each opencode runs in its own
// process group; the home's leftovers are ended by pid in cleanup. The shapes every driver
// shares are in test/helpers/real-driver-tests.ts and real-driver-live.ts; this file holds
// opencode's data and the checks only opencode has.
// The tests are steps in one home, in order: the resume tests (headless and TUI) resume the
// first turn's session, and readSession reads the one the live-ingest test followed.
import * as assert from 'uvu/assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { driver } from '../../plugins/opencode/index.js';
import { realDriverSuite, textOf, token, typesOf, type Of } from '../helpers/real-driver.js';
import * as shape from '../helpers/real-driver-tests.js';
import * as live from '../helpers/real-driver-live.js';
import { until } from '../helpers/wait.js';

// opencode's ACP server takes 5-30 s to start on a busy 2-core machine.
const TURN_MS = 240_000;
const cli = realDriverSuite('opencode', driver, {
  turnMs: TURN_MS,
  version: '1.18.33',
  installHint: 'npm install -g opencode-ai@1.18.33',
  loginHint: 'opencode auth login',
});
const s = cli.suite;

shape.detectTest(cli);

// Over ACP the message arrives as typed: no quotes around it (`opencode run` adds them).
shape.headlessTurnTest(cli, {
  prompt: (tok) => `hello there ${tok}`,
  check: ({ result }) => {
    assert.ok(result.agentSession!.startsWith('ses_'), 'an opencode session id');
    assert.is(result.stopReason, 'end_turn');
  },
});

shape.resumeTest(cli, {
  title: "resume: session/load, the same session, and the request carries the first turn's token",
  check: ({ events, tok }) => {
    assert.match(textOf(events), tok);
    assert.not.match(textOf(events), cli.first!.token, 'the replayed history is not said again');
  },
});

s('a 200k-character brief goes whole over stdin, and a model reaches opencode through OPENCODE_CONFIG_CONTENT', async () => {
  const tok = token('brief');
  const brief = `${'brief line with some words in it\n'.repeat(Math.ceil(200_000 / 33))}LAST ${tok}`;
  // The user's own config gains a second model; baton adds only `model` to it.
  const config = JSON.parse(cli.env.env.OPENCODE_CONFIG_CONTENT!);
  config.provider.fake.models['other-model'] = { name: 'Other Model' };
  const before = cli.lastSeq();
  const { result, events } = await cli.turn('200k brief, other model', brief, {
    model: 'fake/other-model',
    env: { ...cli.env.env, OPENCODE_CONFIG_CONTENT: JSON.stringify(config) },
  });
  assert.ok(result.agentSession);
  assert.not.ok(
    events.some((e) => e.type === 'notice'),
    JSON.stringify(events.filter((e) => e.type === 'notice')),
  );
  const reached = cli.carrying(before, `LAST ${tok}`);
  assert.ok(reached.length > 0, 'the end of the brief reached the model');
  // (opencode's title request goes to its small_model, fake-model.)
  const main = reached.filter((r) => r.model === 'other-model');
  assert.ok(main.length > 0, `the turn ran on other-model: ${reached.map((r) => r.model).join(', ')}`);
  assert.ok(JSON.stringify(main[0]!.body).length > 200_000, 'the whole brief');
});

shape.bogusResumeTest(cli, { bogus: 'ses_0000000000000000000000bogus', untouched: 'any request' });

// bash: the tool, as ingest names it, not the command line opencode retitles the call with.
shape.toolsTest(cli, { names: ['bash'] });

s('a shell call without --yes is refused: a denied approval, an error result, nothing runs', async () => {
  const { events } = await cli.turn('tool (no yes)', '[[FAKE_SHELL: echo nope > refused.txt]]');
  const approval = events.find((e) => e.type === 'approval') as Of<'approval'>;
  assert.ok(approval, JSON.stringify(events));
  assert.is(approval.decision, 'denied');
  assert.match(approval.detail ?? '', '--yes');
  assert.ok(
    events.some((e) => e.type === 'tool_result' && e.isError),
    'the refused call has an error result',
  );
  assert.not.ok(existsSync(join(cli.env.cwd, 'refused.txt')), 'the command did not run');
});

live.ingestLiveTest(cli, {
  log: 'the database',
  promptMs: TURN_MS,
  shell: 'bash',
  afterDispose: 'turn',
  check: (events) => assert.ok(((events[5] as Of<'turn_end'>).usage?.inputTokens ?? 0) > 0, 'usage at the turn end'),
});

s('ingest of a known session starts at its end: the earlier turns give no events', async () => {
  const ingested = cli.ingested;
  assert.ok(ingested, 'the ingested turn ran');
  const { ing, events } = await cli.follow({ agentSession: ingested.session });
  try {
    const tok = token('known');
    await cli.turn('known session', `more ${tok}`, { resume: ingested.session });
    await until(() => events.some((e) => e.type === 'turn_end'), 'the new turn from the database', 30_000);
    assert.equal(typesOf(events), ['session', 'user_text', 'agent_text', 'turn_end']);
    assert.match((events[1] as Of<'user_text'>).text, tok);
  } finally {
    await ing.dispose();
  }
});

shape.readSessionTest(cli, {
  where: "opencode's database",
  model: 'fake/fake-model',
  types: { startsWith: ['user_text', 'tool_call', 'tool_result', 'agent_text', 'turn_end', 'user_text'], turns: 3 },
  logPath: () => join(cli.env.home, '.local/share/opencode/opencode.db'),
  unknown: 'ses_0000000000000000000000dead',
});

live.launchArgvTest(cli, {
  title: 'launch(): argv for a new session, a model, resume and fork, never a message; PWD; an account gets its own XDG dirs',
  // A fresh run opens an empty session baton had opencode import for it; a fork, one opencode forked over ACP.
  plain: { args: (session) => ['--session', session], env: (cwd) => ({ PWD: cwd }), session: /^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/ },
  full: {
    opts: { model: 'fake/fake-model', resume: 'ses_abc', args: ['--agent', 'plan'] },
    args: ['--session', 'ses_abc', '--model', 'fake/fake-model', '--agent', 'plan'],
  },
  fork: { resume: () => cli.ingested!.session, args: (_resume, session) => ['--session', session!] },
  account: {
    env: (dir, cwd) => ({ XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config'), PWD: cwd }),
    made: (dir) => join(dir, 'data'),
  },
});

live.tuiInterruptTest(cli, {
  title: 'the launched TUI for real: its first message pasted once idle, ingest follows it, the screen says working then idle',
  log: 'the database',
  startMs: TURN_MS,
  workingMs: 60_000,
  // Esc twice interrupts a running turn.
  interrupt: async (tui) => {
    tui.press('Escape');
    await tui.waitFor('again to interrupt', 15_000);
    tui.press('Escape');
  },
  input: 'type',
  secondMs: TURN_MS,
});

s('statusFromScreen: a permission dialog is approval', () => {
  const screen = ['  △ Permission required', '    $ echo hi', '', '  Allow once   Allow always   Reject'];
  assert.is(driver.statusFromScreen!(screen), 'approval');
  assert.is(driver.statusFromScreen!(['  ⬝⬝⬝  esc interrupt      tab agents  ctrl+p commands']), 'working');
  assert.is(driver.statusFromScreen!(['                         tab agents  ctrl+p commands']), 'idle');
  assert.is(driver.statusFromScreen!(['loading…']), undefined);
});

shape.timeoutTest(cli, { timeoutMs: 20_000, message: 'did not finish the turn within', reachesModel: false });
shape.loginFailureTest(cli, {
  title: 'the model answers 401: exit 4 with the login hint',
  label: '401',
  prompt: 'fail [[FAKE_ERROR: 401]]',
  message: 'needs a login',
  hint: 'opencode auth login',
});
shape.notInstalledTest(cli, '/usr/bin:/bin');

cli.run();
