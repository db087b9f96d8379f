// The steps every real suite of baton's ACP view takes with its CLI (test/real/acp-view-*.ts):
// the program of a "<agent> (baton view)" tab (`baton acp-view --agent NAME`, the built baton)
// in a real PTY, with the real CLI from .cache/clis against the fake LLM, in an isolated home:
// a scripted write asks with a permission card showing its diff; y writes the file on disk, n
// leaves it unwritten; Esc with a card open answers it cancelled and the next turn runs in the
// same session; a scripted shell call asks too, and runs once allowed; the view's log holds the
// approvals and turns the tab's ingest gives the transcript (a rejected call's result right
// after its rejection, before the agent's reply). Then Esc while an allowed command
// runs (a long sleep): the turn ends long before the command would, the command's process is
// gone, the next turn runs. Then the program is ended as the tab's pane ends it when baton
// quits, and started again as baton starts a restored tab (the same command, the same view
// id): the agent's session is opened again (session/load, `via` in the log), the history is
// drawn once from baton's log (nothing of the agent's replay in the log or on screen), and the
// next turn's request to the model carries the earlier turns.
// The tests are steps of one session, in order.
import { randomInt } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { SessionOpening } from '../../src/plugins/acp-session.js';
import { lastAgentSession, readViewLog, type ViewLine } from '../../src/plugins/acp-view-log.js';
import { cmdlineOf, processesUnder } from '../../src/proc/index.js';
import { bodyContains, type FakeLlm, startFakeLlm } from '../fake-llm/server.js';
import { builtBaton } from './built-baton.js';
import { type CliEnv, type CliName, cliEnv } from './cli-env.js';
import { TestTerminal } from './term.js';
import { until } from './wait.js';

const VIEW = 'view-0b1c2d3e-4f50-4617-8899-aabbccddeeff';

export interface ViewSuiteOptions {
  /** How long a turn may take (the CLI's start included). */
  turnMs: number;
  /** How the reopened view opens the agent's session again (what its initialize offers and baton prefers). */
  reopens: SessionOpening;
  /**
   * Gemini CLI 0.61 names a session's file by the minute it began and the id, and session/load
   * first starts a recording for that id: in the same minute that is the same file, whose
   * history it resets before it reads it ("No previous sessions found"). Reopened in a later
   * minute, as a person restarting baton does, it loads. The reopen waits for the next minute.
   */
  reopenInALaterMinute?: boolean;
}

/** The updates that carry conversation: none may come between a reopen and its first message (a replay). */
const CONVERSATION = new Set(['user_message_chunk', 'agent_message_chunk', 'agent_thought_chunk', 'tool_call', 'tool_call_update', 'plan']);

/** One run of the view's program in a PTY, with its CLI's home and the fake LLM; what its steps share. */
class ViewRun {
  fake!: FakeLlm;
  env!: CliEnv;
  t!: TestTerminal;

  constructor(
    readonly cli: CliName,
    readonly opts: ViewSuiteOptions,
  ) {}

  get turnMs(): number {
    return this.opts.turnMs;
  }

  /** The view's program as the view driver starts it (a restored tab: the same command and view id). */
  start(): void {
    this.t = new TestTerminal([process.execPath, builtBaton(), 'acp-view', '--agent', this.cli, '--view', VIEW], {
      cols: 110,
      rows: 40,
      cwd: this.env.cwd,
      env: { ...this.env.env, BATON_HOME: join(this.env.dir, 'baton') },
    });
  }

  logPath(): string {
    return join(this.env.dir, 'baton', 'acp-views', `${VIEW}.jsonl`);
  }

  /** Types a message as a person would: once it shows in the input line, Enter. */
  async say(text: string): Promise<void> {
    this.t.type(text);
    await this.t.waitFor(text.slice(-20), 10_000, 'the message in the input line');
    this.t.press('Enter');
  }

  card(): Promise<string> {
    // (Qwen Code's two "always" options can push the y key's to the next line.)
    return this.t.waitFor(/ y\s+Allow/, this.turnMs, 'the permission card');
  }

  idle(): Promise<string> {
    return this.t.waitFor('Enter sends', this.turnMs, 'the turn over');
  }
}

type Suite = ReturnType<typeof suite>;

export function acpViewSuite(cli: CliName, opts: ViewSuiteOptions): void {
  const s = suite(`acp view: ${cli}`);
  const v = new ViewRun(cli, opts);

  s.before(async () => {
    v.fake = await startFakeLlm();
    v.env = cliEnv(cli, { fakeUrl: v.fake.url });
    v.start();
  });

  s.after(async () => {
    await v.t?.kill();
    await v.env?.cleanup();
    await v.fake?.close();
  });

  approvalTests(s, v);
  logTest(s, () => v.logPath());
  cancelRunningTest(s, v);
  reopenTest(s, v);
  s.run();
}

function approvalTests(s: Suite, v: ViewRun): void {
  const { cli } = v;
  s(`${cli} starts in the view; a write asks with a card; y writes the file on disk`, async () => {
    await v.t.waitFor('Enter sends', v.turnMs, `${cli} started`);
    await v.say('write it [[FAKE_WRITE: yes.txt :: allowed by the user]]');
    const screen = await v.card();
    assert.match(screen, '⚑ Permission needed');
    assert.match(screen, '+allowed by the user', 'the diff on the card');
    v.t.type('y');
    await v.t.waitFor('allowed once', v.turnMs);
    await v.idle();
    assert.is(readFileSync(join(v.env.cwd, 'yes.txt'), 'utf8').trim(), 'allowed by the user');
  });

  s('n rejects: the file is not written', async () => {
    await v.say('write again [[FAKE_WRITE: no.txt :: rejected by the user]]');
    await v.card();
    v.t.type('n');
    await v.t.waitFor('rejected:', v.turnMs);
    await v.idle();
    assert.not.ok(existsSync(join(v.env.cwd, 'no.txt')));
  });

  s('Esc with a card open: cancelled, nothing written; the next turn runs in the same session', async () => {
    await v.say('write later [[FAKE_WRITE: cancel.txt :: cancelled]]');
    await v.card();
    v.t.press('Escape');
    await v.t.waitFor('cancelled:', v.turnMs);
    await v.idle();
    assert.not.ok(existsSync(join(v.env.cwd, 'cancel.txt')));
    await v.say('after the cancel');
    // (claude-code-acp puts "[Request interrupted by user for tool use]" before it.)
    await v.t.waitFor(/You said: (.*\n)?after the cancel/, v.turnMs, 'the next turn answered');
    await v.idle();
  });

  s('a shell call that changes something asks; once allowed it runs (the file it makes on disk, its output shown)', async () => {
    await v.say('run it [[FAKE_SHELL: touch made-by-shell.txt; echo view-shell-out]]');
    const asked = await v.card();
    assert.match(asked, 'Run touch made-by-shell.txt; echo view-shell-out');
    v.t.type('y');
    await v.t.waitFor(/view-shell-out\s*$/m, v.turnMs, 'the output');
    await v.idle();
    assert.ok(existsSync(join(v.env.cwd, 'made-by-shell.txt')), v.t.screenText());
  });
}

function cancelRunningTest(s: Suite, v: ViewRun): void {
  s('Esc while an allowed command runs: the turn ends long before the command would, its process is ended, the next turn runs', async () => {
    // A length no other process has: the command's own process is found by its argv. (Qwen
    // Code refuses a command that starts with a long sleep: run it in the background.)
    const secs = `300.${randomInt(1000, 10_000)}`;
    const sleeping = () => processesUnder(v.env.dir, ['cwd']).filter((pid) => (cmdlineOf(pid) ?? []).includes(secs));
    await v.say(`wait [[FAKE_SHELL: true && sleep ${secs} && touch slept.txt]]`);
    await v.card();
    v.t.type('y');
    await until(() => sleeping().length > 0, 'the command running', v.turnMs);
    v.t.press('Escape');
    // A turn may take turnMs, well under the sleep: the turn ends long before the command would.
    await v.idle();
    await until(() => sleeping().length === 0, `the command's process ended (still running: ${sleeping().join(' ')})`, 30_000);
    assert.not.ok(existsSync(join(v.env.cwd, 'slept.txt')));
    await v.say('after the long command');
    await v.t.waitFor(/You said: (.*\n)?after the long command/, v.turnMs, 'the next turn answered');
    await v.idle();
  });
}

function reopenTest(s: Suite, v: ViewRun): void {
  const { cli, opts } = v;
  /** The last message before the reopen and its answer, each drawn once. */
  const once = (screen: string) => {
    assert.is(screen.match(/^ {2}after the long command\s*$/gm)?.length, 1, `the last message once:\n${screen}`);
    assert.is(screen.match(/after the long command/g)?.length, 2, `it and its answer once each:\n${screen}`);
  };
  s(`baton started again: the view opens the same ${cli} session (${opts.reopens}), draws its history once, and ${cli} continues it`, async () => {
    const before = readViewLog(v.logPath());
    const session = lastAgentSession(before)!;
    const began = before.find((l) => l.acp)!;
    assert.is(began.via, 'new');
    if (opts.reopenInALaterMinute) {
      const minute = (ms: number) => Math.floor(ms / 60_000);
      await until(() => minute(Date.now()) > minute(Date.parse(began.at)), "the minute after the session's start", 70_000);
    }
    // The tab's pane ends its program when baton quits (a signal; it ends its agent), and
    // baton restoring the tab starts the same command again.
    await v.t.kill();
    v.start();
    await v.t.waitFor('Enter sends', v.turnMs, `${cli} reopened`);
    const reopened = readViewLog(v.logPath()).slice(before.length);
    const opened = reopened.find((l) => l.acp);
    assert.equal({ acp: opened?.acp, via: opened?.via }, { acp: session, via: opts.reopens }, JSON.stringify(reopened.filter((l) => !l.rec)));
    once(v.t.screenText());
    await v.say('after the reopen');
    await v.t.waitFor(/You said: (.*\n)?after the reopen/, v.turnMs, 'the turn after the reopen answered');
    await v.idle();
    once(v.t.screenText());
    const recs = readViewLog(v.logPath())
      .slice(before.length)
      .flatMap((l: ViewLine) => (l.rec ? [l.rec as { t: string; update?: { sessionUpdate: string } }] : []));
    const beforeMessage = recs.slice(
      0,
      recs.findIndex((r) => r.t === 'user'),
    );
    const replayed = beforeMessage.filter((r) => r.t === 'update' && CONVERSATION.has(r.update!.sessionUpdate));
    assert.equal(replayed, [], "nothing of the agent's replay drawn or logged");
    const asked = v.fake.requestsContaining('after the reopen');
    assert.ok(asked.length > 0);
    assert.ok(
      asked.some((r) => bodyContains(r, 'after the long command') && bodyContains(r, 'write it')),
      `${cli} sent the model the earlier turns with the new message`,
    );
  });
}

/** The view's log, which the tab's ingest follows: the approvals and every turn. */
function logTest(s: Suite, path: () => string): void {
  s("the view's log, which the tab's ingest follows: the approvals and every turn", () => {
    const lines = readViewLog(path());
    const events = lines.flatMap((l) => (l.ev ? [l.ev] : []));
    assert.equal(
      events.filter((e) => e.type === 'approval').map((e) => (e as { decision: string }).decision),
      ['allowed', 'denied', 'cancelled', 'allowed'],
    );
    assert.is(events.filter((e) => e.type === 'user_text').length, 5);
    assert.is(events.filter((e) => e.type === 'turn_end').length, 5);
    // The rejected write's result is recorded as the user rejects it, in order: before anything
    // the agent says after (Gemini CLI never reports a rejected call, so its result came only at
    // the turn's end, after the reply, saying the tool had not finished).
    const denied = events.findIndex((e) => e.type === 'approval' && e.decision === 'denied');
    const id = (events[denied] as { toolCallId?: string }).toolCallId;
    const next = events[denied + 1] as { type: string; toolCallId?: string; isError?: boolean; output?: string } | undefined;
    const turn = events.slice(
      denied,
      events.findIndex((e, i) => i > denied && e.type === 'turn_end'),
    );
    const shown = turn.map((e) => (e.type === 'tool_result' ? `tool_result ${e.output}` : e.type)).join(' | ');
    assert.equal(
      { type: next?.type, toolCallId: next?.toolCallId, isError: next?.isError },
      { type: 'tool_result', toolCallId: id, isError: true },
      `the result right after the rejection: ${shown}`,
    );
    assert.match(next?.output ?? '', /^\(rejected: .*; the tool did not run\)$/, shown);
    assert.is(turn.filter((e) => e.type === 'tool_result' && e.toolCallId === id).length, 1, `one result: ${shown}`);
    assert.ok(
      lines.some((l) => l.acp),
      "the agent's own session id, for a reopened tab",
    );
  });
}
