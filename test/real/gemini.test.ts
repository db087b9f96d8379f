// The gemini driver with the real gemini 0.61 (from .cache/clis) against the fake LLM, in an
// isolated home: detect; headless turns (reply, usage, session id, the token in the model's
// request), a 200 KB prompt through stdin, native resume, a bogus resume id, a shell tool
// call with --yes and none offered without it; ingest following a live session (events
// while gemini waits for the model; abort; dispose); readSession; launch() argv and its TUI
// run for real in a PTY (an approval on screen, ingest); timeout, model errors, a missing
// key and a missing CLI. Each gemini runs in its own process group; the home's leftovers
// are ended by pid in cleanup.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BatonError } from '../../src/errors.js';
import { ARGV_PROMPT_LIMIT, ResumeFailedError, type HeadlessResult, type HeadlessTurn, type TranscriptEvent } from '../../src/plugins/api.js';
import { findExecutable } from '../../src/plugins/find-executable.js';
import { driver } from '../../plugins/gemini.js';
import { geminiArgs } from '../../plugins/gemini-headless.js';
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
    const result = await driver.headless!({ cwd: env.cwd, env: env.env, prompt, yes: false, timeoutMs: 180_000, onEvent: (e) => events.push(e), ...extra });
    return { result, events };
  } finally {
    timings.push(`gemini ${label}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
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

const reply = (events: TranscriptEvent[]) => events.map((e) => (e.type === 'agent_text' ? e.text : '')).join('');
const geminiLeft = () => processesUnder(env.dir);

const s = suite('gemini driver (real CLI)');
let first: { token: string; session: string } | undefined;
let ingested: { session: string; token: string } | undefined;

s.before(async () => {
  fake = await startFakeLlm();
  env = cliEnv('gemini', { fakeUrl: fake.url });
});
s.after(async () => {
  await env.cleanup();
  await fake.close();
});

s('detect: installed at the pinned version, inside the tested range', async () => {
  const d = await driver.detect({ env: env.env });
  assert.ok(d.installed);
  assert.is(d.version, '0.61.0');
  assert.is(d.path, findExecutable('gemini', env.env));
  assert.is(d.untestedVersion, undefined);
  assert.match(d.installHint, 'npm install -g @google/gemini-cli@0.61.0');
});

s('a headless turn: the reply echoes the token, the turn ends with usage, the session id is reported', async () => {
  const tok = token('turn');
  const before = lastSeq();
  const { result, events } = await turn('turn', `hello ${tok}`);
  assert.ok(result.agentSession);
  assert.is(result.resumed, false);
  assert.equal(events.filter((e) => e.type === 'session'), [{ type: 'session', agentSession: result.agentSession! }]);
  assert.is(reply(events), `FAKE-LLM reply. You said: hello ${tok}`);
  const end = events[events.length - 1] as Extract<TranscriptEvent, { type: 'turn_end' }>;
  assert.is(end.type, 'turn_end');
  assert.ok((end.usage?.inputTokens ?? 0) > 0 && (end.usage?.outputTokens ?? 0) > 0);
  assert.ok(carrying(before, tok).length > 0, 'the token reached the model');
  assert.equal(geminiLeft(), []);
  first = { token: tok, session: result.agentSession! };
});

s('resume: the second turn runs in the same session and its request carries the first turn\'s token', async () => {
  assert.ok(first, 'the first turn ran');
  const tok = token('resume');
  const before = lastSeq();
  const { result, events } = await turn('resume', `again ${tok}`, { resume: first.session });
  assert.is(result.resumed, true);
  assert.is(result.agentSession, first.session);
  assert.match(reply(events), tok);
  assert.ok(carrying(before, first.token, tok).length > 0, 'the resumed request carried both tokens');
});

s('a bogus resume id: ResumeFailedError (exit 4), nothing reached the model', async () => {
  const before = lastSeq();
  const bogus = 'd50bfe5a-0000-49c9-a3d3-54a519b7c9fd';
  const err = await rejects(turn('bogus resume', 'never sent', { resume: bogus }));
  assert.instance(err, ResumeFailedError);
  assert.is(err.exitCode, 4);
  assert.match(err.message, bogus);
  assert.is(lastSeq(), before);
});

s('a 200 KB prompt goes on stdin, not argv, and reaches the model whole', async () => {
  const head = token('big-head');
  const tail = token('big-tail');
  const lines = Array.from({ length: 4000 }, (_, i) => `line ${i} of a long handoff brief about module ${i % 97}`);
  const prompt = `${head}\n${lines.join('\n')}\n${tail}`;
  assert.ok(Buffer.byteLength(prompt) > 1.5 * ARGV_PROMPT_LIMIT, `${prompt.length} chars`);
  const { argv, stdin } = geminiArgs({ prompt, yes: false });
  assert.is(stdin, prompt);
  assert.ok(argv.every((a) => Buffer.byteLength(a) < 1000));
  const before = lastSeq();
  const { events } = await turn('200 KB prompt', prompt);
  assert.ok(carrying(before, head, tail, 'line 3999 of a long').length > 0, 'the whole prompt reached the model');
  assert.match(reply(events), tail);
});

s('a shell tool call with yes: tool_call and tool_result with one id and the tool name; the file is written', async () => {
  const tok = token('shell');
  const { events } = await turn('tool', `[[FAKE_SHELL: echo ${tok} > from-shell.txt]]`, { yes: true });
  const call = events.find((e) => e.type === 'tool_call') as Extract<TranscriptEvent, { type: 'tool_call' }>;
  const result = events.find((e) => e.type === 'tool_result') as Extract<TranscriptEvent, { type: 'tool_result' }>;
  assert.ok(call && result, JSON.stringify(events));
  assert.is(result.toolCallId, call.toolCallId);
  assert.is(call.toolName, 'run_shell_command');
  assert.is(result.toolName, 'run_shell_command');
  assert.is(result.isError, false);
  assert.is(readFileSync(join(env.cwd, 'from-shell.txt'), 'utf8').trim(), tok);
});

s('without yes, gemini offers the model no tool that needs approval: nothing runs', async () => {
  const before = lastSeq();
  const { events } = await turn('tool denied', '[[FAKE_SHELL: echo nope > denied.txt]]');
  assert.not.ok(events.some((e) => e.type === 'tool_call'));
  assert.not.ok(existsSync(join(env.cwd, 'denied.txt')));
  const main = carrying(before, 'denied.txt').filter((r) => r.stream);
  assert.ok(main.length > 0);
  const declared = ((main[0]!.body as { tools?: { functionDeclarations?: { name: string }[] }[] }).tools ?? []).flatMap((t) => (t.functionDeclarations ?? []).map((f) => f.name));
  assert.ok(declared.includes('read_file'), 'read-only tools are offered');
  assert.not.ok(declared.includes('run_shell_command') || declared.includes('write_file'), `no shell or write tool declared: ${declared.join(', ')}`);
});

s('ingest follows a live session: events while gemini waits for the model, an abort ends the group, dispose leaves no watcher', async () => {
  const handlesBefore = process.getActiveResourcesInfo().filter((r) => r === 'FSEventWrap').length;
  const seen: TranscriptEvent[] = [];
  const ing = await driver.ingest!({ cwd: env.cwd, env: env.env, since: new Date(), onEvent: (e) => seen.push(e) });
  const tok = token('ingest');
  const abort = new AbortController();
  const hanging = turn('hang then abort', `wait ${tok} [[FAKE_HANG]]`, { signal: abort.signal });
  await until(() => seen.some((e) => e.type === 'user_text' && e.text.includes(tok)), 'the prompt from the log', 120_000);
  assert.ok(seen.some((e) => e.type === 'session'), 'the session id came first');
  assert.not.ok(seen.some((e) => e.type === 'turn_end' || e.type === 'agent_text'), 'the model has not answered');
  abort.abort();
  // A cancelled turn ends like every driver's: stopReason cancelled, a notice, no failure.
  const { result: aborted, events: abortedEvents } = await hanging;
  assert.is(aborted.stopReason, 'cancelled');
  assert.ok(abortedEvents.some((e) => e.type === 'notice' && e.text === 'turn cancelled'));
  assert.equal(geminiLeft(), [], 'the aborted group is gone');
  await ing.dispose();

  const events: TranscriptEvent[] = [];
  const ing2 = await driver.ingest!({ cwd: env.cwd, env: env.env, since: new Date(), onEvent: (e) => events.push(e) });
  const tok2 = token('ingest2');
  const { result } = await turn('ingested turn', `[[FAKE_SHELL: echo ${tok2}]] ${tok2}`, { yes: true });
  // gemini writes no turn boundary: the turn ends once the log stays quiet after the answer.
  await until(() => events.some((e) => e.type === 'turn_end'), 'the turn end', 30_000);
  assert.is(ing2.agentSession, result.agentSession);
  assert.equal(events.map((e) => e.type), ['session', 'user_text', 'tool_call', 'tool_result', 'agent_text', 'turn_end']);
  const call = events[2] as Extract<TranscriptEvent, { type: 'tool_call' }>;
  const res = events[3] as Extract<TranscriptEvent, { type: 'tool_result' }>;
  assert.is(res.toolCallId, call.toolCallId);
  assert.is(res.toolName, 'run_shell_command');
  assert.match(res.output, tok2);
  assert.is(ing2.skipped, 0);
  assert.ok(process.getActiveResourcesInfo().filter((r) => r === 'FSEventWrap').length > handlesBefore, 'a watcher while following');
  const path = await driver.sessionLogPath!({ session: result.agentSession!, cwd: env.cwd, env: env.env });
  assert.ok(path && existsSync(path));
  await ing2.dispose();
  const count = events.length;
  appendFileSync(path!, `${JSON.stringify({ id: 'after-dispose', timestamp: new Date().toISOString(), type: 'info', content: 'after dispose' })}\n`);
  await new Promise((r) => setTimeout(r, 300));
  assert.is(events.length, count);
  assert.is(process.getActiveResourcesInfo().filter((r) => r === 'FSEventWrap').length, handlesBefore);
  ingested = { session: result.agentSession!, token: tok2 };
});

s('readSession: the whole session from gemini\'s own log, user messages included; an unknown id is exit 2', async () => {
  assert.ok(ingested, 'the ingested turn ran');
  const imported = await driver.readSession!({ session: ingested.session, cwd: env.cwd, env: env.env });
  assert.is(imported.agentSession, ingested.session);
  assert.ok(imported.model);
  assert.is(imported.cwd, env.cwd);
  assert.is(imported.skipped, 0);
  assert.equal(imported.events.map((e) => e.type), ['user_text', 'tool_call', 'tool_result', 'agent_text', 'notice', 'turn_end']);
  assert.match((imported.events[0] as { text: string }).text, ingested.token);
  assert.ok(imported.logPath && existsSync(imported.logPath));
  const err = await rejects(driver.readSession!({ session: 'd50bfe5a-0000-49c9-a3d3-0000000dead0', cwd: env.cwd, env: env.env }));
  assert.is(err.exitCode, 2);
  assert.match(err.message, 'd50bfe5a-0000-49c9-a3d3-0000000dead0');
});

s('launch(): argv for a new session, a model, resume and a first message; no native fork; an account gets its own GEMINI_CLI_HOME', async () => {
  const plain = await driver.launch({ cwd: env.cwd, env: env.env });
  assert.equal(plain, { command: 'gemini', args: [], env: {}, cwd: env.cwd, prompt: 'none' });
  const full = await driver.launch({ cwd: env.cwd, env: env.env, model: 'gemini-2.5-pro', resume: 'abc-123', initialPrompt: '-starts with a dash', args: ['--debug'] });
  assert.equal(full.args, ['--resume', 'abc-123', '-m', 'gemini-2.5-pro', '--debug', '--prompt-interactive=-starts with a dash']);
  assert.is(full.prompt, 'argv');
  try {
    await driver.launch({ cwd: env.cwd, env: env.env, resume: 'abc-123', fork: true });
    assert.unreachable('fork must be refused');
  } catch (err) {
    assert.instance(err, BatonError);
    assert.is((err as BatonError).exitCode, 2);
  }
  assert.is(driver.capabilities.fork, false);
  const acct = await driver.launch({ cwd: env.cwd, env: env.env, account: 'work' });
  const home = join(env.env.XDG_CONFIG_HOME!, 'baton/accounts/gemini/work');
  assert.equal(acct.env, { GEMINI_CLI_HOME: home });
  assert.is(statSync(home).mode & 0o777, 0o700);
  // A new account's settings: session retention off (gemini's cleanup would delete sessions to resume).
  const settings = join(home, '.gemini/settings.json');
  assert.equal(JSON.parse(readFileSync(settings, 'utf8')), { general: { sessionRetention: { enabled: false } } });
  assert.is(statSync(settings).mode & 0o777, 0o600);
});

s('launch(): a first message over 100 KiB goes as .baton/handoff-<switchId>.md (0600 in a 0700 dir)', async () => {
  const brief = `${token('big')}\n${'a long brief line with words\n'.repeat(Math.ceil((ARGV_PROMPT_LIMIT + 5000) / 29))}END`;
  const spec = await driver.launch({ cwd: env.cwd, env: env.env, initialPrompt: brief, switchId: 'sw-2' });
  const file = join(env.cwd, '.baton/handoff-sw-2.md');
  assert.equal(spec.files, [file]);
  assert.is(readFileSync(file, 'utf8'), brief);
  assert.is(statSync(file).mode & 0o777, 0o600);
  assert.is(statSync(join(env.cwd, '.baton')).mode & 0o777, 0o700);
  const last = spec.args[spec.args.length - 1]!;
  assert.ok(last.startsWith('--prompt-interactive=') && Buffer.byteLength(last) < 1000);
  assert.match(last, '.baton/handoff-sw-2.md');
});

s('the launched TUI for real: the approval on screen, then ingest has the call, its result and the answer', async () => {
  const tok = token('tui');
  const spec = await driver.launch({ cwd: env.cwd, env: env.env, initialPrompt: `[[FAKE_SHELL: echo ${tok} > tui.txt]] ${tok}` });
  const events: TranscriptEvent[] = [];
  const ing = await driver.ingest!({ cwd: env.cwd, env: env.env, since: new Date(), onEvent: (e) => events.push(e) });
  const bin = findExecutable(spec.command, { ...env.env, ...spec.env })!;
  const tui = new TestTerminal([bin, ...spec.args], { env: { ...env.env, ...spec.env }, cwd: spec.cwd, cols: 120, rows: 40 });
  const started = Date.now();
  try {
    await tui.waitFor((_, t) => driver.statusFromScreen!(t.rows()) === 'approval', 120_000, 'gemini asking to run the shell command');
    tui.press('Enter'); // "Allow once" is selected
    await until(() => events.some((e) => e.type === 'turn_end'), 'the turn end from the log', 60_000);
    await tui.waitFor((_, t) => driver.statusFromScreen!(t.rows()) === 'idle', 30_000, 'gemini idle on screen');
    timings.push(`gemini TUI start + 1 turn with an approval: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    assert.equal(events.map((e) => e.type), ['session', 'user_text', 'tool_call', 'tool_result', 'agent_text', 'turn_end']);
    assert.is(readFileSync(join(env.cwd, 'tui.txt'), 'utf8').trim(), tok);
  } finally {
    await tui.kill();
    await ing.dispose();
  }
  await until(() => geminiLeft().length === 0, 'nothing of the TUI left', 10_000);
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
    timings.push(`gemini TUI resume + 1 turn: ${((Date.now() - started) / 1000).toFixed(1)} s`);
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
  const err = await rejects(turn('timeout', `hang ${token('hang')} [[FAKE_HANG]]`, { timeoutMs: 30_000 }));
  assert.is(err.exitCode, 4);
  assert.match(err.message, 'did not finish within 30 s');
  assert.equal(geminiLeft(), []);
});

s('the model fails the turn (HTTP 400): exit 4 with gemini\'s reason', async () => {
  const err = await rejects(turn('model error', 'fail [[FAKE_ERROR: 400]]'));
  assert.is(err.exitCode, 4);
  assert.match(err.message, 'scripted error 400');
});

s('no API key: exit 4 with the login hint', async () => {
  const noKey = { ...env.env };
  delete noKey.GEMINI_API_KEY;
  const err = await rejects(turn('no key', 'hello', { env: noKey }));
  assert.is(err.exitCode, 4);
  assert.match(err.message, 'GEMINI_API_KEY');
  assert.match(err.hint ?? '', 'GEMINI_API_KEY');
});

s('not installed (PATH without gemini): detect says so; a turn is exit 3 with the install command', async () => {
  const bare = { ...env.env, PATH: '/nonexistent' };
  const d = await driver.detect({ env: bare });
  assert.is(d.installed, false);
  const err = await rejects(turn('not installed', 'hello', { env: bare }));
  assert.is(err.exitCode, 3);
  assert.is(err.hint, 'npm install -g @google/gemini-cli@0.61.0');
});

s.run();

process.on('exit', () => console.log(`\ngemini driver timings (wall clock, fake LLM answers at once):\n  ${timings.join('\n  ')}`));
