// src/conversation/switch-transaction.ts through a TabSession, against an in-memory
// terminal (test/helpers/fake-agent.ts): the four outcomes of a switch, each with what the
// user is told and what the conversation holds afterwards, and a retry of the same armed
// switch, which reuses its switch id and delivers the message once.
//   not-sent              nothing sent, nothing changed (the draft goes back, the switch stays armed)
//   stopped-not-switched  the old agent stopped, the new one not launched: no handoff recorded
//   switched-not-started  the handoff recorded, the message queued; it goes once the agent runs
//   unknown               launched, the message never showed: refused sends until it does
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SendResult } from '../../src/conversation/tab-session.js';
import { TabSession } from '../../src/conversation/tab-session.js';
import type { SwitchOutcome } from '../../src/conversation/switch-transaction.js';
import type { LaunchOptions } from '../../src/plugins/api.js';
import { addAccount, removeAccount } from '../../src/plugins/account-store.js';
import { createConversation, type OpenConversation } from '../../src/transcript/store.js';
import { composeLines } from '../../src/tui/compose-lines.js';
import { CURRENT_NOTE, FRESH_NOTE, NO_CONTEXT_NOTE, RESUME_NOTE, switchNote, type AgentTarget } from '../../src/tui/agent-pick.js';
import { composeState } from '../../src/tui/compose-state.js';
import type { Entry } from '../../src/transcript/types.js';
import { FakeTerminal, fakeDriver, registryOf, type FakeDriverOptions } from '../helpers/fake-agent.js';
import { until as poll } from '../helpers/wait.js';

const TIMEOUT_MS = 120;

interface World {
  home: string;
  conv: OpenConversation;
  term: FakeTerminal;
  session: TabSession;
  beta: FakeDriverOptions & { launched: LaunchOptions[] };
  alpha: { launched: LaunchOptions[] };
  drafts: string[];
  taken: string[];
}

let w: World | undefined;

/** Polled every 5 ms: a state awaited here may last only moments. */
const until = (cond: () => boolean, what: string, ms = 5000) => poll(cond, what, ms, 5);

const handoffs = (c: OpenConversation) => c.transcript.entries.filter((e): e is Entry & { kind: 'handoff' } => e.kind === 'handoff');
const users = (c: OpenConversation) => c.transcript.entries.filter((e): e is Entry & { kind: 'user_message' } => e.kind === 'user_message');

/** A tab running Alpha after one answered turn (MARK-ONE) in its session A-1, with a switch to Beta armed. */
/** What the switch picker asks of a row: whether a switch to it resumes its agent's session here (as conversation-tabs.ts asks). */
const resumesIn =
  (session: TabSession) =>
  (t: AgentTarget): boolean =>
    session.resumes({ agent: t.name, ...(t.model ? { model: t.model } : {}), ...(t.account !== undefined ? { account: t.account } : {}) });

async function world(): Promise<World> {
  const home = mkdtempSync(join(tmpdir(), 'baton-switch-'));
  const conv = await createConversation(home, { cwd: home, title: 't', user: { type: 'user', name: 'tester', device: 'test' } });
  const term = new FakeTerminal();
  const alpha = { launched: [] as LaunchOptions[] };
  // The driver reads its options when called: a test sets `beta.launchFails` to make its launch fail.
  const beta: World['beta'] = { name: 'beta', title: 'Beta', capabilities: { resume: true, tabSession: true }, launched: [] };
  const registry = registryOf(
    fakeDriver(term, { name: 'alpha', title: 'Alpha', capabilities: { resume: true, tabSession: true }, ...alpha }),
    fakeDriver(term, beta),
  );
  const session = new TabSession({ conversation: conv, registry, terminal: term, env: {}, deliveryTimeoutMs: TIMEOUT_MS, readyTimeoutMs: 2000 });
  const drafts: string[] = [];
  const taken: string[] = [];
  session.onDraft((t) => drafts.push(t));
  session.onTaken((t) => taken.push(t));
  w = { home, conv, term, session, alpha, beta, drafts, taken };
  const started = await session.start('alpha');
  assert.is(started.kind, 'started', started.message);
  await until(() => session.status.current === 'idle', 'Alpha ready');
  const sent = await session.send('MARK-ONE');
  assert.is(sent.kind, 'delivered');
  term.emit({ type: 'session', agentSession: 'A-1' });
  term.finish();
  await until(() => session.status.current === 'idle', 'Alpha answered');
  assert.equal(session.arm('beta'), { armed: true, noContext: false });
  return w;
}

function outcomeOf(r: SendResult): SwitchOutcome {
  if (r.kind !== 'switch') throw new Error(`not a switch: ${JSON.stringify(r)}`);
  return r.outcome;
}

/** The switch id the armed switch carries (set by its first attempt). */
const armedId = (s: TabSession) => (s.snapshot().armed as { switchId?: string } | undefined)?.switchId;

const s = suite('switch transaction');
s.after.each(async () => {
  if (!w) return;
  await w.session.dispose();
  rmSync(w.home, { recursive: true, force: true });
  w = undefined;
});

s('not-sent: while the current agent works, the switch is refused and nothing is stopped, launched or recorded', async () => {
  const { conv, term, session } = await world();
  const before = conv.transcript.entries.length;
  term.set('BUSY');
  await until(() => session.status.current === 'working', 'Alpha working');
  const r = await session.send('hello beta');
  assert.is(r.kind, 'refused');
  assert.match(r.kind === 'refused' ? r.message : '', /Alpha is still working\. Nothing was sent/);
  assert.is(term.launches.length, 1, 'only Alpha was ever launched');
  assert.ok(term.isRunning());
  assert.is(conv.transcript.entries.length, before, 'nothing recorded');
  assert.is(session.snapshot().armed?.agent, 'beta', 'still armed');
});

s('not-sent: an agent that does not stop keeps running, followed as before; the draft comes back and the switch stays armed', async () => {
  const { conv, term, session } = await world();
  const before = conv.transcript.entries.length;
  term.stops = false;
  const o = outcomeOf(await session.send('hello beta'));
  assert.is(o.kind, 'not-sent', o.message);
  assert.is(o.draft, 'hello beta');
  assert.match(o.message, /Alpha did not stop\. Nothing was sent/);
  assert.is(term.launches.length, 1, 'Beta never launched');
  assert.is(conv.transcript.entries.length, before, 'nothing recorded');
  assert.is(session.snapshot().armed?.agent, 'beta');
  // Alpha goes on: its next turn (typed in its pane) is still recorded.
  term.box = 'MARK-TYPED';
  term.write('\r');
  term.finish();
  await until(() => users(conv).some((e) => e.text === 'MARK-TYPED'), 'the typed turn recorded');
});

s('stopped-not-switched: a target its driver cannot launch leaves the old agent stopped, the draft back, no handoff recorded', async () => {
  const { conv, term, session, beta } = await world();
  beta.launchFails = 'no such model';
  const o = outcomeOf(await session.send('hello beta'));
  assert.is(o.kind, 'stopped-not-switched', o.message);
  assert.is(o.draft, 'hello beta');
  assert.match(o.message, /Beta could not be launched: .*no such model.*Your message is kept/);
  assert.not.ok(term.isRunning(), 'Alpha was stopped');
  assert.is(term.launches.length, 1);
  assert.equal(
    handoffs(conv).map((h) => h.to.harness),
    ['alpha'],
    'no handoff to Beta',
  );
  assert.is(conv.transcript.currentSegment?.harness, 'alpha');
  assert.equal(
    users(conv).map((e) => e.text),
    ['MARK-ONE'],
  );
  assert.is(session.snapshot().armed?.agent, 'beta', 'still armed, to retry');
});

s('switched-not-started: the handoff is recorded and the message queued; once Beta runs, it goes once, with the brief and the switch id', async () => {
  const { conv, term, session } = await world();
  term.comesUp = false;
  const o = outcomeOf(await session.send('hello beta'));
  assert.is(o.kind, 'switched-not-started', o.message);
  assert.match(o.message, /Switched to Beta, but it did not start\. Your message is queued/);
  const [, h] = handoffs(conv);
  assert.ok(h, 'the handoff to Beta');
  assert.equal([h!.from?.harness, h!.to.harness, h!.mode], ['alpha', 'beta', 'fresh']);
  assert.equal(session.snapshot().queue, ['hello beta']);
  assert.is(term.pastes().length, 1, 'only MARK-ONE was ever typed');
  assert.is(session.snapshot().armed, undefined, 'the switch is done: a retry is the start of Beta');
  // The user starts Beta again; this time it comes up.
  term.comesUp = true;
  const again = await session.start('beta');
  assert.is(again.kind, 'started', again.message);
  await until(() => users(conv).length === 2, 'the queued message recorded');
  const pastes = term.pastes().filter((p) => p.endsWith('hello beta'));
  assert.is(pastes.length, 1, 'typed once');
  assert.match(pastes[0]!, /MARK-ONE/, 'with the brief before it');
  assert.equal(handoffs(conv).length, 2, 'no second handoff');
  assert.is(users(conv)[1]!.switchId, h!.switchId, 'recorded with the switch it belongs to');
});

s('unknown: Beta runs but never shows the message; the draft comes back, sends are refused until Beta takes it (once)', async () => {
  const { conv, term, session, drafts, taken } = await world();
  term.onEnter = () => {};
  const o = outcomeOf(await session.send('hello beta'));
  assert.is(o.kind, 'unknown', o.message);
  assert.match(o.message, /Beta is running but never showed your message/);
  assert.equal(drafts, ['hello beta']);
  assert.is(session.snapshot().unresolved, true);
  assert.equal(
    users(conv).map((e) => e.text),
    ['MARK-ONE'],
    'not recorded',
  );
  const next = await session.send('another');
  assert.is(next.kind, 'refused');
  assert.match(next.kind === 'refused' ? next.message : '', /did not finish cleanly/);
  assert.is(term.pasted('another'), 0);
  // The user presses Enter in Beta's pane: it takes the message after all.
  term.take();
  await until(() => users(conv).length === 2, 'recorded late');
  assert.equal(taken, ['hello beta'], 'the compose bar copy goes');
  assert.is(session.snapshot().unresolved, false);
  assert.is(users(conv)[1]!.switchId, handoffs(conv)[1]!.switchId);
  assert.is(term.pastes().filter((p) => p.endsWith('hello beta')).length, 1, 'typed once');
});

s('switched: Beta starts fresh with the brief and the message in one paste; one handoff, one message, one switch id', async () => {
  const { conv, term, session, beta } = await world();
  assert.is(session.snapshot().armedResumes, false, 'Beta never ran here: a fresh start');
  // The switch picker's row for Beta says the same: the conversation goes as text.
  assert.is(switchNote(false, { kind: 'agent', name: 'beta' }, resumesIn(session)), FRESH_NOTE);
  const o = outcomeOf(await session.send('hello beta'));
  assert.is(o.kind, 'switched', o.message);
  assert.is(o.message, 'Continued with Beta.');
  assert.equal(
    beta.launched.map((l) => l.resume),
    [undefined],
    'Beta never saw the conversation: no resume',
  );
  const pastes = term.pastes();
  assert.is(pastes.length, 2);
  assert.match(pastes[1]!, /MARK-ONE[^]*hello beta$/);
  const [, h] = handoffs(conv);
  assert.is(handoffs(conv).length, 2);
  assert.is(users(conv)[1]!.text, 'hello beta');
  assert.is(users(conv)[1]!.switchId, h!.switchId);
  assert.is(h!.briefChars > 0, true);
  assert.is(session.snapshot().armed, undefined);
});

s('back to Alpha: its own session resumed, and the paste carries only what it missed', async () => {
  const { conv, term, session, alpha } = await world();
  assert.is(outcomeOf(await session.send('MARK-TWO')).kind, 'switched');
  term.emit({ type: 'session', agentSession: 'B-1' });
  term.finish();
  await until(() => session.status.current === 'idle', 'Beta answered');
  // The switch picker's row for Alpha says what picking it does, as the compose bar will.
  assert.is(switchNote(false, { kind: 'agent', name: 'alpha' }, resumesIn(session)), RESUME_NOTE);
  assert.is(switchNote(false, { kind: 'agent', name: 'alpha', pickModel: true }, resumesIn(session)), RESUME_NOTE, 'another model of it: its session too');
  assert.is(switchNote(true, { kind: 'agent', name: 'alpha' }, resumesIn(session)), NO_CONTEXT_NOTE);
  assert.is(switchNote(false, { kind: 'agent', name: 'beta' }, resumesIn(session), 'beta'), CURRENT_NOTE, 'Beta runs now: no switch');
  session.arm('alpha');
  // The compose bar says what the send will do: a resume with the delta, not a replay as text.
  assert.ok(session.snapshot().armedResumes, 'the armed switch resumes A-1');
  const bar = composeState({ user: { type: 'user', name: 'tester', device: 'test' }, snap: session.snapshot(), shell: false });
  assert.match(bar.armedText?.note ?? '', /own session is resumed; your message carries only what it missed/);
  assert.not.match(composeLines(bar, { draft: '', cursor: 0, focused: false, selected: undefined }, 200, 40, 'C-b').join('\n'), /continues as text/);
  const o = outcomeOf(await session.send('MARK-THREE'));
  assert.is(o.kind, 'switched', o.message);
  assert.equal(
    alpha.launched.map((l) => l.resume),
    [undefined, 'A-1'],
  );
  const last = term.pastes().at(-1)!;
  assert.match(last, /MARK-TWO[^]*MARK-THREE$/);
  assert.not.match(last, /MARK-ONE/, 'Alpha saw that already');
  assert.is(handoffs(conv).at(-1)!.mode, 'resume');
});

s('a retry of the same armed switch reuses its switch id and delivers once', async () => {
  const { conv, term, session, beta } = await world();
  beta.launchFails = 'transient';
  assert.is(outcomeOf(await session.send('hello beta')).kind, 'stopped-not-switched');
  const id = armedId(session);
  assert.ok(id, 'the first attempt gave the switch its id');
  beta.launchFails = undefined;
  const o = outcomeOf(await session.send('hello beta'));
  assert.is(o.kind, 'switched', o.message);
  const toBeta = handoffs(conv).filter((h) => h.to.harness === 'beta');
  assert.equal(
    toBeta.map((h) => h.switchId),
    [id],
    "one handoff, with the first attempt's id",
  );
  assert.equal(
    users(conv)
      .filter((e) => e.text === 'hello beta')
      .map((e) => e.switchId),
    [id],
    'one message, with that id',
  );
  assert.is(term.pastes().filter((p) => p.endsWith('hello beta')).length, 1, 'typed once');
});

s('nothing said yet: another agent takes the tab at once (startInstead), and one that does not stop changes nothing', async () => {
  const home = mkdtempSync(join(tmpdir(), 'baton-switch-'));
  const conv = await createConversation(home, { cwd: home, title: 't', user: { type: 'user', name: 'tester', device: 'test' } });
  const term = new FakeTerminal();
  const alpha = { launched: [] as LaunchOptions[] };
  const beta: World['beta'] = { name: 'beta', title: 'Beta', launched: [] };
  const registry = registryOf(fakeDriver(term, { name: 'alpha', title: 'Alpha', ...alpha }), fakeDriver(term, beta));
  const session = new TabSession({ conversation: conv, registry, terminal: term, env: {}, deliveryTimeoutMs: TIMEOUT_MS, readyTimeoutMs: 2000 });
  w = { home, conv, term, session, alpha, beta, drafts: [], taken: [] };
  assert.is((await session.start('alpha')).kind, 'started');
  assert.is(session.snapshot().noContext, true);
  term.stops = false;
  const stuck = await session.startInstead('beta');
  assert.is(stuck.kind, 'not-sent', stuck.message);
  assert.match(stuck.message, /Alpha did not stop\. Nothing changed/);
  assert.equal([session.snapshot().agent, beta.launched.length, term.launches.length], ['alpha', 0, 1]);
  term.stops = true;
  const o = await session.startInstead('beta');
  assert.is(o.kind, 'started', o.message);
  assert.equal([session.snapshot().agent, beta.launched.length, term.launches.length], ['beta', 1, 2]);
  assert.equal(
    handoffs(conv).map((h) => h.to.harness),
    ['alpha', 'beta'],
  );
});

s('another account of the same agent, armed in the tab: a switch that launches it under that account, fresh with the brief', async () => {
  const home = mkdtempSync(join(tmpdir(), 'baton-switch-acct-'));
  const conv = await createConversation(home, { cwd: home, title: 't', user: { type: 'user', name: 'tester', device: 'test' } });
  const env = { BATON_HOME: home };
  addAccount(env, 'alpha', 'work');
  addAccount(env, 'alpha', 'home');
  const term = new FakeTerminal();
  const alpha = { launched: [] as LaunchOptions[] };
  const registry = registryOf(fakeDriver(term, { name: 'alpha', title: 'Alpha', capabilities: { resume: true, tabSession: true, accounts: true }, ...alpha }));
  const session = new TabSession({ conversation: conv, registry, terminal: term, env, deliveryTimeoutMs: TIMEOUT_MS, readyTimeoutMs: 2000 });
  try {
    assert.is((await session.start('alpha', undefined, 'work')).kind, 'started');
    await until(() => session.status.current === 'idle', 'Alpha ready');
    assert.is((await session.send('MARK-WORK')).kind, 'delivered');
    term.emit({ type: 'session', agentSession: 'W-1' });
    term.finish();
    await until(() => session.status.current === 'idle', 'Alpha answered');
    assert.is(session.snapshot().account, 'work', 'the tab says which account it runs under');
    assert.equal(session.arm('alpha', undefined, 'work'), { armed: false, noContext: false }, 'the account it runs under: nothing to switch');
    assert.equal(session.arm('alpha', undefined, 'home'), { armed: true, noContext: false });
    assert.is(session.snapshot().armed?.title, 'Alpha (account home)');
    const o = outcomeOf(await session.send('hello home'));
    assert.is(o.kind, 'switched', o.message);
    assert.equal(
      alpha.launched.map((l) => [l.account, l.resume]),
      [
        ['work', undefined],
        ['home', undefined],
      ],
      "launched under home, not resuming work's session",
    );
    assert.is(session.snapshot().account, 'home');
    const h = handoffs(conv).pop()!;
    assert.equal([h.from?.harness, h.to.harness, h.account, h.fromAccount, h.mode], ['alpha', 'alpha', 'home', 'work', 'fresh']);
    assert.match(term.pastes().pop()!, /MARK-WORK[^]*hello home$/, "the brief carries the work account's turn");
    // The account the conversation runs under is removed: starting the agent again is refused, not made anew empty.
    removeAccount(env, 'alpha', 'home');
    const again = await session.startInstead('alpha');
    assert.match(again.message, /alpha has no account "home"/);
    assert.not.ok(existsSync(join(home, 'accounts/alpha/home')), 'not made again');
  } finally {
    await session.dispose();
    rmSync(home, { recursive: true, force: true });
  }
});

s.run();
