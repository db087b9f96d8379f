// The codex driver with the real codex 0.171 (from .cache/clis) against the fake LLM, in an
// isolated home: detect; headless turns (reply, usage, session id, the token in the model's
// request), native resume, a bogus resume id, a shell tool call with --yes; ingest following
// a live session (events while codex still waits for the model; abort; dispose); readSession;
// launch() argv and its TUI run for real in a PTY (ingest, screen status, no daemon left);
// timeout, model errors, a missing key and a missing CLI. Each codex runs in its own process
// group; the home's leftovers are ended by pid in cleanup.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { BatonError } from '../../src/errors.js';
import { ARGV_PROMPT_LIMIT, ResumeFailedError, type HeadlessResult, type HeadlessTurn, type TranscriptEvent } from '../../src/plugins/api.js';
import { findExecutable } from '../../src/plugins/find-executable.js';
import { driver } from '../../plugins/codex.js';
import { bodyContains, startFakeLlm, type FakeLlm } from '../fake-llm/server.js';
import { cliEnv, processesUnder, type CliEnv } from '../helpers/cli-env.js';
import { TestTerminal, until } from '../helpers/term.js';

const token = (label: string) => `TOK-${label}-${randomBytes(4).toString('hex')}`;
const timings: string[] = [];

let fake: FakeLlm;
let env: CliEnv;

function lastSeq(): number {
  const all = fake.requests();
  return all.length ? all[all.length - 1]!.seq : 0;
}

function carrying(after: number, ...texts: string[]) {
  return fake.requests().filter((r) => r.seq > after && r.kind === 'generate' && texts.every((t) => bodyContains(r, t)));
}

async function turn(label: string, prompt: string, extra: Partial<HeadlessTurn> = {}): Promise<{ result: HeadlessResult; events: TranscriptEvent[] }> {
  const events: TranscriptEvent[] = [];
  const started = Date.now();
  try {
    const result = await driver.headless!({ cwd: env.cwd, env: env.env, prompt, yes: false, timeoutMs: 120_000, onEvent: (e) => events.push(e), ...extra });
    return { result, events };
  } finally {
    timings.push(`codex ${label}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
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

const codexLeft = () => processesUnder(env.dir);

const s = suite('codex driver (real CLI)');
let first: { token: string; session: string } | undefined;
let ingested: { session: string; token: string } | undefined;

s.before(async () => {
  fake = await startFakeLlm();
  env = cliEnv('codex', { fakeUrl: fake.url });
});
s.after(async () => {
  await env.cleanup();
  await fake.close();
});

s('detect: installed at the pinned version, inside the tested range', async () => {
  const d = await driver.detect({ env: env.env });
  assert.ok(d.installed);
  assert.is(d.version, '0.171.0');
  assert.is(d.path, findExecutable('codex', env.env));
  assert.is(d.untestedVersion, undefined);
  assert.match(d.installHint, 'npm install -g @openai/codex@0.171.0');
  assert.ok(d.loginHint);
});

s('a headless turn: the reply echoes the token, the turn ends with usage, the session id is reported', async () => {
  const tok = token('turn');
  const before = lastSeq();
  const { result, events } = await turn('turn', `hello ${tok}`);
  assert.ok(result.agentSession, 'a session id');
  assert.is(result.resumed, false);
  assert.equal(events.filter((e) => e.type === 'session'), [{ type: 'session', agentSession: result.agentSession! }]);
  const reply = events.filter((e) => e.type === 'agent_text').map((e) => (e as { text: string }).text).join('');
  assert.match(reply, `You said: hello ${tok}`);
  const end = events[events.length - 1] as Extract<TranscriptEvent, { type: 'turn_end' }>;
  assert.is(end.type, 'turn_end');
  assert.ok((end.usage?.inputTokens ?? 0) > 0 && (end.usage?.outputTokens ?? 0) > 0);
  assert.ok(carrying(before, tok).length > 0, 'the token reached the model');
  assert.equal(codexLeft(), [], 'nothing of codex left running');
  first = { token: tok, session: result.agentSession! };
});

s('resume: the second turn runs in the same session and its request carries the first turn\'s token', async () => {
  assert.ok(first, 'the first turn ran');
  const tok = token('resume');
  const before = lastSeq();
  const { result, events } = await turn('resume', `again ${tok}`, { resume: first.session });
  assert.is(result.resumed, true);
  assert.is(result.agentSession, first.session);
  assert.match(events.map((e) => (e.type === 'agent_text' ? e.text : '')).join(''), tok);
  assert.ok(carrying(before, first.token, tok).length > 0, 'the resumed request carried both tokens');
});

s('a bogus resume id: ResumeFailedError (exit 4), nothing reached the model', async () => {
  const before = lastSeq();
  const bogus = '01a22a3e-0000-7000-8000-000000000000';
  const err = await rejects(turn('bogus resume', 'never sent', { resume: bogus }));
  assert.instance(err, ResumeFailedError);
  assert.is(err.exitCode, 4);
  assert.match(err.message, bogus);
  assert.match(err.message, 'no rollout found');
  assert.is(lastSeq(), before);
});

s('a shell tool call with yes: tool_call and tool_result with one id and the tool name; the file is written', async () => {
  const tok = token('shell');
  const { events } = await turn('tool', `[[FAKE_SHELL: echo ${tok} > from-shell.txt]]`, { yes: true });
  const call = events.find((e) => e.type === 'tool_call') as Extract<TranscriptEvent, { type: 'tool_call' }>;
  const result = events.find((e) => e.type === 'tool_result') as Extract<TranscriptEvent, { type: 'tool_result' }>;
  assert.ok(call && result, JSON.stringify(events));
  assert.is(result.toolCallId, call.toolCallId);
  assert.is(call.toolName, 'shell');
  assert.is(result.toolName, 'shell');
  assert.match(JSON.stringify(call.input), tok);
  assert.is(result.isError, false);
  assert.is(readFileSync(join(env.cwd, 'from-shell.txt'), 'utf8').trim(), tok);
  assert.match(events.map((e) => (e.type === 'agent_text' ? e.text : '')).join(''), 'done after 1 tool call(s)');
});

s('ingest follows a live session: events while codex waits for the model, an abort ends the group, dispose leaves no watcher', async () => {
  const handlesBefore = process.getActiveResourcesInfo().filter((r) => r === 'FSEventWrap').length;
  const seen: { at: number; e: TranscriptEvent }[] = [];
  const ing = await driver.ingest!({ cwd: env.cwd, env: env.env, since: new Date(), onEvent: (e) => seen.push({ at: Date.now(), e }) });
  const tok = token('ingest');
  const abort = new AbortController();
  const hanging = turn('hang then abort', `wait ${tok} [[FAKE_HANG]]`, { signal: abort.signal });
  // The prompt is in codex's log while the model still has not answered: events come as written.
  await until(() => seen.some(({ e }) => e.type === 'user_text' && e.text.includes(tok)), 'the prompt from the log', 60_000);
  assert.ok(seen.some(({ e }) => e.type === 'session'), 'the session id came first');
  assert.not.ok(seen.some(({ e }) => e.type === 'turn_end'), 'the turn is still running');
  abort.abort();
  // A cancelled turn ends like every driver's: stopReason cancelled, a notice, no failure.
  const { result: aborted, events: abortedEvents } = await hanging;
  assert.is(aborted.stopReason, 'cancelled');
  assert.ok(abortedEvents.some((e) => e.type === 'notice' && e.text === 'turn cancelled'));
  assert.equal(codexLeft(), [], 'the aborted group is gone');
  await ing.dispose();

  // A fresh ingest, a full turn with a tool call: every event kind, in order.
  const events: TranscriptEvent[] = [];
  const ing2 = await driver.ingest!({ cwd: env.cwd, env: env.env, since: new Date(), onEvent: (e) => events.push(e) });
  const tok2 = token('ingest2');
  const { result } = await turn('ingested turn', `[[FAKE_SHELL: echo ${tok2}]] ${tok2}`, { yes: true });
  await until(() => events.some((e) => e.type === 'turn_end'), 'the turn end from the log', 30_000);
  assert.is(ing2.agentSession, result.agentSession);
  assert.equal(
    events.map((e) => e.type),
    ['session', 'user_text', 'tool_call', 'tool_result', 'agent_text', 'turn_end'],
  );
  const call = events[2] as Extract<TranscriptEvent, { type: 'tool_call' }>;
  const res = events[3] as Extract<TranscriptEvent, { type: 'tool_result' }>;
  assert.is(res.toolCallId, call.toolCallId);
  assert.is(res.toolName, call.toolName);
  assert.match(res.output, tok2);
  assert.is(ing2.skipped, 0);
  assert.ok(process.getActiveResourcesInfo().filter((r) => r === 'FSEventWrap').length > handlesBefore, 'a watcher while following');
  const path = await driver.sessionLogPath!({ session: result.agentSession!, cwd: env.cwd, env: env.env });
  assert.ok(path && existsSync(path));
  await ing2.dispose();
  // Disposed: a later append to the log is not read, and no file watcher is left.
  const count = events.length;
  appendFileSync(path!, `${JSON.stringify({ timestamp: new Date().toISOString(), type: 'event_msg', payload: { type: 'error', message: 'after dispose' } })}\n`);
  await new Promise((r) => setTimeout(r, 300));
  assert.is(events.length, count);
  assert.is(process.getActiveResourcesInfo().filter((r) => r === 'FSEventWrap').length, handlesBefore);
  ingested = { session: result.agentSession!, token: tok2 };
});

s('readSession: the whole session from codex\'s own log, user messages included; an unknown id is exit 2', async () => {
  assert.ok(ingested, 'the ingested turn ran');
  const imported = await driver.readSession!({ session: ingested.session, cwd: env.cwd, env: env.env });
  assert.is(imported.agentSession, ingested.session);
  assert.is(imported.model, 'fake-model');
  assert.is(imported.cwd, env.cwd);
  assert.is(imported.skipped, 0);
  // The line appended after dispose is part of the log now: an error event at the end.
  assert.equal(imported.events.map((e) => e.type), ['user_text', 'tool_call', 'tool_result', 'agent_text', 'turn_end', 'error']);
  assert.match((imported.events[0] as { text: string }).text, ingested.token);
  assert.ok(imported.logPath && existsSync(imported.logPath));
  const err = await rejects(driver.readSession!({ session: '01a22a3e-0000-7000-8000-00000000dead', cwd: env.cwd, env: env.env }));
  assert.is(err.exitCode, 2);
  assert.match(err.message, '01a22a3e-0000-7000-8000-00000000dead');
});

s('launch(): argv for a new session, a model, resume, fork and a first message; an account gets its own CODEX_HOME', async () => {
  const plain = await driver.launch({ cwd: env.cwd, env: env.env });
  assert.equal(plain, { command: 'codex', args: ['--no-daemon'], env: {}, cwd: env.cwd, prompt: 'none' });
  const full = await driver.launch({ cwd: env.cwd, env: env.env, model: 'gpt-x', resume: 'abc-123', initialPrompt: '-starts with a dash', args: ['-c', 'a=1'] });
  assert.equal(full.args, ['resume', 'abc-123', '--no-daemon', '-m', 'gpt-x', '-c', 'a=1', '--', '-starts with a dash']);
  assert.is(full.prompt, 'argv');
  const fork = await driver.launch({ cwd: env.cwd, env: env.env, resume: 'abc-123', fork: true });
  assert.equal(fork.args, ['fork', 'abc-123', '--no-daemon']);
  const acct = await driver.launch({ cwd: env.cwd, env: env.env, account: 'work' });
  const home = join(env.env.XDG_CONFIG_HOME!, 'baton/accounts/codex/work');
  assert.equal(acct.env, { CODEX_HOME: home });
  assert.is(statSync(home).mode & 0o777, 0o700);
});

s('launch(): a first message over 100 KiB goes as .baton/handoff-<switchId>.md (0600 in a 0700 dir)', async () => {
  const tok = token('big');
  const brief = `${tok}\n${'a long brief line with words\n'.repeat(Math.ceil((ARGV_PROMPT_LIMIT + 5000) / 29))}END`;
  const spec = await driver.launch({ cwd: env.cwd, env: env.env, initialPrompt: brief, switchId: 'sw-1' });
  const file = join(env.cwd, '.baton/handoff-sw-1.md');
  assert.equal(spec.files, [file]);
  assert.is(readFileSync(file, 'utf8'), brief);
  assert.is(statSync(file).mode & 0o777, 0o600);
  assert.is(statSync(join(env.cwd, '.baton')).mode & 0o777, 0o700);
  const last = spec.args[spec.args.length - 1]!;
  assert.ok(Buffer.byteLength(last) < 1000, 'a short pointer in argv');
  assert.match(last, '.baton/handoff-sw-1.md');
  assert.is(spec.args[spec.args.length - 2], '--');
  assert.ok(spec.args.every((a) => Buffer.byteLength(a) <= ARGV_PROMPT_LIMIT));
});

s('the launched TUI for real: ingest follows it, the screen says working then idle, no daemon is left', async () => {
  const tok = token('tui');
  const spec = await driver.launch({ cwd: env.cwd, env: env.env, initialPrompt: `hold on ${tok} [[FAKE_HANG]]` });
  const events: TranscriptEvent[] = [];
  const since = new Date();
  const ing = await driver.ingest!({ cwd: env.cwd, env: env.env, since, onEvent: (e) => events.push(e) });
  const bin = findExecutable(spec.command, { ...env.env, ...spec.env })!;
  const tui = new TestTerminal([bin, ...spec.args], { env: { ...env.env, ...spec.env }, cwd: spec.cwd, cols: 120, rows: 40 });
  const started = Date.now();
  try {
    await tui.waitFor((_, t) => driver.statusFromScreen!(t.rows()) === 'working', 90_000, 'codex working on screen');
    await until(() => events.some((e) => e.type === 'user_text' && e.text.includes(tok)), 'the prompt from the log', 30_000);
    tui.press('Escape');
    await until(() => events.some((e) => e.type === 'turn_end'), 'the interrupted turn ends', 30_000);
    await tui.waitFor((_, t) => driver.statusFromScreen!(t.rows()) === 'idle', 30_000, 'codex idle on screen');
    const tok2 = token('tui2');
    tui.paste(`next ${tok2}`);
    tui.press('Enter');
    await until(() => events.filter((e) => e.type === 'turn_end').length === 2, 'the second turn ends', 60_000);
    timings.push(`codex TUI start + 2 turns: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const types = events.map((e) => e.type);
    assert.equal(types, ['session', 'user_text', 'notice', 'turn_end', 'user_text', 'agent_text', 'turn_end']);
    assert.match((events[5] as { text: string }).text, `You said: next ${tok2}`);
  } finally {
    await tui.kill();
    await ing.dispose();
  }
  await until(() => processesUnder(env.dir).length === 0, 'nothing of the TUI left', 10_000);
  assert.equal(await (driver as typeof driver).endDaemons({ env: env.env, since }), [], 'no daemon to end: --no-daemon');
  assert.not.ok(existsSync(join(env.home, '.codex/packages/app-server-daemon')), 'the daemon was never installed');
});

s('the TUI resuming the first session: ingest by its id has only the new turn, and the model got the old token', async () => {
  assert.ok(first, 'the first turn ran');
  const tok = token('tui-resume');
  const since = new Date();
  const before = lastSeq();
  const events: TranscriptEvent[] = [];
  const ing = await driver.ingest!({ cwd: env.cwd, env: env.env, since, agentSession: first.session, onEvent: (e) => events.push(e) });
  const spec = await driver.launch({ cwd: env.cwd, env: env.env, resume: first.session, initialPrompt: `resumed ${tok}` });
  const tui = new TestTerminal([findExecutable(spec.command, env.env)!, ...spec.args], { env: { ...env.env, ...spec.env }, cwd: spec.cwd, cols: 120, rows: 40 });
  const started = Date.now();
  try {
    await until(() => events.some((e) => e.type === 'turn_end'), 'the resumed turn ends', 120_000);
    timings.push(`codex TUI resume + 1 turn: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await tui.kill();
    await ing.dispose();
  }
  assert.equal(events.map((e) => e.type), ['session', 'user_text', 'agent_text', 'turn_end']);
  assert.equal(events[0], { type: 'session', agentSession: first.session });
  assert.is((events[1] as { text: string }).text, `resumed ${tok}`);
  assert.not.ok(JSON.stringify(events).includes(first.token), 'nothing of the earlier turns');
  assert.ok(carrying(before, first.token, tok).length > 0, 'the resumed TUI sent the first turn to the model');
  assert.is(ing.agentSession, first.session);
});

s('timeout: exit 4 and the whole process group is gone', async () => {
  const err = await rejects(turn('timeout', `hang ${token('hang')} [[FAKE_HANG]]`, { timeoutMs: 8_000 }));
  assert.is(err.exitCode, 4);
  assert.match(err.message, 'did not finish within 8 s');
  assert.equal(codexLeft(), []);
});

s('the model fails the turn (HTTP 400): exit 4 with codex\'s reason', async () => {
  const err = await rejects(turn('model error', `fail [[FAKE_ERROR: 400]]`));
  assert.is(err.exitCode, 4);
  assert.match(err.message, 'scripted error 400');
});

s('no API key for the provider: exit 4 with the login hint', async () => {
  const noKey = { ...env.env };
  delete noKey.FAKE_API_KEY;
  const err = await rejects(turn('no key', 'hello', { env: noKey }));
  assert.is(err.exitCode, 4);
  assert.match(err.message, 'login');
  assert.match(err.hint ?? '', 'codex login');
});

s('not installed (PATH without codex): detect says so; a turn is exit 3 with the install command', async () => {
  const bare = { ...env.env, PATH: '/usr/bin:/bin' };
  const d = await driver.detect({ env: bare });
  assert.is(d.installed, false);
  const err = await rejects(turn('not installed', 'hello', { env: bare }));
  assert.is(err.exitCode, 3);
  assert.is(err.hint, 'npm install -g @openai/codex@0.171.0');
});

s.run();

// Shown with BATON_TEST_VERBOSE=1 or on failure; speed checks belong in bench/.
process.on('exit', () => console.log(`\ncodex driver timings (wall clock, fake LLM answers at once):\n  ${timings.join('\n  ')}`));
