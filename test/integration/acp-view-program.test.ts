// The ACP view's program with the fixture ACP agent (a real process): a message entered while
// the agent is still starting is sent once its session is open, exactly once, and recorded in
// the view's log; before, that Enter was dropped and the text stayed in the input line. A
// card is drawn at once, not at the next frame slot (before, a frame drawn just before it, the
// Enter's or a thought's, held it back up to 16 ms). A view reopened where its agent cannot
// continue the session (no loadSession, or the load refused) says so, in the view and its
// log, and its next turn runs in a new session, given the conversation so far from baton's
// log with the next message. A paste of several lines, its line breaks CRs as a terminal and
// baton's delivery send them, reaches the agent and the log with \n between the lines (before,
// the CRs went through: a brief reached gemini as one line, and the view drew it joined).
// A call the user rejects has its result (rejected) at once, before the agent's reply, even
// from an agent that never reports it (Gemini CLI): before, the turn's end wrote it, after.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { AcpAgentDecl } from '../../src/plugins/validate.js';
import { AcpViewProgram } from '../../src/tui/acp-view-program.js';
import { fixtureDecl } from '../helpers/acp-fixture.js';
import { until } from '../helpers/wait.js';

const s = suite('acp view program');
let dir: string;
let program: AcpViewProgram | undefined;
s.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-view-program-'));
});
s.after(async () => {
  await program?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const lines = (logPath: string) =>
  readFileSync(logPath, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { acp?: string; via?: string; rec?: { t: string; text?: string } });

const records = (logPath: string) =>
  readFileSync(logPath, 'utf8')
    .trim()
    .split('\n')
    // (A view's log is empty until it starts.)
    .filter(Boolean)
    .flatMap((l) => {
      const line = JSON.parse(l) as { rec?: { t: string; text?: string } };
      return line.rec ? [line.rec] : [];
    });

/** A view's program as a test drives it: the program, and what it has drawn so far. */
interface View {
  program: AcpViewProgram;
  screen(): string;
}

interface ViewRunOptions {
  /** The fixture agent's environment, besides process.env (its home, its quirks). */
  agentEnv: Record<string, string>;
  viewId?: string;
  cols?: number;
  pacing?: { frameMs: number; tickMs: number };
  /** The message is entered as the view starts (its agent not even spawned yet); else once it has started. */
  early?: boolean;
  /** What the test does after the message is entered and before its turn is over (answering a card). */
  meanwhile?: (view: View) => Promise<void>;
  /** What the view draws of the reply, waited for once the turn is over (default `echo: MESSAGE`; null: not waited for). */
  reply?: string | null;
}

/**
 * One run of a view (a new program, the one before it disposed) on `logPath` until its turn
 * for `message` is over, the message entered with an Enter as typed; the view, to read what
 * it drew.
 */
async function viewRun(logPath: string, message: string, opts: ViewRunOptions): Promise<View> {
  await program?.dispose();
  let screen = '';
  const cols = opts.cols ?? 100;
  program = new AcpViewProgram({
    decl: fixtureDecl() as unknown as AcpAgentDecl,
    cwd: dir,
    env: { ...process.env, ...opts.agentEnv },
    viewId: opts.viewId ?? 'v-reopen',
    logPath,
    out: { write: (b) => void (screen += b), cols: () => cols, rows: () => 24 },
    ...(opts.pacing ? { pacing: opts.pacing } : {}),
  });
  const view: View = { program, screen: () => screen };
  const turnEnds = () => (existsSync(logPath) ? records(logPath).filter((r) => r.t === 'turn_end').length : 0);
  const ends = turnEnds();
  const started = program.start();
  if (opts.early) program.feed(`${message}\r`);
  await started;
  if (!opts.early) program.feed(`${message}\r`);
  await opts.meanwhile?.(view);
  await until(() => turnEnds() > ends, `the turn for ${JSON.stringify(message)}`, 20_000).catch((e: Error) => {
    const log = existsSync(logPath) ? readFileSync(logPath, 'utf8').slice(-1500) : '(none)';
    throw new Error(`${e.message}; the view's log:\n${log}\nthe screen's end: ${JSON.stringify(screen.slice(-600))}`);
  });
  const reply = opts.reply === undefined ? `echo: ${message}` : opts.reply;
  // Frames are paced (at most one per frame interval), so the last one may follow the log's turn_end.
  if (reply !== null) await until(() => screen.includes(reply), 'the reply drawn', 5_000);
  return view;
}

s('a message entered while the agent starts is sent once it is ready, once', async () => {
  const logPath = join(dir, 'view.jsonl');
  // The agent's process is not even spawned yet when it is entered: the view says starting.
  await viewRun(logPath, 'typed before ready', { agentEnv: { ACP_FIXTURE_HOME: join(dir, 'agent-home') }, viewId: 'v-early', cols: 80, early: true });
  const users = records(logPath).filter((r) => r.t === 'user');
  assert.equal(
    users.map((r) => r.text),
    ['typed before ready'],
  );
});

s("a paste of several lines (CR line breaks, as a terminal and baton's delivery send them) reaches the agent and the log as lines", async () => {
  const logPath = join(dir, 'lines.jsonl');
  const home = join(dir, 'lines-home');
  // What Delivery.submit types for a brief and a message (\n made CR), Enter after it.
  await viewRun(logPath, '\x1b[200~[brief]\rline one\r\rline two\x1b[201~', { agentEnv: { ACP_FIXTURE_HOME: home }, viewId: 'v-lines', cols: 80, reply: null });
  assert.equal(
    records(logPath)
      .filter((r) => r.t === 'user')
      .map((r) => r.text),
    ['[brief]\nline one\n\nline two'],
  );
  const acp = lines(logPath).find((l) => l.acp)!.acp!;
  const turns = (JSON.parse(readFileSync(join(home, `${acp}.json`), 'utf8')) as { turns: { prompt: string }[] }).turns;
  assert.equal(
    turns.map((t) => t.prompt),
    ['[brief]\nline one\n\nline two'],
  );
});

s('a card is drawn at once, even when a frame was drawn just before it', async () => {
  const logPath = join(dir, 'cards.jsonl');
  // One frame a minute, no redraws while the turn runs: only a frame drawn at once can show
  // the card within this test (the Enter draws one, then the thought asks for the next slot).
  await viewRun(logPath, `[[write ${join(dir, 'card.txt')} x]]`, {
    agentEnv: { ACP_FIXTURE_HOME: join(dir, 'agent-home') },
    viewId: 'v-cards',
    pacing: { frameMs: 60_000, tickMs: 60_000 },
    reply: null,
    meanwhile: async (view) => {
      const kinds = () => records(logPath).map((r) => r.t);
      await until(() => view.screen().includes('Permission needed'), 'the approval card on the screen', 20_000).catch((e: Error) => {
        throw new Error(`${e.message}; records: ${kinds().join(' ')}`);
      });
      view.program.feed('n');
    },
  });
});

s("a call rejected in the view has its result at the rejection, before the agent's reply, from an agent that never reports it (as Gemini CLI)", async () => {
  const logPath = join(dir, 'rejected.jsonl');
  const path = join(dir, 'rejected.txt');
  await viewRun(logPath, `[[write ${path} x]]`, {
    agentEnv: { ACP_FIXTURE_HOME: join(dir, 'agent-home'), ACP_FIXTURE_QUIET_REJECT: '1' },
    viewId: 'v-rejected',
    reply: null,
    meanwhile: async (view) => {
      await until(() => records(logPath).some((r) => r.t === 'permission'), 'the approval card', 20_000);
      view.program.feed('n');
    },
  });
  // The events the tab's ingest hands to the transcript, in the order it records them.
  const events = readFileSync(logPath, 'utf8')
    .trim()
    .split('\n')
    .flatMap((l) => {
      const ev = (JSON.parse(l) as { ev?: { type: string; isError?: boolean; output?: string; decision?: string } }).ev;
      return ev && ev.type !== 'session' && ev.type !== 'reasoning' ? [ev] : [];
    });
  const kinds = events.map((e) => (e.type === 'approval' ? `approval ${e.decision}` : e.type));
  const firstText = kinds.indexOf('agent_text');
  assert.equal(kinds.slice(0, 4), ['user_text', 'tool_call', 'approval denied', 'tool_result'], kinds.join(' '));
  assert.ok(firstText > 3, `the reply after the result: ${kinds.join(' ')}`);
  assert.is(kinds.at(-1), 'turn_end');
  assert.is(kinds.filter((k) => k === 'tool_result').length, 1, 'one result');
  const result = events[3]!;
  assert.is(result.isError, true);
  assert.match(result.output ?? '', /^\(rejected: Reject \(reject_once\); the tool did not run\)$/);
});

s('a call rejected in the view is drawn failed at the rejection, from an agent that never reports it (as Gemini CLI)', async () => {
  const logPath = join(dir, 'rejected-card.jsonl');
  let atDecision: string | undefined;
  let drawn = 0;
  const view = await viewRun(logPath, `[[write ${join(dir, 'rejected-card.txt')} x]]`, {
    agentEnv: { ACP_FIXTURE_HOME: join(dir, 'agent-home'), ACP_FIXTURE_QUIET_REJECT: '1' },
    viewId: 'v-rejected-card',
    reply: null,
    meanwhile: async ({ program: p, screen }) => {
      await until(() => screen().includes('Permission needed'), 'the approval card on the screen', 20_000);
      // The card as the view holds it the moment the decision is recorded (the rejection's own event).
      const apply = p.model.apply.bind(p.model);
      p.model.apply = (r) => {
        apply(r);
        if (r.t === 'decision') atDecision = p.model.blocks.flatMap((b) => (b.k === 'tool' ? [b.tool.status ?? 'pending'] : [])).join(' ');
      };
      drawn = screen().length;
      p.feed('n');
    },
  });
  assert.is(atDecision, 'failed', 'the card failed at the rejection');
  await until(() => view.screen().slice(drawn).includes('the tool did not run'), 'the failed card drawn', 5_000);
  assert.match(view.screen().slice(drawn), '✗');
});

s('reopened where the agent cannot continue its session: the view says so, and the next turn runs in a new session given the conversation so far', async () => {
  const logPath = join(dir, 'reopen.jsonl');
  const home = { ACP_FIXTURE_HOME: join(dir, 'reopen-home') };
  await viewRun(logPath, 'first one', { agentEnv: home });
  const first = lines(logPath).find((l) => l.acp)!;
  assert.is(first.via, 'new');

  // The same agent reopened: it loads its session and remembers.
  // (The whole reply: a part of it may be drawn a frame before the rest.)
  const loaded = (await viewRun(logPath, 'second one', { agentEnv: home, reply: 'echo: second one (previous: first one)' })).screen();
  const reopened = lines(logPath)
    .filter((l) => l.acp)
    .at(-1)!;
  assert.equal([reopened.acp, reopened.via], [first.acp, 'load']);
  assert.match(loaded, 'echo: second one (previous: first one)');
  assert.not.match(loaded, 'the conversation so far', 'no brief for an agent that continues its session');

  // An agent that offers no way to continue a session.
  const briefed = 'echo: [baton: ACP fixture agent could not continue its earlier session';
  const cannot = (await viewRun(logPath, 'third one', { agentEnv: { ...home, ACP_FIXTURE_NO_LOAD: '1' }, reply: briefed })).screen();
  const notices = () =>
    records(logPath)
      .filter((r) => r.t === 'notice')
      .map((r) => r.text);
  assert.ok(notices().includes('ACP fixture agent cannot continue a session over ACP; started a new one'), notices().join('\n'));
  const third = lines(logPath)
    .filter((l) => l.acp)
    .at(-1)!;
  assert.is(third.via, 'new');
  assert.is.not(third.acp, first.acp);
  assert.match(cannot, 'cannot continue a session over ACP');
  assert.not.match(cannot, 'echo: third one (previous:', 'a new session: the agent has no earlier turn');
  // What it gets instead: the conversation so far, from baton's log, with the next message.
  assert.ok(notices().includes('baton gives ACP fixture agent the conversation so far with your next message'), notices().join('\n'));
  const prompts = (id: string) =>
    (JSON.parse(readFileSync(join(home.ACP_FIXTURE_HOME, `${id}.json`), 'utf8')) as { turns: { prompt: string }[] }).turns.map((t) => t.prompt);
  const [prompt] = prompts(third.acp!);
  assert.match(prompt!, /^\[baton: ACP fixture agent could not continue its earlier session in this tab/);
  assert.match(
    prompt!,
    /\nUser \([^)]+\): first one\nACP fixture agent: echo: first one\nUser \([^)]+\): second one\nACP fixture agent: echo: second one \(previous: first one\)\n/,
  );
  assert.ok(prompt!.endsWith("[End of the earlier conversation. The user's new message:]\nthird one"), prompt);

  // An agent that offers load but no longer has the session: its refusal, with the agent's details.
  await viewRun(logPath, 'fourth one', { agentEnv: { ACP_FIXTURE_HOME: join(dir, 'another-home') }, reply: briefed });
  const refused = notices().find((n) => n?.includes(`could not continue session ${third.acp}`));
  assert.match(refused ?? '', /\(Resource not found.*\); started a new one$/, notices().join('\n'));
  assert.is(
    lines(logPath)
      .filter((l) => l.acp)
      .at(-1)!.via,
    'new',
  );
});

s.run();
