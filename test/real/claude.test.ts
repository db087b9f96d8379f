// real CLIs: claude
// The claude driver with the real Claude Code 2.1.197 (from .cache/clis) against the fake
// LLM, in an isolated home: detect; headless turns (reply, usage, cost, session id, the token
// in the model's request), native resume, a bogus resume id, tools with and without --yes
// (and --yes as root without IS_SANDBOX), an account's own CLAUDE_CONFIG_DIR, a project path
// past the 200-character slug limit; ingest following a live session (events while the
// model has not answered; abort; dispose); readSession; the launched TUI for real in a PTY
// (a >100 KiB first message as a file reference, ingest, screen status, resume); timeout,
// model error, login and missing CLI. Each claude runs in its own process group; the home's
// leftovers are ended by pid in cleanup. The shapes every driver shares are in
// test/helpers/real-driver-tests.ts and real-driver-live.ts; this file holds claude's data
// and the checks only claude has.
// The tests are steps in one home, in order: the resume tests (headless and TUI) resume the
// first turn's session, and readSession reads the one the live-ingest test followed.
import * as assert from 'uvu/assert';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import driver from '../../plugins/claude/index.js';
import { claudeConfigDir, projectDir, projectSlug } from '../../plugins/claude/home.js';
import { realDriverSuite, token, type Of } from '../helpers/real-driver.js';
import * as shape from '../helpers/real-driver-tests.js';
import * as live from '../helpers/real-driver-live.js';

const cli = realDriverSuite('claude', driver, {
  turnMs: 180_000,
  version: '2.1.197',
  installHint: 'npm install -g @anthropic-ai/claude-code@2.1.197',
  loginHint: '/login',
});
const s = cli.suite;

shape.detectTest(cli);

shape.headlessTurnTest(cli, {
  title: 'a headless turn: the reply echoes the token, the turn ends with usage and cost, the session id is reported',
  check: ({ result, events }) => {
    assert.is(result.stopReason, 'end_turn');
    assert.ok(((events.at(-1) as Of<'turn_end'>).costUsd ?? 0) > 0, 'claude reports the cost');
  },
});

shape.resumeTest(cli, {
  title: 'resume without --yes: same session, both tokens reach the model, the shell call is denied',
  prompt: (tok) => `again ${tok} [[FAKE_SHELL: echo ${tok} > denied.txt]]`,
  check: ({ events }) => {
    const call = events.find((e) => e.type === 'tool_call') as Of<'tool_call'>;
    const denied = events.find((e) => e.type === 'approval') as Of<'approval'>;
    assert.ok(call && denied, JSON.stringify(events));
    assert.is(denied.decision, 'denied');
    assert.is(denied.toolCallId, call.toolCallId);
    assert.match(denied.detail ?? '', '--yes');
    assert.not.ok(existsSync(join(cli.env.cwd, 'denied.txt')), 'the command did not run');
  },
});

shape.bogusResumeTest(cli, { bogus: '00000000-0000-4000-8000-00000000dead', untouched: 'the prompt' });

shape.toolsTest(cli, { names: ['Bash', 'Write'] });

s('--yes without IS_SANDBOX: as root the tools are allowed by name (claude refuses bypassPermissions), else bypassPermissions', async () => {
  const noSandbox = { ...cli.env.env };
  delete noSandbox.IS_SANDBOX;
  const tok = token('nosandbox');
  const { events } = await cli.turn('tools without IS_SANDBOX', `[[FAKE_SHELL: echo ${tok} > no-sandbox.txt]]`, { yes: true, env: noSandbox });
  const root = process.getuid?.() === 0;
  const notice = events.find((e) => e.type === 'notice') as Of<'notice'> | undefined;
  if (root) assert.match(notice?.text ?? '', 'refuses bypassPermissions as root');
  else assert.is(notice, undefined);
  assert.is(readFileSync(join(cli.env.cwd, 'no-sandbox.txt'), 'utf8').trim(), tok);
});

live.ingestLiveTest(cli, { log: 'the log', promptMs: 90_000, shell: 'Bash', afterDispose: 'turn' });

shape.readSessionTest(cli, {
  where: "claude's own log",
  model: 'claude-opus-4-8',
  types: ['user_text', 'tool_call', 'tool_result', 'agent_text', 'turn_end', 'user_text', 'agent_text', 'turn_end'],
  logPath: (session) => join(projectDir(claudeConfigDir(cli.env.env), cli.env.cwd), `${session}.jsonl`),
  unknown: '00000000-0000-4000-8000-0000000000aa',
});

shape.accountTest(cli, {
  title: 'an account runs with its own CLAUDE_CONFIG_DIR: its session is logged there, not in ~/.claude',
  account: 'work',
  logPath: (session) => join(cli.env.env.XDG_STATE_HOME!, 'baton/accounts/claude/work', 'projects', projectSlug(cli.env.cwd), `${session}.jsonl`),
});

s('a project path past 200 characters: the log is where the slug rule (cut + hash) says', async () => {
  const deep = join(cli.env.dir, 'deep', ...Array.from({ length: 6 }, (_, i) => `a-rather-long-directory-name-number-${i}`));
  mkdirSync(deep, { recursive: true });
  assert.ok(deep.length > 200);
  const { result } = await cli.turn('long path', `deep ${token('deep')}`, { cwd: deep, env: { ...cli.env.env, PWD: deep } });
  const expected = join(projectDir(claudeConfigDir(cli.env.env), deep), `${result.agentSession}.jsonl`);
  assert.ok(existsSync(expected), `claude wrote ${expected}`);
});

live.tuiBriefTest(cli, { firstMs: 120_000, secondMs: 60_000 });
live.tuiResumeTest(cli, { resumeMs: 120_000 });
shape.timeoutTest(cli, { timeoutMs: 30_000, message: 'did not finish the turn within', reachesModel: true });
shape.modelErrorTest(cli, "claude's reason");
shape.loginFailureTest(cli, {
  title: 'no credentials: exit 4 with the login hint',
  label: 'no login',
  prompt: 'hello',
  drop: 'ANTHROPIC_AUTH_TOKEN',
  message: 'needs a login',
  hint: '/login',
});
shape.notInstalledTest(cli, '/usr/bin:/bin');

cli.run();
