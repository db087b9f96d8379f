// The live test shapes every real driver suite shares (test/real/<cli>.test.ts), after the
// headless ones in real-driver-tests.ts: ingest following a live headless session (an abort
// while the model hangs, then a whole turn, then dispose); the launched TUI for real in a PTY,
// started with no prompt and given its first message as baton gives it, pasted once the
// screen reads idle (a brief past the paste limit as a file the message points at, then a
// second turn; or an interrupted turn and a second one; resuming the first session); and
// launch()'s argv, which never carries a message. Each function adds one test to the CLI's suite; what differs between
// CLIs is data.
// It must never weaken a check for one CLI to fit another: a difference is a parameter.
import * as assert from 'uvu/assert';
import { appendFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BatonError } from '../../src/errors.js';
import type { HarnessDriver, LaunchOptions, LaunchSpec, TranscriptEvent } from '../../src/plugins/api.js';
import { briefAndMessage } from '../../src/plugins/handoff-file.js';
import { bodyContains } from '../fake-llm/server.js';
import { bigBrief, token, typesOf, watchers, type Of, type RealDriver } from './real-driver.js';
import type { TestTerminal } from './term.js';
import { until } from './wait.js';

const turnEnds = (events: TranscriptEvent[]) => events.filter((e) => e.type === 'turn_end').length;

export interface IngestLiveSpec {
  /** What the CLI keeps its sessions in ("the log", "the database"). */
  log: string;
  /** How long the first prompt may take to show up there (the CLI's start). */
  promptMs: number;
  /** The shell tool's name as ingest gives it. */
  shell: string;
  /** What shows a disposed ingest reads no more: a later turn in the session, or a record appended to the log. */
  afterDispose: 'turn' | ((at: string) => Record<string, unknown>);
  /** A check of the whole followed turn only this CLI makes. */
  check?: (events: TranscriptEvent[]) => void;
}

export function ingestLiveTest(cli: RealDriver, spec: IngestLiveSpec): void {
  cli.suite(
    `ingest follows a live session in ${spec.log}: events while the model has not answered, an abort ends the group; a whole turn in order; dispose leaves no watcher`,
    async () => {
      const handles = watchers();
      const tok = token('ingest');
      const abort = new AbortController();
      // Followed as baton follows a session: by the id the CLI gave it (its output says it first).
      const { turn: hanging, ing, events: seen } = await cli.followedTurn('hang then abort', `wait ${tok} [[FAKE_HANG]]`, { signal: abort.signal });
      // The prompt is in the CLI's log while the model still has not answered: events come as written.
      await until(() => seen.some((e) => e.type === 'user_text' && e.text.includes(tok)), `the prompt from ${spec.log}`, spec.promptMs);
      await cli.fake.waitForRequest((r) => r.kind === 'generate' && bodyContains(r, tok) && r.fault?.kind === 'hang', 60_000, 'the hanging model request');
      assert.is(seen[0]!.type, 'session', 'the session id comes first');
      assert.not.ok(
        seen.some((e) => e.type === 'turn_end' || e.type === 'agent_text'),
        'the model has not answered',
      );
      abort.abort();
      // A cancelled turn ends like every driver's: stopReason cancelled, a notice, no failure.
      // The notice says whether the CLI confirmed the cancel within the harness's grace (2 s);
      // a CLI that took longer (opencode, with the machine's cores busy) was stopped, which is
      // the same outcome.
      const { result: aborted, events: abortedEvents } = await hanging;
      assert.is(aborted.stopReason, 'cancelled');
      assert.ok(
        abortedEvents.some((e) => e.type === 'notice' && /^turn cancelled($|; )/.test(e.text)),
        JSON.stringify(abortedEvents),
      );
      assert.equal(cli.left(), [], 'the aborted group is gone');
      await ing.dispose();

      // A fresh ingest and a full turn with a tool call: every event kind, in order.
      const tok2 = token('ingest2');
      const { turn, ing: ing2, events } = await cli.followedTurn('ingested turn', `[[FAKE_SHELL: echo ${tok2}]] ${tok2}`, { yes: true });
      const { result } = await turn;
      await until(() => events.some((e) => e.type === 'turn_end'), `the turn end from ${spec.log}`, 30_000);
      assert.is(ing2.agentSession, result.agentSession);
      assert.equal(typesOf(events), ['session', 'user_text', 'tool_call', 'tool_result', 'agent_text', 'turn_end']);
      const call = events[2] as Of<'tool_call'>;
      const res = events[3] as Of<'tool_result'>;
      assert.is(call.toolName, spec.shell);
      assert.is(res.toolCallId, call.toolCallId);
      assert.is(res.toolName, spec.shell);
      assert.match(res.output, tok2);
      assert.is(ing2.skipped, 0);
      spec.check?.(events);
      assert.ok(watchers() > handles, 'a watcher while following');
      const path = await cli.driver.sessionLogPath!({ session: result.agentSession!, cwd: cli.env.cwd, env: cli.env.env });
      assert.ok(path && existsSync(path), `the session's log: ${path}`);
      await ing2.dispose();

      const count = events.length;
      if (spec.afterDispose === 'turn') {
        // fs.watch handles close a moment after chokidar's close() resolves.
        await until(() => watchers() === handles, `no file watcher left (${watchers()} > ${handles})`, 5_000);
        await cli.turn('after dispose', `more ${token('late')}`, { resume: result.agentSession! });
        assert.is(events.length, count);
      } else {
        appendFileSync(path!, `${JSON.stringify(spec.afterDispose(new Date().toISOString()))}\n`);
        // Nothing to poll for: the check is that nothing comes.
        await new Promise((r) => setTimeout(r, 300));
        assert.is(events.length, count);
        assert.is(watchers(), handles, 'no file watcher left');
      }
      cli.ingested = { session: result.agentSession!, token: tok2 };
    },
  );
}

export interface LaunchArgvSpec {
  title: string;
  /**
   * A new session: the argv (given the session the launch fixed, for a CLI that takes one),
   * the env (for the work dir), and what that session looks like (absent: the CLI names its
   * own, and the launch fixes none).
   */
  plain: { args: string[] | ((session: string) => string[]); env: (cwd: string) => Record<string, string>; session?: RegExp };
  /** A model, resume, extra args: the argv. */
  full: { opts: Partial<LaunchOptions>; args: string[] };
  /**
   * A fork of session `resume` (a function: one that exists by then): its argv, given the new
   * session the launch fixed when it fixes one; or 'refused' (exit 2) for a CLI that cannot fork.
   */
  fork: { resume: string | (() => string); args: (resume: string, session: string | undefined) => string[] } | 'refused';
  /** An account's own home (dir: $XDG_STATE_HOME/baton/accounts/<cli>/work, BATON_HOME being unset): its env, and the dir made 0700. */
  account: { env: (dir: string, cwd: string) => Record<string, string>; made: (dir: string) => string };
  /** A check of the account's home only this CLI makes. */
  check?: (dir: string) => void;
}

export function launchArgvTest(cli: RealDriver, spec: LaunchArgvSpec): void {
  cli.suite(spec.title, async () => {
    const { cwd, env } = cli.env;
    const plain = await cli.driver.launch({ cwd, env });
    if (spec.plain.session) assert.match(plain.session ?? '', spec.plain.session, "a fresh run is bound to a session of baton's choosing");
    else assert.is(plain.session, undefined);
    const args = typeof spec.plain.args === 'function' ? spec.plain.args(plain.session!) : spec.plain.args;
    assert.equal(plain, { command: cli.name, args, env: spec.plain.env(cwd), cwd, ...(plain.session ? { session: plain.session } : {}) });
    if (spec.plain.session) assert.is.not((await cli.driver.launch({ cwd, env })).session, plain.session, 'two tabs never share one');
    const full = await cli.driver.launch({ cwd, env, ...spec.full.opts });
    assert.equal(full.args, spec.full.args);
    assert.is(full.session, spec.full.opts.resume, 'a resume is bound to the session it resumes');
    if (spec.fork === 'refused') {
      try {
        await cli.driver.launch({ cwd, env, resume: 'abc-123', fork: true });
        assert.unreachable('fork must be refused');
      } catch (err) {
        assert.instance(err, BatonError);
        assert.is((err as BatonError).exitCode, 2);
      }
      assert.is(cli.driver.capabilities.fork, false);
    } else {
      const resume = typeof spec.fork.resume === 'function' ? spec.fork.resume() : spec.fork.resume;
      const forked = await cli.driver.launch({ cwd, env, resume, fork: true });
      assert.equal(forked.args, spec.fork.args(resume, forked.session));
      assert.is.not(forked.session, resume, 'a fork is never bound to the session it forks');
    }
    const acct = await cli.driver.launch({ cwd, env, account: 'work' });
    const dir = join(env.XDG_STATE_HOME!, 'baton/accounts', cli.name, 'work');
    assert.equal(acct.env, spec.account.env(dir, cwd));
    assert.is(statSync(spec.account.made(dir)).mode & 0o777, 0o700);
    spec.check?.(dir);
  });
}

/** Sends `text` at the TUI's prompt once it is on screen, then Enter. */
async function submit(tui: TestTerminal, text: string, how: 'paste' | 'type'): Promise<void> {
  if (how === 'paste') tui.paste(text);
  else tui.type(text);
  await tui.waitFor(text, 15_000);
  tui.press('Enter');
}

/** As baton gives a TUI its first message: once its screen reads idle, one paste, then Enter (see pasteMessage). */
export function firstMessage(cli: RealDriver, tui: TestTerminal, text: string, readyMs = 120_000, events?: TranscriptEvent[]): Promise<void> {
  return pasteMessage(cli.driver, tui, text, readyMs, events);
}

/** Text as a screen shows it, whatever the wrapping: no whitespace, no box-drawing borders (as delivery.ts reads it). */
const squash = (s: string) => s.replace(/[\s\u2500-\u257f]+/g, '');

/**
 * As baton gives a TUI a message (src/conversation/delivery.ts): once its screen reads idle,
 * one paste; Enter once the screen shows the paste taken in (its end, or a folded
 * "[Pasted text …]"), 150 ms after that, and not while it works; and, given the ingest's
 * `events`, Enter once more if the log has not shown the message 8 s later, unless a dialog
 * shows (an Enter would answer it). gemini turns an Enter that comes before it has handled a
 * paste into nothing: under load that took it 0.4-0.9 s here, so a fixed 300 ms lost the
 * Enter and the message sat in its input box.
 */
export async function pasteMessage(driver: HarnessDriver, tui: TestTerminal, text: string, readyMs = 120_000, events?: TranscriptEvent[]): Promise<void> {
  await tui.waitFor((_, t) => driver.statusFromScreen!(t.rows()) === 'idle', readyMs, `${driver.name} ready for input`);
  const tail = squash(text).slice(-24);
  tui.paste(text);
  await tui.waitFor((screen) => squash(screen).includes(tail) || /\[Pasted text/.test(screen), 30_000, `the paste on ${driver.name}'s screen`);
  await new Promise((r) => setTimeout(r, 150));
  await tui.waitFor((_, t) => driver.statusFromScreen!(t.rows()) !== 'working', 15_000);
  const users = () => events?.filter((e) => e.type === 'user_text').length ?? 0;
  const before = users();
  tui.press('Enter');
  if (!events) return;
  const logged = await until(() => users() > before, 'the message in the log', 8000).then(
    () => true,
    () => false,
  );
  if (!logged && driver.statusFromScreen!(tui.rows()) !== 'approval') tui.press('Enter');
}

export interface TuiBriefSpec {
  firstMs: number;
  secondMs: number;
  /** A check of the launch spec only this CLI makes. */
  check?: (spec: LaunchSpec) => void;
}

/** The TUI's first message carries a brief past the paste limit: the brief goes as a 0600 file the pasted message points at; after the first turn, a second one. */
export function tuiBriefTest(cli: RealDriver, spec: TuiBriefSpec): void {
  cli.suite(
    'the launched TUI for real: a brief past the paste limit goes as a file the first message points at; ingest follows; the screen says idle',
    async () => {
      const { cwd, env } = cli.env;
      const launch = await cli.driver.launch({ cwd, env });
      spec.check?.(launch);
      const brief = bigBrief(token('big'));
      const message = `go on ${token('msg')}`;
      const pasted = briefAndMessage(cwd, brief, message, 'sw-tui');
      const file = join(cwd, '.baton/handoff-sw-tui.md');
      assert.is(pasted.file, file);
      assert.is(readFileSync(file, 'utf8'), brief);
      assert.is(statSync(file).mode & 0o777, 0o600);
      const before = cli.lastSeq();
      await cli.withTui(launch, async (tui, events) => {
        const started = Date.now();
        await firstMessage(cli, tui, pasted.text, undefined, events);
        await until(() => turnEnds(events) > 0, 'the first turn from the log', spec.firstMs);
        assert.ok(cli.carrying(before, file).length > 0, 'the model was told where the brief is');
        const user = events.find((e) => e.type === 'user_text') as Of<'user_text'>;
        assert.match(user.text, file);
        assert.ok(user.text.replace(/\s+/g, ' ').trim().endsWith(message), 'the message last, as written: what delivery recognises');
        await tui.waitFor((_, t) => cli.driver.statusFromScreen!(t.rows()) === 'idle', 30_000, `${cli.name} idle on screen`);
        const tok2 = token('tui2');
        await submit(tui, `next ${tok2}`, 'paste');
        await until(() => turnEnds(events) === 2, 'the second turn from the log', spec.secondMs);
        cli.timed('TUI start + 2 turns', started);
        assert.equal(typesOf(events), ['session', 'user_text', 'agent_text', 'turn_end', 'user_text', 'agent_text', 'turn_end']);
        assert.match((events[5] as Of<'agent_text'>).text, `You said: next ${tok2}`);
      });
      await until(() => cli.left().length === 0, 'nothing of the TUI left', 10_000);
    },
  );
}

export interface TuiInterruptSpec {
  title: string;
  /** What the CLI keeps its sessions in ("the log", "the database"). */
  log: string;
  /** How long the first message may take to show up there (the TUI's start). */
  startMs: number;
  workingMs: number;
  /** The keys that interrupt a running turn. */
  interrupt: (tui: TestTerminal) => Promise<void>;
  input: 'paste' | 'type';
  secondMs: number;
  /** A check only this CLI makes once the TUI is gone; since: when the TUI started. */
  after?: (since: Date) => Promise<void>;
}

/** The TUI started on a message the model hangs on: working on screen, interrupted, idle, then a second turn typed at its prompt. */
export function tuiInterruptTest(cli: RealDriver, spec: TuiInterruptSpec): void {
  cli.suite(spec.title, async () => {
    const first = `hold on ${token('tui')} [[FAKE_HANG]]`;
    const launch = await cli.driver.launch({ cwd: cli.env.cwd, env: cli.env.env });
    const since = new Date();
    await cli.withTui(
      launch,
      async (tui, events) => {
        const started = Date.now();
        await firstMessage(cli, tui, first, spec.startMs, events);
        await until(() => events.some((e) => e.type === 'user_text' && e.text === first), `the first message from ${spec.log}`, spec.startMs);
        await tui.waitFor((_, t) => cli.driver.statusFromScreen!(t.rows()) === 'working', spec.workingMs, `${cli.name} working on screen`);
        await spec.interrupt(tui);
        await until(() => turnEnds(events) > 0, 'the interrupted turn ends', 60_000);
        await tui.waitFor((_, t) => cli.driver.statusFromScreen!(t.rows()) === 'idle', 30_000, `${cli.name} idle on screen`);
        const tok2 = token('tui2');
        await submit(tui, `next ${tok2}`, spec.input);
        await until(() => turnEnds(events) === 2, 'the second turn ends', spec.secondMs);
        cli.timed('TUI start + 2 turns', started);
        assert.equal(typesOf(events), ['session', 'user_text', 'notice', 'turn_end', 'user_text', 'agent_text', 'turn_end']);
        assert.match((events[5] as Of<'agent_text'>).text, `You said: next ${tok2}`);
      },
      { since },
    );
    await until(() => cli.left().length === 0, 'nothing of the TUI left', 15_000);
    await spec.after?.(since);
  });
}

/** The TUI resuming the first headless session: ingest by its id has only the new turn; the model got the old token. */
export function tuiResumeTest(cli: RealDriver, spec: { resumeMs: number }): void {
  cli.suite('the TUI resuming the first session: ingest by its id has only the new turn; the model got the old token', async () => {
    const first = cli.first;
    assert.ok(first, 'the first turn ran');
    const tok = token('tui-resume');
    const before = cli.lastSeq();
    const launch = await cli.driver.launch({ cwd: cli.env.cwd, env: cli.env.env, resume: first.session });
    const { ing, events } = await cli.withTui(
      launch,
      async (tui, events) => {
        const started = Date.now();
        await firstMessage(cli, tui, `resumed ${tok}`, spec.resumeMs, events);
        await until(() => turnEnds(events) > 0, 'the resumed turn ends', spec.resumeMs);
        cli.timed('TUI resume + 1 turn', started);
      },
      { agentSession: first.session },
    );
    assert.equal(typesOf(events), ['session', 'user_text', 'agent_text', 'turn_end']);
    assert.equal(events[0], { type: 'session', agentSession: first.session });
    assert.is((events[1] as Of<'user_text'>).text, `resumed ${tok}`);
    assert.not.ok(JSON.stringify(events).includes(first.token), 'nothing of the earlier turns');
    assert.ok(cli.carrying(before, first.token, tok).length > 0, 'the resumed TUI sent the first turn to the model');
    assert.is(ing.agentSession, first.session);
  });
}
