// The opencode driver with the real opencode 1.18.33 (from .cache/clis) against the fake
// LLM, in an isolated home: detect; headless turns over ACP (reply, usage, session id, the
// token in the model's request, unquoted), native resume through session/load, a bogus
// resume id, a shell call allowed with --yes and refused without it; ingest following
// opencode's SQLite database during a live turn (events before the model answered; abort;
// dispose); readSession; launch() argv and its TUI run for real in a PTY (ingest, screen
// status); timeout, a 401 from the model, a missing CLI. Each opencode runs in its own
// process group; the home's leftovers are ended by pid in cleanup.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BatonError } from '../../src/errors.js';
import { ARGV_PROMPT_LIMIT, ResumeFailedError, type HeadlessResult, type HeadlessTurn, type TranscriptEvent } from '../../src/plugins/api.js';
import { findExecutable } from '../../src/plugins/find-executable.js';
import { driver } from '../../plugins/opencode.js';
import { bodyContains, startFakeLlm, type FakeLlm } from '../fake-llm/server.js';
import { cliEnv, processesUnder, type CliEnv } from '../helpers/cli-env.js';
import { TestTerminal, until } from '../helpers/term.js';

const token = (label: string) => `TOK-${label}-${randomBytes(4).toString('hex')}`;
const timings: string[] = [];
// opencode's ACP server takes 5-30 s to start on a busy 2-core machine.
const TURN_MS = 240_000;

let fake: FakeLlm;
let env: CliEnv;

type Of<T extends TranscriptEvent['type']> = Extract<TranscriptEvent, { type: T }>;
const texts = (events: TranscriptEvent[]) => events.map((e) => (e.type === 'agent_text' ? e.text : '')).join('');
const watchers = () => process.getActiveResourcesInfo().filter((r) => r === 'FSEventWrap').length;

function lastSeq(): number {
  const all = fake.requests();
  return all.length ? all[all.length - 1]!.seq : 0;
}

function carrying(after: number, ...needles: string[]) {
  return fake.requests().filter((r) => r.seq > after && r.kind === 'generate' && needles.every((t) => bodyContains(r, t)));
}

async function turn(label: string, prompt: string, extra: Partial<HeadlessTurn> = {}): Promise<{ result: HeadlessResult; events: TranscriptEvent[] }> {
  const events: TranscriptEvent[] = [];
  const started = Date.now();
  try {
    const result = await driver.headless!({ cwd: env.cwd, env: env.env, prompt, yes: false, timeoutMs: TURN_MS, onEvent: (e) => events.push(e), ...extra });
    return { result, events };
  } finally {
    timings.push(`opencode ${label}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
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

const left = () => processesUnder(env.dir);

const s = suite('opencode driver (real CLI)');
let first: { token: string; session: string } | undefined;
let ingested: { session: string; token: string } | undefined;

s.before(async () => {
  fake = await startFakeLlm();
  env = cliEnv('opencode', { fakeUrl: fake.url });
});
s.after(async () => {
  await env.cleanup();
  await fake.close();
});

s('detect: installed at the pinned version, inside the tested range', async () => {
  const d = await driver.detect({ env: env.env });
  assert.ok(d.installed);
  assert.is(d.version, '1.18.33');
  assert.is(d.path, findExecutable('opencode', env.env));
  assert.is(d.untestedVersion, undefined);
  assert.is(d.installHint, 'npm install -g opencode-ai@1.18.33');
  assert.match(d.loginHint ?? '', 'opencode auth login');
});

s('a headless turn: the reply echoes the token, the turn ends with usage, the session id is reported', async () => {
  const tok = token('turn');
  const before = lastSeq();
  const { result, events } = await turn('turn', `hello there ${tok}`);
  assert.ok(result.agentSession?.startsWith('ses_'), 'a session id');
  assert.is(result.resumed, false);
  assert.is(result.stopReason, 'end_turn');
  assert.equal(events.filter((e) => e.type === 'session'), [{ type: 'session', agentSession: result.agentSession! }]);
  // Over ACP the message arrives as typed: no quotes around it (`opencode run` adds them).
  assert.match(texts(events), `You said: hello there ${tok}`);
  const end = events[events.length - 1] as Of<'turn_end'>;
  assert.is(end.type, 'turn_end');
  assert.ok((end.usage?.inputTokens ?? 0) > 0 && (end.usage?.outputTokens ?? 0) > 0, JSON.stringify(end));
  assert.ok(carrying(before, `hello there ${tok}`).length > 0, 'the token reached the model');
  assert.equal(left(), [], 'nothing of opencode left running');
  first = { token: tok, session: result.agentSession! };
});

s('resume: session/load, the same session, and the request carries the first turn\'s token', async () => {
  assert.ok(first, 'the first turn ran');
  const tok = token('resume');
  const before = lastSeq();
  const { result, events } = await turn('resume', `again ${tok}`, { resume: first.session });
  assert.is(result.resumed, true);
  assert.is(result.agentSession, first.session);
  assert.match(texts(events), tok);
  assert.not.match(texts(events), first.token, 'the replayed history is not said again');
  assert.ok(carrying(before, first.token, tok).length > 0, 'the resumed request carried both tokens');
});

s('a 200k-character brief goes whole over stdin, and a model reaches opencode through OPENCODE_CONFIG_CONTENT', async () => {
  const tok = token('brief');
  const brief = `${'brief line with some words in it\n'.repeat(Math.ceil(200_000 / 33))}LAST ${tok}`;
  // The user's own config gains a second model; baton adds only `model` to it.
  const config = JSON.parse(env.env.OPENCODE_CONFIG_CONTENT!);
  config.provider.fake.models['other-model'] = { name: 'Other Model' };
  const before = lastSeq();
  const { result, events } = await turn('200k brief, other model', brief, { model: 'fake/other-model', env: { ...env.env, OPENCODE_CONFIG_CONTENT: JSON.stringify(config) } });
  assert.ok(result.agentSession);
  assert.not.ok(events.some((e) => e.type === 'notice'), JSON.stringify(events.filter((e) => e.type === 'notice')));
  const reached = carrying(before, `LAST ${tok}`);
  assert.ok(reached.length > 0, 'the end of the brief reached the model');
  // (opencode's title request goes to its small_model, fake-model.)
  const main = reached.filter((r) => r.model === 'other-model');
  assert.ok(main.length > 0, `the turn ran on other-model: ${reached.map((r) => r.model).join(', ')}`);
  assert.ok(JSON.stringify(main[0]!.body).length > 200_000, 'the whole brief');
});

s('a bogus resume id: ResumeFailedError (exit 4), nothing reached the model', async () => {
  const before = lastSeq();
  const bogus = 'ses_0000000000000000000000bogus';
  const err = await rejects(turn('bogus resume', 'never sent', { resume: bogus }));
  assert.instance(err, ResumeFailedError);
  assert.is((err as ResumeFailedError).agentSession, bogus);
  assert.is(err.exitCode, 4);
  assert.match(err.message, bogus);
  assert.is(lastSeq(), before);
  assert.equal(left(), []);
});

s('a shell call with yes runs: tool_call and tool_result with one id and a name; without yes it is refused', async () => {
  const tok = token('shell');
  const { events } = await turn('tool (yes)', `[[FAKE_SHELL: echo ${tok} > from-shell.txt]]`, { yes: true });
  const call = events.find((e) => e.type === 'tool_call') as Of<'tool_call'>;
  const result = events.find((e) => e.type === 'tool_result') as Of<'tool_result'>;
  assert.ok(call && result, JSON.stringify(events));
  assert.is(result.toolCallId, call.toolCallId);
  assert.ok(call.toolName && result.toolName === call.toolName, JSON.stringify([call, result]));
  assert.is(call.toolName, 'bash', 'the tool, as ingest names it, not the command line opencode retitles it with');
  assert.match(JSON.stringify(call.input), tok);
  assert.is(result.isError, false);
  assert.is(readFileSync(join(env.cwd, 'from-shell.txt'), 'utf8').trim(), tok);
  assert.match(texts(events), 'done after 1 tool call(s)');

  const { events: denied } = await turn('tool (no yes)', '[[FAKE_SHELL: echo nope > refused.txt]]');
  const approval = denied.find((e) => e.type === 'approval') as Of<'approval'>;
  assert.ok(approval, JSON.stringify(denied));
  assert.is(approval.decision, 'denied');
  assert.match(approval.detail ?? '', '--yes');
  assert.ok(denied.some((e) => e.type === 'tool_result' && e.isError), 'the refused call has an error result');
  assert.not.ok(existsSync(join(env.cwd, 'refused.txt')), 'the command did not run');
});

s('ingest follows the database live: the prompt before the model answered, an abort; then a whole turn in order; dispose leaves no watcher', async () => {
  const handlesBefore = watchers();
  const seen: TranscriptEvent[] = [];
  const ing = await driver.ingest!({ cwd: env.cwd, env: env.env, since: new Date(), onEvent: (e) => seen.push(e) });
  const tok = token('ingest');
  const abort = new AbortController();
  const hanging = turn('hang then abort', `wait ${tok} [[FAKE_HANG]]`, { signal: abort.signal });
  // The prompt is in opencode's database while the model still has not answered.
  await until(() => seen.some((e) => e.type === 'user_text' && e.text.includes(tok)), 'the prompt from the database', TURN_MS);
  await fake.waitForRequest((r) => r.kind === 'generate' && bodyContains(r, tok) && r.fault?.kind === 'hang', 60_000, 'the hanging model request');
  assert.is(seen[0]!.type, 'session', 'the session id came first');
  assert.not.ok(seen.some((e) => e.type === 'turn_end'), 'the turn is still running');
  abort.abort();
  const { result: aborted } = await hanging;
  assert.is(aborted.stopReason, 'cancelled');
  assert.equal(left(), [], 'the aborted group is gone');
  await ing.dispose();

  // A fresh ingest, a full turn with a tool call: every event kind, in order.
  const events: TranscriptEvent[] = [];
  const ing2 = await driver.ingest!({ cwd: env.cwd, env: env.env, since: new Date(), onEvent: (e) => events.push(e) });
  assert.ok(watchers() > handlesBefore, 'a watcher while following');
  const tok2 = token('ingest2');
  const { result } = await turn('ingested turn', `[[FAKE_SHELL: echo ${tok2}]] ${tok2}`, { yes: true });
  await until(() => events.some((e) => e.type === 'turn_end'), 'the turn end from the database', 30_000);
  assert.is(ing2.agentSession, result.agentSession);
  assert.equal(events.map((e) => e.type), ['session', 'user_text', 'tool_call', 'tool_result', 'agent_text', 'turn_end']);
  const call = events[2] as Of<'tool_call'>;
  const res = events[3] as Of<'tool_result'>;
  assert.is(call.toolName, 'bash');
  assert.is(res.toolCallId, call.toolCallId);
  assert.is(res.toolName, 'bash');
  assert.match(res.output, tok2);
  assert.ok(((events[5] as Of<'turn_end'>).usage?.inputTokens ?? 0) > 0);
  assert.is(ing2.skipped, 0);
  await ing2.dispose();
  // fs.watch handles are released by libuv a moment after chokidar's close() resolves.
  await until(() => watchers() === handlesBefore, `no file watcher left (${watchers()} > ${handlesBefore})`, 5_000);

  // Disposed: a later turn in the same session is not read.
  const count = events.length;
  await turn('after dispose', `later ${token('later')}`, { resume: result.agentSession! });
  assert.is(events.length, count);
  ingested = { session: result.agentSession!, token: tok2 };
});

s('ingest of a known session starts at its end: the earlier turns give no events', async () => {
  assert.ok(ingested, 'the ingested turn ran');
  const events: TranscriptEvent[] = [];
  const ing = await driver.ingest!({ cwd: env.cwd, env: env.env, agentSession: ingested.session, since: new Date(), onEvent: (e) => events.push(e) });
  try {
    const tok = token('known');
    await turn('known session', `more ${tok}`, { resume: ingested.session });
    await until(() => events.some((e) => e.type === 'turn_end'), 'the new turn from the database', 30_000);
    assert.equal(events.map((e) => e.type), ['session', 'user_text', 'agent_text', 'turn_end']);
    assert.match((events[1] as Of<'user_text'>).text, tok);
  } finally {
    await ing.dispose();
  }
});

s('readSession: the whole session from opencode\'s database, user messages included; an unknown id is exit 2', async () => {
  assert.ok(ingested, 'the ingested turn ran');
  const imported = await driver.readSession!({ session: ingested.session, cwd: env.cwd, env: env.env });
  assert.is(imported.agentSession, ingested.session);
  assert.is(imported.model, 'fake/fake-model');
  assert.is(imported.cwd, env.cwd);
  assert.is(imported.skipped, 0);
  const types = imported.events.map((e) => e.type);
  assert.equal(types.slice(0, 6), ['user_text', 'tool_call', 'tool_result', 'agent_text', 'turn_end', 'user_text']);
  assert.is(types.filter((t) => t === 'turn_end').length, 3);
  assert.match((imported.events[0] as Of<'user_text'>).text, ingested.token);
  assert.is(imported.logPath, join(env.home, '.local/share/opencode/opencode.db'));
  assert.is(await driver.sessionLogPath!({ session: ingested.session, cwd: env.cwd, env: env.env }), imported.logPath);
  assert.is(await driver.sessionLogPath!({ session: 'ses_nope', cwd: env.cwd, env: env.env }), undefined);
  const err = await rejects(driver.readSession!({ session: 'ses_0000000000000000000000dead', cwd: env.cwd, env: env.env }));
  assert.is(err.exitCode, 2);
  assert.match(err.message, 'ses_0000000000000000000000dead');
});

s('launch(): argv for a new session, a model, resume, fork and a first message; PWD; an account gets its own XDG dirs', async () => {
  const plain = await driver.launch({ cwd: env.cwd, env: env.env });
  assert.equal(plain, { command: 'opencode', args: [], env: { PWD: env.cwd }, cwd: env.cwd, prompt: 'none' });
  const full = await driver.launch({ cwd: env.cwd, env: env.env, model: 'fake/fake-model', resume: 'ses_abc', initialPrompt: '-starts with a dash', args: ['--agent', 'plan'] });
  assert.equal(full.args, ['--session', 'ses_abc', '--model', 'fake/fake-model', '--agent', 'plan', '--prompt=-starts with a dash']);
  assert.is(full.prompt, 'argv');
  const fork = await driver.launch({ cwd: env.cwd, env: env.env, resume: 'ses_abc', fork: true });
  assert.equal(fork.args, ['--session', 'ses_abc', '--fork']);
  const acct = await driver.launch({ cwd: env.cwd, env: env.env, account: 'work' });
  const dir = join(env.env.XDG_CONFIG_HOME!, 'baton/accounts/opencode/work');
  assert.equal(acct.env, { XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config'), PWD: env.cwd });
  assert.is(statSync(join(dir, 'data')).mode & 0o777, 0o700);
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
  assert.match(last, /^--prompt=.*\.baton\/handoff-sw-1\.md/);
  assert.ok(spec.args.every((a) => Buffer.byteLength(a) <= ARGV_PROMPT_LIMIT));
});

s('the launched TUI for real: it submits --prompt, ingest follows it, the screen says working then idle', async () => {
  const tok = token('tui');
  const spec = await driver.launch({ cwd: env.cwd, env: env.env, initialPrompt: `hold on ${tok} [[FAKE_HANG]]` });
  const events: TranscriptEvent[] = [];
  const ing = await driver.ingest!({ cwd: env.cwd, env: env.env, since: new Date(), onEvent: (e) => events.push(e) });
  const bin = findExecutable(spec.command, { ...env.env, ...spec.env })!;
  const tui = new TestTerminal([bin, ...spec.args], { env: { ...env.env, ...spec.env }, cwd: spec.cwd, cols: 120, rows: 40 });
  const started = Date.now();
  try {
    await until(() => events.some((e) => e.type === 'user_text' && e.text === `hold on ${tok} [[FAKE_HANG]]`), 'the first message from the database', TURN_MS);
    await tui.waitFor((_, t) => driver.statusFromScreen!(t.rows()) === 'working', 60_000, 'opencode working on screen');
    // Esc twice interrupts a running turn.
    tui.press('Escape');
    await tui.waitFor('again to interrupt', 15_000);
    tui.press('Escape');
    await until(() => events.some((e) => e.type === 'turn_end'), 'the interrupted turn ends', 60_000);
    await tui.waitFor((_, t) => driver.statusFromScreen!(t.rows()) === 'idle', 30_000, 'opencode idle on screen');
    const tok2 = token('tui2');
    tui.type(`next ${tok2}`);
    await tui.waitFor(tok2, 15_000);
    tui.press('Enter');
    await until(() => events.filter((e) => e.type === 'turn_end').length === 2, 'the second turn ends', TURN_MS);
    timings.push(`opencode TUI start + 2 turns: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    assert.equal(events.map((e) => e.type), ['session', 'user_text', 'notice', 'turn_end', 'user_text', 'agent_text', 'turn_end']);
    assert.match((events[5] as Of<'agent_text'>).text, `You said: next ${tok2}`);
  } finally {
    await tui.kill();
    await ing.dispose();
  }
  await until(() => left().length === 0, 'nothing of the TUI left', 15_000);
});

s('statusFromScreen: a permission dialog is approval', () => {
  const screen = ['  △ Permission required', '    $ echo hi', '', '  Allow once   Allow always   Reject'];
  assert.is(driver.statusFromScreen!(screen), 'approval');
  assert.is(driver.statusFromScreen!(['  ⬝⬝⬝  esc interrupt      tab agents  ctrl+p commands']), 'working');
  assert.is(driver.statusFromScreen!(['                         tab agents  ctrl+p commands']), 'idle');
  assert.is(driver.statusFromScreen!(['loading…']), undefined);
});

s('timeout: exit 4 and the whole process group is gone', async () => {
  const err = await rejects(turn('timeout', `hang ${token('hang')} [[FAKE_HANG]]`, { timeoutMs: 20_000 }));
  assert.is(err.exitCode, 4);
  assert.match(err.message, 'did not finish the turn within 20 s');
  assert.equal(left(), []);
});

s('the model answers 401: exit 4 with the login hint', async () => {
  const err = await rejects(turn('401', `fail [[FAKE_ERROR: 401]]`));
  assert.is(err.exitCode, 4);
  assert.match(err.message, 'needs a login');
  assert.match(err.hint ?? '', 'opencode auth login');
});

s('not installed (PATH without opencode): detect says so; a turn is exit 3 with the install command', async () => {
  const bare = { ...env.env, PATH: '/usr/bin:/bin' };
  const d = await driver.detect({ env: bare });
  assert.is(d.installed, false);
  const err = await rejects(turn('not installed', 'hello', { env: bare }));
  assert.is(err.exitCode, 3);
  assert.is(err.hint, 'npm install -g opencode-ai@1.18.33');
});

s.run();

// Shown with BATON_TEST_VERBOSE=1 or on failure; speed checks belong in bench/.
process.on('exit', () => console.log(`\nopencode driver timings (wall clock, fake LLM answers at once):\n  ${timings.join('\n  ')}`));
