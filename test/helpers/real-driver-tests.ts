// The headless test shapes every real driver suite shares (test/real/<cli>.test.ts): each
// function adds one test to the CLI's suite, in the order the file calls them, and what
// differs between CLIs comes in as data; a check only one CLI makes comes in as its `check`
// callback, written in that CLI's own file. Detect, a turn, resume, a bogus resume id, tool
// calls with --yes, readSession, an account's own home, timeout, a model error, a login
// failure, not installed.
// It must never weaken a check for one CLI to fit another: a difference is a parameter.
import * as assert from 'uvu/assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ResumeFailedError, type ImportedSession } from '../../src/plugins/api.js';
import { findExecutable } from '../../src/plugins/find-executable.js';
import type { BatonError } from '../../src/errors.js';
import { cmdlineOf, processesUnder } from '../../src/proc/index.js';
import { cliEnv, type CliEnv } from './cli-env.js';
import { rejects, textOf, token, typesOf, type Of, type RealDriver, type TurnOutcome } from './real-driver.js';

export function detectTest(cli: RealDriver): void {
  cli.suite('detect: installed at the pinned version, inside the tested range', async () => {
    const d = await cli.driver.detect({ env: cli.env.env });
    assert.ok(d.installed);
    assert.is(d.version, cli.opts.version);
    assert.is(d.path, findExecutable(cli.name, cli.env.env));
    assert.is(d.untestedVersion, undefined);
    assert.is(d.installHint, cli.opts.installHint);
    assert.match(d.loginHint ?? '', cli.opts.loginHint);
  });
}

interface TurnSpec<T> {
  title?: string;
  /** The prompt for a token (default `hello <tok>`, `again <tok>` on resume); the reply echoes it. */
  prompt?: (tok: string) => string;
  /** A check only this CLI makes. */
  check?: (t: T) => void;
}

/** The first turn: a session id reported once, the reply, usage, the prompt reaching the model, nothing left running. */
export function headlessTurnTest(cli: RealDriver, spec: TurnSpec<TurnOutcome & { tok: string }> = {}): void {
  cli.suite(spec.title ?? 'a headless turn: the reply echoes the token, the turn ends with usage, the session id is reported', async () => {
    const tok = token('turn');
    const prompt = spec.prompt?.(tok) ?? `hello ${tok}`;
    const before = cli.lastSeq();
    const { result, events } = await cli.turn('turn', prompt);
    assert.ok(result.agentSession, 'a session id');
    assert.is(result.resumed, false);
    assert.equal(
      events.filter((e) => e.type === 'session'),
      [{ type: 'session', agentSession: result.agentSession! }],
    );
    assert.match(textOf(events), `You said: ${prompt}`);
    const end = events[events.length - 1] as Of<'turn_end'>;
    assert.is(end.type, 'turn_end');
    assert.ok((end.usage?.inputTokens ?? 0) > 0 && (end.usage?.outputTokens ?? 0) > 0, JSON.stringify(end));
    assert.ok(cli.carrying(before, prompt).length > 0, 'the token reached the model');
    const left = cli.left();
    // What is left named by its command line: a daemon that left the group is not the same
    // failure as the group itself outliving the turn.
    const named = left.map((pid) => `${pid} ${(cmdlineOf(pid) ?? ['(gone)']).join(' ')}`).join('; ');
    assert.equal(left, [], `nothing of ${cli.name} left running: ${named}`);
    spec.check?.({ result, events, tok });
    cli.first = { token: tok, session: result.agentSession! };
  });
}

/** The second turn resumes the first one's session: its request carries both turns' tokens. */
export function resumeTest(cli: RealDriver, spec: TurnSpec<TurnOutcome & { tok: string; before: number }> & { title: string }): void {
  cli.suite(spec.title, async () => {
    const first = cli.first;
    assert.ok(first, 'the first turn ran');
    const tok = token('resume');
    const before = cli.lastSeq();
    const { result, events } = await cli.turn('resume', spec.prompt?.(tok) ?? `again ${tok}`, { resume: first.session });
    assert.is(result.resumed, true);
    assert.is(result.agentSession, first.session);
    assert.ok(cli.carrying(before, first.token, tok).length > 0, 'the resumed request carried both tokens');
    spec.check?.({ result, events, tok, before });
  });
}

export interface BogusResumeSpec {
  /** An id of the CLI's own shape that no session has. */
  bogus: string;
  /** 'any request': the fake logged nothing at all; 'the prompt': no model request carried it. */
  untouched: 'any request' | 'the prompt';
  /** What else the message says. */
  message?: string;
}

export function bogusResumeTest(cli: RealDriver, spec: BogusResumeSpec): void {
  cli.suite('a bogus resume id: ResumeFailedError (exit 4) before anything reached the model', async () => {
    const before = cli.lastSeq();
    const err = await rejects(cli.turn('bogus resume', 'never sent', { resume: spec.bogus }));
    assert.instance(err, ResumeFailedError);
    assert.is((err as ResumeFailedError).agentSession, spec.bogus);
    assert.is(err.exitCode, 4);
    assert.match(err.message, spec.bogus);
    if (spec.message) assert.match(err.message, spec.message);
    if (spec.untouched === 'any request') assert.is(cli.lastSeq(), before);
    else assert.is(cli.carrying(before, 'never sent').length, 0);
    assert.equal(cli.left(), []);
  });
}

/**
 * Tools with --yes: a shell call (and a write call when names has two) pair with their
 * results by id and name, the first call's input has the command, the files are on disk.
 * names: the shell tool's name, then the write tool's.
 */
export function toolsTest(cli: RealDriver, spec: { names: [string] | [string, string] }): void {
  const write = spec.names.length === 2;
  cli.suite(
    `tools with --yes: ${spec.names.join(' and ')} call${write ? 's pair' : ' pairs'} with ${write ? 'their results' : 'its result'} by id and name; ${write ? 'the files are' : 'the file is'} on disk`,
    async () => {
      const tok = token('tools');
      const prompt = `[[FAKE_SHELL: echo ${tok} > from-shell.txt]]${write ? ` [[FAKE_WRITE: from-write.txt :: ${tok}]]` : ''}`;
      const { events } = await cli.turn('tools', prompt, { yes: true });
      const calls = events.filter((e) => e.type === 'tool_call') as Of<'tool_call'>[];
      const results = events.filter((e) => e.type === 'tool_result') as Of<'tool_result'>[];
      assert.equal(
        calls.map((c) => c.toolName),
        spec.names,
        JSON.stringify(events),
      );
      assert.equal(
        results.map((r) => [r.toolCallId, r.toolName, r.isError]),
        calls.map((c) => [c.toolCallId, c.toolName, false]),
      );
      assert.match(JSON.stringify(calls[0]!.input), tok);
      assert.is(readFileSync(join(cli.env.cwd, 'from-shell.txt'), 'utf8').trim(), tok);
      if (write) assert.is(readFileSync(join(cli.env.cwd, 'from-write.txt'), 'utf8').trim(), tok);
      assert.match(textOf(events), `done after ${spec.names.length} tool call(s)`);
    },
  );
}

export interface ReadSessionSpec {
  /** Where the CLI keeps the session ("claude's own log"). */
  where: string;
  /** The model the session names; undefined: any. */
  model?: string;
  /** The event kinds of the whole session, or the first ones and how many turns. */
  types: string[] | { startsWith: string[]; turns: number };
  /** Where the log is, when the test can say it. */
  logPath?: (session: string) => string;
  /** An id of the CLI's own shape that no session has. */
  unknown: string;
}

/** readSession of the session the live-ingest test followed: the whole of it, sessionLogPath; an unknown id is exit 2. */
export function readSessionTest(cli: RealDriver, spec: ReadSessionSpec): void {
  cli.suite(`readSession: the whole session from ${spec.where}, user messages included; sessionLogPath; an unknown id is exit 2`, async () => {
    const ingested = cli.ingested;
    assert.ok(ingested, 'the ingested turn ran');
    const opts = { cwd: cli.env.cwd, env: cli.env.env };
    const imported: ImportedSession = await cli.driver.readSession!({ session: ingested.session, ...opts });
    assert.is(imported.agentSession, ingested.session);
    if (spec.model) assert.is(imported.model, spec.model);
    else assert.ok(imported.model);
    assert.is(imported.cwd, cli.env.cwd);
    assert.is(imported.skipped, 0);
    const types = typesOf(imported.events);
    if (Array.isArray(spec.types)) assert.equal(types, spec.types);
    else {
      assert.equal(types.slice(0, spec.types.startsWith.length), spec.types.startsWith);
      assert.is(types.filter((t) => t === 'turn_end').length, spec.types.turns);
    }
    assert.match((imported.events[0] as Of<'user_text'>).text, ingested.token);
    assert.ok(imported.logPath && existsSync(imported.logPath), `the log: ${imported.logPath}`);
    if (spec.logPath) assert.is(imported.logPath, spec.logPath(ingested.session));
    assert.is(await cli.driver.sessionLogPath!({ session: ingested.session, ...opts }), imported.logPath);
    const err = await rejects(cli.driver.readSession!({ session: spec.unknown, ...opts }));
    assert.is(err.exitCode, 2);
    assert.match(err.message, spec.unknown);
    assert.is(await cli.driver.sessionLogPath!({ session: spec.unknown, ...opts }), undefined);
  });
}

/** A turn as an account: its session is logged in the account's own home, not the default one. */
export function accountTest(cli: RealDriver, spec: { title: string; account: string; logPath: (session: string) => string }): void {
  cli.suite(spec.title, async () => {
    const { result } = await cli.turn('account', `account ${token('account')}`, { account: spec.account });
    const session = result.agentSession!;
    const opts = { session, cwd: cli.env.cwd, env: cli.env.env };
    assert.is(await cli.driver.sessionLogPath!({ ...opts, account: spec.account }), spec.logPath(session));
    assert.is(await cli.driver.sessionLogPath!(opts), undefined);
  });
}

export interface TimeoutSpec {
  timeoutMs: number;
  /** The message before " <N> s". */
  message: string;
  /** The CLI hangs in the model call within the limit (a slow starter may not get that far). */
  reachesModel: boolean;
}

/**
 * A turn the model never answers ends at the limit. The limit is a fixed wait (8-45 s), so
 * the turn starts with the suite, in a home of its own under the same fake LLM, and the
 * suite's other tests run meanwhile (nothing of theirs is in that home, and every request
 * they look for carries a token of their own); the test, in its place, checks the outcome.
 */
export function timeoutTest(cli: RealDriver, spec: TimeoutSpec): void {
  let own: CliEnv | undefined;
  let outcome: Promise<{ tok: string; err: Promise<BatonError> }> | undefined;
  cli.suite.before(() => {
    own = cliEnv(cli.name, { fakeUrl: cli.fake.url });
    const tok = token('hang');
    const turn = cli.turn('timeout', `hang ${tok} [[FAKE_HANG]]`, { timeoutMs: spec.timeoutMs, cwd: own.cwd, env: own.env });
    // Settled here, so an outcome nobody awaited yet is no unhandled rejection.
    const err = rejects(turn);
    err.catch(() => {});
    outcome = Promise.resolve({ tok, err });
  });
  cli.suite.after(async () => {
    await own?.cleanup();
  });
  cli.suite('timeout: exit 4 naming the limit, and the whole process group is gone', async () => {
    const { tok, err: settled } = await outcome!;
    const err = await settled;
    assert.is(err.exitCode, 4);
    assert.match(err.message, `${spec.message} ${spec.timeoutMs / 1000} s`);
    if (spec.reachesModel) assert.ok(cli.fake.requestsContaining(tok).length > 0, 'it hung in the model call, not at startup');
    assert.equal(processesUnder(own!.dir), []);
  });
}

/** The model answers HTTP 400: exit 4 with the reason the CLI gave (`reason` says where it is). */
export function modelErrorTest(cli: RealDriver, reason: string): void {
  cli.suite(`the model fails the turn (HTTP 400): exit 4 with ${reason}`, async () => {
    const err = await rejects(cli.turn('model error', 'fail [[FAKE_ERROR: 400]]'));
    assert.is(err.exitCode, 4);
    assert.match(err.message, 'scripted error 400');
  });
}

export interface LoginFailureSpec {
  title: string;
  label: string;
  prompt: string;
  /** The credential taken out of the environment, if that is the failure. */
  drop?: string;
  message: string;
  hint: string;
}

export function loginFailureTest(cli: RealDriver, spec: LoginFailureSpec): void {
  cli.suite(spec.title, async () => {
    const env = { ...cli.env.env };
    if (spec.drop) {
      assert.ok(env[spec.drop], `${spec.drop} is set to begin with`);
      delete env[spec.drop];
    }
    const err = await rejects(cli.turn(spec.label, spec.prompt, { env }));
    assert.is(err.exitCode, 4);
    assert.match(err.message, spec.message);
    assert.match(err.hint ?? '', spec.hint);
  });
}

/** PATH without the CLI (barePath): detect says so; a turn is exit 3 with the install command. */
export function notInstalledTest(cli: RealDriver, barePath: string): void {
  cli.suite(`not installed (PATH without ${cli.name}): detect says so; a turn is exit 3 with the install command`, async () => {
    const bare = { ...cli.env.env, PATH: barePath };
    const d = await cli.driver.detect({ env: bare });
    assert.is(d.installed, false);
    assert.is(d.installHint, cli.opts.installHint);
    const err = await rejects(cli.turn('not installed', 'hello', { env: bare }));
    assert.is(err.exitCode, 3);
    assert.is(err.hint, cli.opts.installHint);
  });
}
