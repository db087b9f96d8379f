// src/conversation/tab-session.ts with delivery.ts and agent-status.ts: the queue, delivery
// and status, against an in-memory AgentTerminal whose screen and "log" the test controls
// (issue 9, items 3 and 4). What the CLI receives, what the transcript records and what the
// compose bar is handed always agree: a message the CLI did not take is never typed again
// (Gemini got "q1q1" once the queue re-typed it into an input box still holding it); one it
// takes late is recorded once and its compose-bar copy dropped; the notice says where the
// message is; nothing is typed while the log says a turn is open, nor while the screen shows
// a dialog (an Enter would answer it), nor into a message still on its way in.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentStatusTracker, STALE_TURN_MS, STARTUP_MS } from '../../src/conversation/agent-status.js';
import { TabSession } from '../../src/conversation/tab-session.js';
import { createConversation, type OpenConversation } from '../../src/transcript/store.js';
import { FakeTerminal, fakeDriver, PASTE, registryOf } from '../helpers/fake-agent.js';
import type { UserAuthor } from '../../src/transcript/types.js';
import { until as poll } from '../helpers/wait.js';

interface World {
  home: string;
  conv: OpenConversation;
  term: FakeTerminal;
  session: TabSession;
  drafts: string[];
  taken: string[];
}

const TIMEOUT_MS = 120;
let w: World | undefined;

async function world(opts: { checkpoint?: (seq: number) => Promise<string | undefined>; typist?: () => UserAuthor | undefined } = {}): Promise<World> {
  const home = mkdtempSync(join(tmpdir(), 'baton-queue-'));
  const conv = await createConversation(home, { cwd: home, title: 't', user: { type: 'user', name: 'tester', device: 'test' } });
  const term = new FakeTerminal();
  const session = new TabSession({
    conversation: conv,
    registry: registryOf(fakeDriver(term)),
    terminal: term,
    env: {},
    deliveryTimeoutMs: TIMEOUT_MS,
    checkpoint: opts.checkpoint,
    ...(opts.typist ? { typist: opts.typist } : {}),
  });
  const drafts: string[] = [];
  const taken: string[] = [];
  session.onDraft((t: string) => drafts.push(t));
  session.onTaken((t: string) => taken.push(t));
  w = { home, conv, term, session, drafts, taken };
  const started = await session.start('fake');
  assert.is(started.kind, 'started', started.message);
  term.output();
  await until(() => session.status.current === 'idle', 'the CLI ready');
  return w;
}

/** Polled every 5 ms: a state awaited here may last only moments. */
const until = (cond: () => boolean, what: string, ms = 5000) => poll(cond, what, ms, 5);

const users = (c: OpenConversation) => c.transcript.entries.flatMap((e) => (e.kind === 'user_message' ? [e.text] : []));

const s = suite('tab-session queue');
s.after.each(async () => {
  if (!w) return;
  await w.session.dispose();
  rmSync(w.home, { recursive: true, force: true });
  w = undefined;
});

s('a queued message the CLI did not take is never typed again: it goes back to the compose bar, not to the queue', async () => {
  const { term, session } = await world();
  // A turn runs; q1 is queued behind it.
  term.write('\x1b[200~first\x1b[201~');
  term.write('\r');
  await until(() => session.status.current === 'working', 'the typed turn running');
  const queued = await session.send('q1');
  assert.is(queued.kind, 'queued');
  // The CLI drops every Enter from now on: q1 stays in its input box.
  term.onEnter = () => {};
  term.finish();
  await until(() => term.pasted('q1') === 1, 'q1 typed once the turn ended');
  await until(() => term.enters === 3, 'its Enter and the retry Enter');
  await new Promise((r) => setTimeout(r, 2 * TIMEOUT_MS));
  assert.is(term.box, 'q1', 'it sits in the input box');
  // The CLI goes on (busy a moment, then its prompt again): nothing is typed again.
  for (let i = 0; i < 3; i++) {
    term.set('BUSY');
    term.set('READY');
    await new Promise((r) => setTimeout(r, 2 * TIMEOUT_MS));
  }
  assert.is(term.pasted('q1'), 1, 'q1 typed once, ever');
  assert.equal(session.snapshot().queue, [], 'not back in the queue');
  assert.equal(w!.drafts, ['q1'], 'back in the compose bar');
  assert.is(term.enters, 3, 'the first Enter of "first", then one Enter and one retry for q1');
});

s(
  'while the input box still holds a message the CLI did not take, a new message is queued, not typed into it; once it is cleared there, the new one goes',
  async () => {
    const { term, session } = await world();
    term.onEnter = () => {};
    const r = await session.send('q1');
    assert.is(r.kind, 'failed');
    assert.is(term.box, 'q1');
    const next = await session.send('q2');
    assert.is(next.kind, 'queued');
    assert.match(next.kind === 'queued' ? next.message : '', /input box still holds a message of yours/);
    term.output();
    await new Promise((r) => setTimeout(r, TIMEOUT_MS));
    assert.is(term.pasted('q2'), 0, 'nothing typed over it');
    // The user clears the box in the pane; the CLI takes input again.
    term.onEnter = () => term.take();
    term.box = '';
    term.output();
    await until(() => users(w!.conv).includes('q2'), 'q2 delivered');
    assert.is(term.pasted('q2'), 1);
    assert.is(term.pasted('q1'), 1);
  },
);

s('a message the CLI takes after delivery gave up (Enter pressed in its pane) is recorded once, and its compose-bar copy is dropped', async () => {
  const { conv, term, session } = await world();
  term.onEnter = () => {};
  const r = await session.send('late one');
  assert.is(r.kind, 'failed');
  // The user presses Enter in the pane: the CLI takes it now.
  term.take();
  term.finish();
  await until(() => session.status.current === 'idle', 'idle again');
  assert.equal(users(conv), ['late one'], 'recorded once, as the user wrote it');
  assert.equal(w!.drafts, ['late one'], 'it had been handed back to the compose bar');
  assert.equal(w!.taken, ['late one'], 'the compose bar is told to drop its copy');
  assert.match(session.snapshot().notice ?? '', /took your message after all: it is recorded once/);
  assert.is(term.pasted('late one'), 1);
});

s("the notice says where an undelivered message is: in the compose bar (and still in the CLI's input box, when it shows there)", async () => {
  const { term, session } = await world();
  term.onEnter = () => {};
  await session.send('stuck in the box');
  const inBox = session.snapshot().notice ?? '';
  assert.match(inBox, /It still shows in Fake CLI's input box/);
  assert.match(inBox, /A copy is back in the compose bar/);
  assert.equal(w!.drafts, ['stuck in the box']);
  assert.equal(session.snapshot().queue, [], 'and nowhere else');

  // The CLI swallows the next one: gone from the box, never in the log.
  term.box = '';
  term.onEnter = () => {
    term.box = '';
  };
  term.output();
  await session.send('swallowed');
  const gone = session.snapshot().notice ?? '';
  assert.match(gone, /It is back in the compose bar, not sent/);
  assert.not.match(gone, /input box/);
  assert.equal(w!.drafts, ['stuck in the box', 'swallowed']);
  assert.equal(session.snapshot().queue, []);
});

s("idle is not taken from the screen while the log says a turn is open: a message waits for the log's turn end", async () => {
  const { term, session } = await world();
  // A message typed in the pane: the log opens a turn, but the screen still shows the prompt.
  term.history.push('> typed in the pane');
  term.emit({ type: 'user_text', text: 'typed in the pane' });
  term.state = 'READY';
  term.output();
  assert.is(session.status.current, 'working');
  const r = await session.send('after it');
  assert.is(r.kind, 'queued');
  term.output();
  await new Promise((r) => setTimeout(r, TIMEOUT_MS));
  assert.is(term.pasted('after it'), 0, 'nothing typed while the log says a turn is open');
  term.emit({ type: 'turn_end' });
  await until(() => term.pasted('after it') === 1, 'typed once the log ended the turn');
});

s('a turn the log ended while the screen still says working is working', async () => {
  const { term, session } = await world();
  term.set('BUSY');
  term.emit({ type: 'turn_end' });
  assert.is(session.status.current, 'working');
  const r = await session.send('later');
  assert.is(r.kind, 'queued');
  term.set('READY');
  await until(() => term.pasted('later') === 1, 'typed once the screen agrees');
});

s(
  'a dialog on the screen is approval: a message is queued, not typed (its Enter would answer the dialog); answered in the pane, the message goes once',
  async () => {
    const { term, session } = await world();
    term.set('DIALOG');
    // (The screen is read once the CLI's output settles.)
    await until(() => session.status.current === 'approval', 'the dialog read as approval');
    const r = await session.send('hello');
    assert.is(r.kind, 'queued');
    assert.match(r.kind === 'queued' ? r.message : '', /Fake CLI needs you first: answer it in its pane/);
    term.output();
    await new Promise((r) => setTimeout(r, TIMEOUT_MS));
    assert.equal(term.writes, [], 'nothing typed into the dialog');
    term.set('READY');
    await until(() => users(w!.conv).includes('hello'), 'sent once the dialog is gone');
    assert.is(term.pasted('hello'), 1);
  },
);

s('the retry Enter is not pressed while a dialog shows (it would answer it)', async () => {
  const { term, session } = await world();
  // The paste arrives, the Enter is lost, and a dialog comes up before the retry.
  term.onEnter = () => {
    if (term.enters === 1) setTimeout(() => term.set('DIALOG'), 10);
  };
  const r = await session.send('before the dialog');
  assert.is(r.kind, 'failed');
  assert.is(term.enters, 1, 'no Enter into the dialog');
  assert.is(session.status.current, 'approval');
});

s('a message sent while another is on its way in (its checkpoint being taken) is queued behind it, not typed into it', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const { term, session } = await world({
    checkpoint: async () => {
      await gate;
      return undefined;
    },
  });
  const first = session.send('first');
  const second = session.send('second');
  await new Promise((r) => setTimeout(r, 20));
  release();
  assert.is((await second).kind, 'queued', 'second waits');
  assert.is((await first).kind, 'delivered');
  assert.is(term.pasted('second'), 0, 'not typed into the first');
  term.finish();
  await until(() => users(w!.conv).length === 2, 'the second delivered after the first turn');
  assert.equal(users(w!.conv), ['first', 'second']);
  assert.equal(
    term.writes.filter((x) => PASTE.test(x)),
    ['\x1b[200~first\x1b[201~', '\x1b[200~second\x1b[201~'],
  );
});

s('messages from several clients share one queue in arrival order, each recorded with its author (issue 12 item 4)', async () => {
  const { conv, term, session } = await world();
  const ana = { type: 'user', name: 'ana', device: 'laptop' } as const;
  const bo = { type: 'user', name: 'bo', device: 'desk' } as const;
  // The first goes straight in; the rest queue behind its turn, whoever wrote them.
  assert.is((await session.send('from ana 1', ana)).kind, 'delivered');
  assert.is((await session.send('from bo 1', bo)).kind, 'queued');
  assert.is((await session.send('from ana 2', ana)).kind, 'queued');
  assert.is((await session.send('from the owner')).kind, 'queued');
  assert.equal(session.snapshot().queue, ['from bo 1', 'from ana 2', 'from the owner']);
  assert.equal(session.queueAuthors, [bo, ana, undefined]);
  // Each turn ends; the next queued message goes, one per turn.
  for (let i = 0; i < 3; i++) {
    const before = users(conv).length;
    term.finish();
    await until(() => users(conv).length === before + 1, `queued message ${i + 1} delivered`);
  }
  const who = conv.transcript.entries.flatMap((e) =>
    e.kind === 'user_message' && e.author.type === 'user' ? [`${e.author.name}@${e.author.device}: ${e.text}`] : [],
  );
  assert.equal(who, ['ana@laptop: from ana 1', 'bo@desk: from bo 1', 'ana@laptop: from ana 2', 'tester@test: from the owner']);
});

s("a message typed straight into the pane is recorded as whoever typed into the tab last; with no one known, as the conversation's user", async () => {
  let typist: UserAuthor | undefined = { type: 'user', name: 'bo', device: 'desk' };
  const { conv, term } = await world({ typist: () => typist });
  term.emit({ type: 'user_text', text: 'typed by bo' });
  term.finish();
  typist = undefined;
  term.emit({ type: 'user_text', text: 'typed by nobody known' });
  const who = conv.transcript.entries.flatMap((e) => (e.kind === 'user_message' && e.author.type === 'user' ? [`${e.author.name}: ${e.text}`] : []));
  assert.equal(who, ['bo: typed by bo', 'tester: typed by nobody known']);
});

s('a queued message is deleted only while it is still the one the compose bar showed at that place', async () => {
  const { term, session } = await world();
  term.set('BUSY');
  await until(() => session.status.current === 'working', 'a turn running');
  await session.send('q1');
  await session.send('q2');
  assert.is(session.deleteQueued(0, 'q2'), undefined, 'q1 is first: nothing deleted');
  assert.equal(session.snapshot().queue, ['q1', 'q2']);
  assert.is(session.deleteQueued(1, 'q2'), 'q2');
  assert.equal(session.snapshot().queue, ['q1']);
});

s.run();

// The status tracker alone, on a clock of its own.
const t = suite('agent-status');

t('a screen reading idle while the log has a turn open is not idle, however long after the last event (until the log has been silent for long)', () => {
  let now = 0;
  const st = new AgentStatusTracker(() => now);
  st.launched();
  st.screen('idle');
  assert.is(st.current, 'idle');
  st.event({ type: 'user_text', text: 'go' });
  now = 5_000;
  st.screen('idle');
  assert.is(st.current, 'working', 'the log says a turn is open');
  st.event({ type: 'turn_end' });
  assert.is(st.current, 'idle');
  // The reverse: the log closed the turn, the screen still works.
  st.screen('working');
  assert.is(st.current, 'working');
  st.screen('idle');
  assert.is(st.current, 'idle');
  // A turn the log never closes (an interrupt it does not record) ends once the log stayed
  // silent that long under an idle screen.
  st.event({ type: 'user_text', text: 'interrupted' });
  now = 12_000;
  st.screen('idle');
  assert.is(st.current, 'working', 'the log has been silent only 7 s');
  now = 15_000;
  st.screen('idle');
  assert.is(st.current, 'idle');
});

t("after the log's turn end, a working screen that has not changed for long is words left in the history, not a spinner", () => {
  let now = 0;
  const st = new AgentStatusTracker(() => now);
  st.launched();
  st.screen('idle', 0);
  st.event({ type: 'user_text', text: 'go' });
  st.screen('working', 0);
  now = 1_000;
  st.event({ type: 'turn_end' });
  st.screen('working', 1_000);
  assert.is(st.current, 'working', 'the screen still says working: it may be');
  now = 8_000;
  st.screen('working', 7_500);
  assert.is(st.current, 'working', 'and it is still changing (a spinner)');
  now = 17_000;
  st.screen('working', 7_500);
  assert.is(st.current, 'working', 'not long enough');
  now = 18_000;
  st.screen('working', 7_500);
  assert.is(st.current, 'idle', 'unchanged for 10 s after the turn end');
});

t('a dialog on the screen is approval whatever the log says; a fresh launch is not idle until its screen says so', () => {
  let now = 0;
  const st = new AgentStatusTracker(() => now);
  st.launched();
  assert.is(st.current, 'working', 'starting');
  st.screen(undefined);
  assert.is(st.current, 'working', 'a blank screen says nothing');
  st.screen('approval');
  assert.is(st.current, 'approval', 'a trust dialog before anything else');
  st.screen(undefined);
  assert.is(st.current, 'approval', 'a frame the driver cannot place does not end it');
  st.screen('idle');
  assert.is(st.current, 'idle');
  st.event({ type: 'turn_end' });
  st.screen('approval');
  assert.is(st.current, 'approval');
  now = 60_000;
  st.screen('approval');
  assert.is(st.current, 'approval');
});

t('nextChangeAt says when time alone would change the status, and at that moment a reading of the same screen does; nothing is ahead otherwise', () => {
  let now = 1_000;
  const st = new AgentStatusTracker(() => now);
  st.launched();
  // Starting: working until the screen says something, or until start-up has waited long enough.
  assert.is(st.nextChangeAt(), 1_000 + STARTUP_MS);
  st.screen('idle', now);
  assert.is(st.current, 'idle');
  assert.is(st.nextChangeAt(), undefined, 'idle, and nothing open: no timer needed');
  // A turn the log never closes under an idle screen: over once the log has been silent long enough.
  now = 2_000;
  st.event({ type: 'user_text', text: 'interrupted' });
  st.screen('idle', now);
  assert.is(st.current, 'working');
  assert.is(st.nextChangeAt(), 2_000 + STALE_TURN_MS);
  now = 5_000;
  st.event({ type: 'agent_text', text: 'more' });
  assert.is(st.nextChangeAt(), 5_000 + STALE_TURN_MS, 'later news moves the moment');
  now = 5_000 + STALE_TURN_MS - 1;
  st.screen('idle', 2_000);
  assert.is(st.current, 'working');
  now = 5_000 + STALE_TURN_MS;
  st.screen('idle', 2_000);
  assert.is(st.current, 'idle');
  assert.is(st.nextChangeAt(), undefined);
  // A working screen under an open turn: only the log (or the screen) can end it.
  st.event({ type: 'user_text', text: 'go' });
  st.screen('working', now);
  assert.is(st.nextChangeAt(), undefined);
  // After the turn end, a working screen left standing is history once unchanged long enough.
  now += 1_000;
  const end = now;
  st.event({ type: 'turn_end' });
  st.screen('working', end - 500);
  assert.is(st.current, 'working');
  assert.is(st.nextChangeAt(), end + STALE_TURN_MS);
  now = end + STALE_TURN_MS;
  st.screen('working', end - 500);
  assert.is(st.current, 'idle');
  assert.is(st.nextChangeAt(), undefined, 'a moment passed is never asked for again');
  // A dialog waits for the user, however long.
  st.screen('approval', now);
  assert.is(st.nextChangeAt(), undefined);
  st.exited();
  assert.is(st.nextChangeAt(), undefined);
});

t.run();
