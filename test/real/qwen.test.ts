// The qwen driver with the real Qwen Code 0.15.10 (from .cache/clis) against the fake LLM,
// in an isolated home: detect; headless turns (reply, usage, session id, the token in the
// model's request), native resume, a bogus resume id, tools with and without --yes, an
// account's own QWEN_HOME, the auto-update-off system settings layer winning over the
// user's settings; ingest following a live session (events while the model has not
// answered; abort; dispose); readSession; the launched TUI for real in a PTY (a >100 KiB
// first message as a file reference, ingest, screen status, resume); timeout, model error,
// login and missing CLI. Each qwen runs in its own process group; the home's leftovers are
// ended by pid in cleanup.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BatonError } from '../../src/errors.js';
import { ARGV_PROMPT_LIMIT, ResumeFailedError, type HeadlessResult, type HeadlessTurn, type TranscriptEvent } from '../../src/plugins/api.js';
import { findExecutable } from '../../src/plugins/find-executable.js';
import driver from '../../plugins/qwen.js';
import { chatsDir, qwenAccountDir } from '../../plugins/qwen-home.js';
import { bodyContains, startFakeLlm, type FakeLlm } from '../fake-llm/server.js';
import { cliEnv, processesUnder, type CliEnv } from '../helpers/cli-env.js';
import { TestTerminal, until } from '../helpers/term.js';

const token = (label: string) => `TOK-${label}-${randomBytes(4).toString('hex')}`;
const timings: string[] = [];

let fake: FakeLlm;
let env: CliEnv;

const lastSeq = () => fake.requests().at(-1)?.seq ?? 0;
const carrying = (after: number, ...texts: string[]) =>
  fake.requests().filter((r) => r.seq > after && r.kind === 'generate' && texts.every((t) => bodyContains(r, t)));
const textOf = (events: TranscriptEvent[]) => events.map((e) => (e.type === 'agent_text' ? e.text : '')).join('');
const watchers = () => process.getActiveResourcesInfo().filter((r) => r === 'FSEventWrap').length;
const left = () => processesUnder(env.dir);

async function turn(label: string, prompt: string, extra: Partial<HeadlessTurn> = {}): Promise<{ result: HeadlessResult; events: TranscriptEvent[] }> {
  const events: TranscriptEvent[] = [];
  const started = Date.now();
  try {
    const result = await driver.headless!({ cwd: env.cwd, env: env.env, prompt, yes: false, timeoutMs: 180_000, onEvent: (e) => events.push(e), ...extra });
    return { result, events };
  } finally {
    timings.push(`qwen ${label}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}

async function rejects(p: Promise<unknown>): Promise<BatonError> {
  try {
    await p;
  } catch (err) {
    assert.instance(err, BatonError, String(err));
    return err as BatonError;
  }
  throw new Error('expected a BatonError');
}

const s = suite('qwen driver (real CLI)');
let first: { token: string; session: string } | undefined;
let ingested: { session: string; token: string } | undefined;

s.before(async () => {
  fake = await startFakeLlm();
  env = cliEnv('qwen', { fakeUrl: fake.url });
});
s.after(async () => {
  await env.cleanup();
  await fake.close();
});

s('detect: installed at the pinned version, inside the tested range', async () => {
  const d = await driver.detect({ env: env.env });
  assert.ok(d.installed);
  assert.is(d.version, '0.15.10');
  assert.is(d.path, findExecutable('qwen', env.env));
  assert.is(d.untestedVersion, undefined);
  assert.is(d.installHint, 'npm install -g @qwen-code/qwen-code@0.15.10');
  assert.match(d.loginHint ?? '', 'OPENAI_API_KEY');
});

s('a headless turn: the reply echoes the token, the turn ends with usage, the session id is reported', async () => {
  const tok = token('turn');
  const before = lastSeq();
  const { result, events } = await turn('turn', `hello ${tok}`);
  assert.ok(result.agentSession);
  assert.is(result.resumed, false);
  assert.equal(events.filter((e) => e.type === 'session'), [{ type: 'session', agentSession: result.agentSession! }]);
  assert.match(textOf(events), `You said: hello ${tok}`);
  const end = events[events.length - 1] as Extract<TranscriptEvent, { type: 'turn_end' }>;
  assert.is(end.type, 'turn_end');
  assert.ok((end.usage?.inputTokens ?? 0) > 0 && (end.usage?.outputTokens ?? 0) > 0, JSON.stringify(end));
  assert.ok(carrying(before, tok).length > 0, 'the token reached the model');
  assert.equal(left(), [], 'nothing of qwen left running');
  first = { token: tok, session: result.agentSession! };
});

s('resume without --yes: same session, both tokens reach the model; no tool that needs approval is offered', async () => {
  assert.ok(first, 'the first turn ran');
  const tok = token('resume');
  const before = lastSeq();
  const { result, events } = await turn('resume', `again ${tok} [[FAKE_SHELL: echo ${tok} > denied.txt]]`, { resume: first.session });
  assert.is(result.resumed, true);
  assert.is(result.agentSession, first.session);
  const both = carrying(before, first.token, tok);
  assert.ok(both.length > 0, 'the resumed request carried both tokens');
  assert.not.ok(JSON.stringify(both[0]!.body).includes('"run_shell_command"'), 'the shell tool was not offered');
  assert.not.ok(events.some((e) => e.type === 'tool_call'));
  assert.not.ok(existsSync(join(env.cwd, 'denied.txt')), 'the command did not run');
});

s('a bogus resume id: ResumeFailedError (exit 4) before anything reached the model', async () => {
  const before = lastSeq();
  const bogus = '00000000-0000-4000-8000-00000000dead';
  const err = await rejects(turn('bogus resume', 'never sent', { resume: bogus }));
  assert.instance(err, ResumeFailedError);
  assert.is(err.exitCode, 4);
  assert.match(err.message, bogus);
  assert.is(carrying(before, 'never sent').length, 0);
  assert.equal(left(), []);
});

s('tools with --yes: shell and write calls pair with their results by id and name; the files are on disk', async () => {
  const tok = token('tools');
  const { events } = await turn('tools', `[[FAKE_SHELL: echo ${tok} > from-shell.txt]] [[FAKE_WRITE: from-write.txt :: ${tok}]]`, { yes: true });
  const calls = events.filter((e) => e.type === 'tool_call') as Extract<TranscriptEvent, { type: 'tool_call' }>[];
  const results = events.filter((e) => e.type === 'tool_result') as Extract<TranscriptEvent, { type: 'tool_result' }>[];
  assert.equal(calls.map((c) => c.toolName), ['run_shell_command', 'write_file']);
  assert.equal(results.map((r) => [r.toolCallId, r.toolName, r.isError]), calls.map((c) => [c.toolCallId, c.toolName, false]));
  assert.is(readFileSync(join(env.cwd, 'from-shell.txt'), 'utf8').trim(), tok);
  assert.is(readFileSync(join(env.cwd, 'from-write.txt'), 'utf8').trim(), tok);
  assert.match(textOf(events), 'done after 2 tool call(s)');
});

s('auto-update off: baton\'s system settings layer is read and wins over the user\'s own settings', async () => {
  // The user's settings allow every tool; their own system settings file says "default".
  const userSettings = join(env.home, '.qwen/settings.json');
  const original = readFileSync(userSettings, 'utf8');
  const sys = join(env.dir, 'etc-qwen-settings.json');
  writeFileSync(sys, JSON.stringify({ tools: { approvalMode: 'default' } }));
  try {
    writeFileSync(userSettings, JSON.stringify({ ...JSON.parse(original), tools: { approvalMode: 'yolo' } }));
    const control = token('user-yolo');
    await turn('user settings yolo', `[[FAKE_SHELL: echo ${control} > user-yolo.txt]]`);
    assert.is(readFileSync(join(env.cwd, 'user-yolo.txt'), 'utf8').trim(), control, 'the user\'s yolo setting applies on its own');

    const tok = token('system-default');
    await turn('system settings win', `[[FAKE_SHELL: echo ${tok} > system-wins.txt]]`, { env: { ...env.env, QWEN_CODE_SYSTEM_SETTINGS_PATH: sys } });
    assert.not.ok(existsSync(join(env.cwd, 'system-wins.txt')), 'the system layer (the user\'s, merged into baton\'s) overrode yolo');
    const layer = JSON.parse(readFileSync(join(env.env.XDG_CONFIG_HOME!, 'baton/qwen/system-settings.json'), 'utf8'));
    assert.equal(layer, { tools: { approvalMode: 'default' }, general: { enableAutoUpdate: false }, $version: 4 });
  } finally {
    writeFileSync(userSettings, original);
  }
});

s('ingest follows a live session: events while the model has not answered, abort ends the group, dispose leaves no watcher', async () => {
  const handles = watchers();
  const seen: TranscriptEvent[] = [];
  const ing = await driver.ingest!({ cwd: env.cwd, env: env.env, since: new Date(), onEvent: (e) => seen.push(e) });
  const tok = token('ingest');
  const abort = new AbortController();
  const hanging = turn('hang then abort', `wait ${tok} [[FAKE_HANG]]`, { signal: abort.signal });
  await until(() => seen.some((e) => e.type === 'user_text' && e.text.includes(tok)), 'the prompt from the log', 90_000);
  assert.is(seen[0]!.type, 'session', 'the session id comes first');
  assert.not.ok(seen.some((e) => e.type === 'turn_end' || e.type === 'agent_text'), 'the model has not answered');
  await fake.waitForRequest((r) => r.kind === 'generate' && bodyContains(r, tok), 30_000, 'the hanging request');
  abort.abort();
  const { result, events } = await hanging;
  assert.is(result.stopReason, 'cancelled');
  assert.ok(events.some((e) => e.type === 'notice' && e.text === 'turn cancelled'));
  assert.equal(left(), [], 'the aborted group is gone');
  await ing.dispose();

  // A fresh ingest and a full turn with a tool call: every event kind, in order.
  const got: TranscriptEvent[] = [];
  const ing2 = await driver.ingest!({ cwd: env.cwd, env: env.env, since: new Date(), onEvent: (e) => got.push(e) });
  const tok2 = token('ingest2');
  const { result: r2 } = await turn('ingested turn', `[[FAKE_SHELL: echo ${tok2}]] ${tok2}`, { yes: true });
  await until(() => got.some((e) => e.type === 'turn_end'), 'the turn end from the log', 30_000);
  assert.is(ing2.agentSession, r2.agentSession);
  assert.equal(got.map((e) => e.type), ['session', 'user_text', 'tool_call', 'tool_result', 'agent_text', 'turn_end']);
  const call = got[2] as Extract<TranscriptEvent, { type: 'tool_call' }>;
  const res = got[3] as Extract<TranscriptEvent, { type: 'tool_result' }>;
  assert.is(res.toolCallId, call.toolCallId);
  assert.is(res.toolName, 'run_shell_command');
  assert.match(res.output, tok2);
  assert.is(ing2.skipped, 0);
  assert.ok(watchers() > handles, 'a watcher while following');
  await ing2.dispose();
  // fs.watch handles close a moment after chokidar's close() resolves.
  await until(() => watchers() === handles, 'no watcher left after dispose', 5_000);

  // Disposed: a later turn in that session is not read.
  const count = got.length;
  await turn('after dispose', `more ${token('late')}`, { resume: r2.agentSession });
  assert.is(got.length, count);
  ingested = { session: r2.agentSession!, token: tok2 };
});

s('readSession: the whole session from qwen\'s own chat log; sessionLogPath; an unknown id is exit 2', async () => {
  assert.ok(ingested, 'the ingested turn ran');
  const imported = await driver.readSession!({ session: ingested.session, cwd: env.cwd, env: env.env });
  assert.is(imported.agentSession, ingested.session);
  assert.is(imported.model, 'fake-model');
  assert.is(imported.cwd, env.cwd);
  assert.is(imported.skipped, 0);
  assert.equal(imported.events.map((e) => e.type), ['user_text', 'tool_call', 'tool_result', 'agent_text', 'turn_end', 'user_text', 'agent_text', 'turn_end']);
  assert.match((imported.events[0] as { text: string }).text, ingested.token);
  const path = join(chatsDir(join(env.home, '.qwen'), env.cwd), `${ingested.session}.jsonl`);
  assert.is(imported.logPath, path);
  assert.is(await driver.sessionLogPath!({ session: ingested.session, cwd: env.cwd, env: env.env }), path);
  const err = await rejects(driver.readSession!({ session: '00000000-0000-4000-8000-0000000000aa', cwd: env.cwd, env: env.env }));
  assert.is(err.exitCode, 2);
  assert.match(err.message, '00000000-0000-4000-8000-0000000000aa');
});

s('an account runs with its own QWEN_HOME: its session is logged there, not in ~/.qwen', async () => {
  const { result } = await turn('account', `account ${token('account')}`, { account: 'team' });
  const path = await driver.sessionLogPath!({ session: result.agentSession!, cwd: env.cwd, env: env.env, account: 'team' });
  assert.is(path, join(chatsDir(qwenAccountDir(env.env, 'team'), env.cwd), `${result.agentSession}.jsonl`));
  assert.is(await driver.sessionLogPath!({ session: result.agentSession!, cwd: env.cwd, env: env.env }), undefined);
});

s('the launched TUI for real: a >100 KiB first message goes as a file reference; ingest follows; the screen says idle', async () => {
  const tok = token('tui');
  const brief = `${tok}\n${'a long brief line with words\n'.repeat(Math.ceil((ARGV_PROMPT_LIMIT + 5000) / 29))}END`;
  const spec = await driver.launch({ cwd: env.cwd, env: env.env, initialPrompt: brief, switchId: 'sw-tui' });
  const file = join(env.cwd, '.baton/handoff-sw-tui.md');
  assert.equal(spec.files, [file]);
  assert.is(readFileSync(file, 'utf8'), brief);
  assert.ok(spec.args.every((a) => Buffer.byteLength(a) <= ARGV_PROMPT_LIMIT));
  assert.ok(spec.env.QWEN_CODE_SYSTEM_SETTINGS_PATH, 'the TUI gets the auto-update-off layer');
  const before = lastSeq();
  const events: TranscriptEvent[] = [];
  const ing = await driver.ingest!({ cwd: env.cwd, env: env.env, since: new Date(), onEvent: (e) => events.push(e) });
  const tui = new TestTerminal([findExecutable(spec.command, env.env)!, ...spec.args], { env: { ...env.env, ...spec.env }, cwd: spec.cwd, cols: 120, rows: 40 });
  const started = Date.now();
  try {
    await until(() => events.some((e) => e.type === 'turn_end'), 'the first turn from the log', 150_000);
    assert.ok(carrying(before, file).length > 0, 'the model was told where the brief is');
    const user = events.find((e) => e.type === 'user_text') as { text: string };
    assert.match(user.text, file);
    await tui.waitFor((_, t) => driver.statusFromScreen!(t.rows()) === 'idle', 30_000, 'qwen idle on screen');
    const tok2 = token('tui2');
    tui.paste(`next ${tok2}`);
    await tui.waitFor(`next ${tok2}`, 10_000);
    tui.press('Enter');
    await until(() => events.filter((e) => e.type === 'turn_end').length === 2, 'the second turn from the log', 90_000);
    timings.push(`qwen TUI start + 2 turns: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    assert.equal(events.map((e) => e.type), ['session', 'user_text', 'agent_text', 'turn_end', 'user_text', 'agent_text', 'turn_end']);
    assert.match((events[5] as { text: string }).text, `You said: next ${tok2}`);
  } finally {
    await tui.kill();
    await ing.dispose();
  }
  await until(() => left().length === 0, 'nothing of the TUI left', 10_000);
});

s('the TUI resuming the first session: ingest by its id has only the new turn; the model got the old token', async () => {
  assert.ok(first, 'the first turn ran');
  const tok = token('tui-resume');
  const before = lastSeq();
  const events: TranscriptEvent[] = [];
  const ing = await driver.ingest!({ cwd: env.cwd, env: env.env, since: new Date(), agentSession: first.session, onEvent: (e) => events.push(e) });
  const spec = await driver.launch({ cwd: env.cwd, env: env.env, resume: first.session, initialPrompt: `resumed ${tok}` });
  const tui = new TestTerminal([findExecutable(spec.command, env.env)!, ...spec.args], { env: { ...env.env, ...spec.env }, cwd: spec.cwd, cols: 120, rows: 40 });
  const started = Date.now();
  try {
    await until(() => events.some((e) => e.type === 'turn_end'), 'the resumed turn ends', 150_000);
    timings.push(`qwen TUI resume + 1 turn: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await tui.kill();
    await ing.dispose();
  }
  assert.equal(events.map((e) => e.type), ['session', 'user_text', 'agent_text', 'turn_end']);
  assert.equal(events[0], { type: 'session', agentSession: first.session });
  assert.is((events[1] as { text: string }).text, `resumed ${tok}`);
  assert.not.ok(JSON.stringify(events).includes(first.token), 'nothing of the earlier turns');
  assert.ok(carrying(before, first.token, tok).length > 0, 'the resumed TUI sent the first turn to the model');
});

s('timeout: exit 4 naming the limit, and the whole process group is gone', async () => {
  const tok = token('hang');
  const err = await rejects(turn('timeout', `hang ${tok} [[FAKE_HANG]]`, { timeoutMs: 45_000 }));
  assert.is(err.exitCode, 4);
  assert.match(err.message, 'did not finish the turn within 45 s');
  assert.ok(fake.requestsContaining(tok).length > 0, 'it hung in the model call, not at startup');
  assert.equal(left(), []);
});

s('the model fails the turn (HTTP 400): exit 4 with the reason qwen printed as its reply', async () => {
  const err = await rejects(turn('model error', 'fail [[FAKE_ERROR: 400]]'));
  assert.is(err.exitCode, 4);
  assert.match(err.message, 'scripted error 400');
});

s('no API key: exit 4 with the login hint', async () => {
  const noKey = { ...env.env };
  delete noKey.OPENAI_API_KEY;
  const err = await rejects(turn('no key', 'hello', { env: noKey }));
  assert.is(err.exitCode, 4);
  assert.match(err.message, 'needs a login');
  assert.match(err.hint ?? '', 'OPENAI_API_KEY');
});

s('not installed (PATH without qwen): detect says so; a turn is exit 3 with the install command', async () => {
  const bare = { ...env.env, PATH: '/usr/bin:/bin' };
  const d = await driver.detect({ env: bare });
  assert.is(d.installed, false);
  const err = await rejects(turn('not installed', 'hello', { env: bare }));
  assert.is(err.exitCode, 3);
  assert.is(err.hint, 'npm install -g @qwen-code/qwen-code@0.15.10');
});

s.run();

// Shown with BATON_TEST_VERBOSE=1 or on failure; speed checks belong in bench/.
process.on('exit', () => console.log(`\nqwen driver timings (wall clock, fake LLM answers at once):\n  ${timings.join('\n  ')}`));
