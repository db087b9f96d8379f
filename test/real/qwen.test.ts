// real CLIs: qwen
// The qwen driver with the real Qwen Code 0.15.10 (from .cache/clis) against the fake LLM,
// in an isolated home: detect; headless turns (reply, usage, session id, the token in the
// model's request), native resume, a bogus resume id, tools with and without --yes, an
// account's own QWEN_HOME, the auto-update-off system settings layer winning over the
// user's settings; ingest following a live session (events while the model has not
// answered; abort; dispose); readSession; the launched TUI for real in a PTY (a >100 KiB
// first message as a file reference, ingest, screen status, resume); timeout, model error,
// login and missing CLI. Each qwen runs in its own process group; the home's leftovers are
// ended by pid in cleanup. The shapes every driver shares are in
// test/helpers/real-driver-tests.ts and real-driver-live.ts; this file holds qwen's data and
// the checks only qwen has.
// The tests are steps in one home, in order: the resume tests (headless and TUI) resume the
// first turn's session, and readSession reads the one the live-ingest test followed.
import * as assert from 'uvu/assert';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import driver from '../../plugins/qwen/index.js';
import { chatsDir, qwenAccountDir } from '../../plugins/qwen/home.js';
import { realDriverSuite, token } from '../helpers/real-driver.js';
import * as shape from '../helpers/real-driver-tests.js';
import * as live from '../helpers/real-driver-live.js';

const cli = realDriverSuite('qwen', driver, {
  turnMs: 180_000,
  version: '0.15.10',
  installHint: 'npm install -g @qwen-code/qwen-code@0.15.10',
  loginHint: 'OPENAI_API_KEY',
});
const s = cli.suite;

shape.detectTest(cli);

shape.headlessTurnTest(cli);

shape.resumeTest(cli, {
  title: 'resume without --yes: same session, both tokens reach the model; no tool that needs approval is offered',
  prompt: (tok) => `again ${tok} [[FAKE_SHELL: echo ${tok} > denied.txt]]`,
  check: ({ events, tok, before }) => {
    const both = cli.carrying(before, cli.first!.token, tok);
    assert.not.ok(JSON.stringify(both[0]!.body).includes('"run_shell_command"'), 'the shell tool was not offered');
    assert.not.ok(events.some((e) => e.type === 'tool_call'));
    assert.not.ok(existsSync(join(cli.env.cwd, 'denied.txt')), 'the command did not run');
  },
});

shape.bogusResumeTest(cli, { bogus: '00000000-0000-4000-8000-00000000dead', untouched: 'the prompt' });

shape.toolsTest(cli, { names: ['run_shell_command', 'write_file'] });

s("auto-update off: baton's system settings layer is read and wins over the user's own settings", async () => {
  const { env } = cli;
  // The user's settings allow every tool; their own system settings file says "default".
  const userSettings = join(env.home, '.qwen/settings.json');
  const original = readFileSync(userSettings, 'utf8');
  const sys = join(env.dir, 'etc-qwen-settings.json');
  writeFileSync(sys, JSON.stringify({ tools: { approvalMode: 'default' } }));
  try {
    writeFileSync(userSettings, JSON.stringify({ ...JSON.parse(original), tools: { approvalMode: 'yolo' } }));
    const control = token('user-yolo');
    await cli.turn('user settings yolo', `[[FAKE_SHELL: echo ${control} > user-yolo.txt]]`);
    assert.is(readFileSync(join(env.cwd, 'user-yolo.txt'), 'utf8').trim(), control, "the user's yolo setting applies on its own");

    const tok = token('system-default');
    await cli.turn('system settings win', `[[FAKE_SHELL: echo ${tok} > system-wins.txt]]`, { env: { ...env.env, QWEN_CODE_SYSTEM_SETTINGS_PATH: sys } });
    assert.not.ok(existsSync(join(env.cwd, 'system-wins.txt')), "the system layer (the user's, merged into baton's) overrode yolo");
    const layer = JSON.parse(readFileSync(join(env.env.XDG_CONFIG_HOME!, 'baton/qwen/system-settings.json'), 'utf8'));
    assert.equal(layer, { tools: { approvalMode: 'default' }, general: { enableAutoUpdate: false }, $version: 4 });
  } finally {
    writeFileSync(userSettings, original);
  }
});

live.ingestLiveTest(cli, { log: 'the log', promptMs: 90_000, shell: 'run_shell_command', afterDispose: 'turn' });

shape.readSessionTest(cli, {
  where: "qwen's own chat log",
  model: 'fake-model',
  types: ['user_text', 'tool_call', 'tool_result', 'agent_text', 'turn_end', 'user_text', 'agent_text', 'turn_end'],
  logPath: (session) => join(chatsDir(join(cli.env.home, '.qwen'), cli.env.cwd), `${session}.jsonl`),
  unknown: '00000000-0000-4000-8000-0000000000aa',
});

shape.accountTest(cli, {
  title: 'an account runs with its own QWEN_HOME: its session is logged there, not in ~/.qwen',
  account: 'team',
  logPath: (session) => join(chatsDir(qwenAccountDir(cli.env.env, 'team'), cli.env.cwd), `${session}.jsonl`),
});

live.tuiBriefTest(cli, {
  firstMs: 150_000,
  secondMs: 90_000,
  check: (spec) => assert.ok(spec.env.QWEN_CODE_SYSTEM_SETTINGS_PATH, 'the TUI gets the auto-update-off layer'),
});
live.tuiResumeTest(cli, { resumeMs: 150_000 });
shape.timeoutTest(cli, { timeoutMs: 45_000, message: 'did not finish the turn within', reachesModel: true });
shape.modelErrorTest(cli, 'the reason qwen printed as its reply');
shape.loginFailureTest(cli, {
  title: 'no API key: exit 4 with the login hint',
  label: 'no key',
  prompt: 'hello',
  drop: 'OPENAI_API_KEY',
  message: 'needs a login',
  hint: 'OPENAI_API_KEY',
});
shape.notInstalledTest(cli, '/usr/bin:/bin');

cli.run();
