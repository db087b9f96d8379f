// real CLIs: codex
// The codex driver with the real codex 0.171 (from .cache/clis) against the fake LLM, in an
// isolated home: detect; headless turns (reply, usage, session id, the token in the model's
// request), native resume, a bogus resume id, a shell tool call with --yes; ingest following
// a live session (events while codex still waits for the model; abort; dispose); readSession;
// launch() argv and its TUI run for real in a PTY (ingest, screen status, no daemon left);
// timeout, model errors, a missing key and a missing CLI. Each codex runs in its own process
// group; the home's leftovers are ended by pid in cleanup. The shapes every driver shares are
// in test/helpers/real-driver-tests.ts and real-driver-live.ts; this file holds codex's data
// and the checks only codex has.
// The tests are steps in one home, in order: the resume tests (headless and TUI) resume the
// first turn's session, and readSession reads the one the live-ingest test followed.
import * as assert from 'uvu/assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { driver } from '../../plugins/codex/index.js';
import { realDriverSuite, textOf } from '../helpers/real-driver.js';
import * as shape from '../helpers/real-driver-tests.js';
import * as live from '../helpers/real-driver-live.js';

const cli = realDriverSuite('codex', driver, {
  turnMs: 120_000,
  version: '0.171.0',
  installHint: 'npm install -g @openai/codex@0.171.0',
  loginHint: 'codex login',
});

shape.detectTest(cli);

shape.headlessTurnTest(cli);

shape.resumeTest(cli, {
  title: "resume: the second turn runs in the same session and its request carries the first turn's token",
  check: ({ events, tok }) => assert.match(textOf(events), tok),
});

shape.bogusResumeTest(cli, { bogus: '01a22a3e-0000-7000-8000-000000000000', untouched: 'any request', message: 'no rollout found' });

shape.toolsTest(cli, { names: ['shell'] });

live.ingestLiveTest(cli, {
  log: 'the log',
  promptMs: 60_000,
  shell: 'exec_command',
  afterDispose: (at) => ({ timestamp: at, type: 'event_msg', payload: { type: 'error', message: 'after dispose' } }),
});

shape.readSessionTest(cli, {
  where: "codex's own log",
  model: 'fake-model',
  // The record appended after dispose is part of the log now: an error event at the end.
  types: ['user_text', 'tool_call', 'tool_result', 'agent_text', 'turn_end', 'error'],
  unknown: '01a22a3e-0000-7000-8000-00000000dead',
});

live.launchArgvTest(cli, {
  title: 'launch(): argv for a new session, a model, resume and fork, never a message; an account gets its own CODEX_HOME',
  plain: { args: ['--no-daemon', '--no-alt-screen'], env: () => ({}) },
  full: {
    opts: { model: 'gpt-x', resume: 'abc-123', args: ['-c', 'a=1'] },
    args: ['resume', 'abc-123', '--no-daemon', '--no-alt-screen', '-m', 'gpt-x', '-c', 'a=1'],
  },
  // codex names a new thread itself: a tab's is found by the lock its process holds (bind.ts).
  fork: { resume: 'abc-123', args: () => ['fork', 'abc-123', '--no-daemon', '--no-alt-screen'] },
  account: { env: (dir) => ({ CODEX_HOME: dir }), made: (dir) => dir },
});

live.tuiInterruptTest(cli, {
  title: 'the launched TUI for real: ingest follows it, the screen says working then idle, no daemon is left',
  log: 'the log',
  startMs: 90_000,
  workingMs: 30_000,
  interrupt: async (tui) => tui.press('Escape'),
  input: 'paste',
  secondMs: 60_000,
  after: async (since) => {
    assert.equal(await driver.endDaemons({ env: cli.env.env, since }), [], 'no daemon to end: --no-daemon');
    assert.not.ok(existsSync(join(cli.env.home, '.codex/packages/app-server-daemon')), 'the daemon was never installed');
  },
});

live.tuiResumeTest(cli, { resumeMs: 120_000 });
shape.timeoutTest(cli, { timeoutMs: 8_000, message: 'did not finish within', reachesModel: false });
shape.modelErrorTest(cli, "codex's reason");
shape.loginFailureTest(cli, {
  title: 'no API key for the provider: exit 4 with the login hint',
  label: 'no key',
  prompt: 'hello',
  drop: 'FAKE_API_KEY',
  message: 'login',
  hint: 'codex login',
});
shape.notInstalledTest(cli, '/usr/bin:/bin');

cli.run();
