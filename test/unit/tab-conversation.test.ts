// src/conversation/tab-conversation.ts (with fork-history.ts): the commands a tab's
// conversation takes besides sending, against an in-memory terminal (test/helpers/fake-agent.ts).
// Reset and its undo: the facts the dialog shows first, refused while the agent works (nothing
// changes), the history hidden or brought back and the agent stopped so the next message starts
// it afresh; close: the agent gone, the conversation closed, what it was said once. The fork
// itself needs git (it looks for a repository to copy checkpoints in): test/integration/tab-conversation.test.ts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatonError, EXIT } from '../../src/errors.js';
import { TabConversation } from '../../src/conversation/tab-conversation.js';
import { TabSession } from '../../src/conversation/tab-session.js';
import { createConversation, openConversation, type OpenConversation } from '../../src/transcript/store.js';
import { FakeTerminal, fakeDriver, registryOf } from '../helpers/fake-agent.js';
import { until as poll } from '../helpers/wait.js';

interface World {
  home: string;
  conv: OpenConversation;
  term: FakeTerminal;
  tab: TabConversation;
  /** The seqs of the two user messages (MARK-ONE, MARK-TWO). */
  one: number;
  two: number;
}

let w: World | undefined;

/** Polled every 5 ms: a state awaited here may last only moments. */
const until = (cond: () => boolean, what: string, ms = 5000) => poll(cond, what, ms, 5);

const userSeq = (c: OpenConversation, text: string) => c.transcript.entries.find((e) => e.kind === 'user_message' && e.text === text)!.seq;
const shownTexts = (tab: TabConversation) =>
  tab
    .transcript()
    .visible()
    .flatMap((e) => (e.kind === 'user_message' ? [e.text] : []));

/** A tab running Alpha after two answered turns, MARK-ONE and MARK-TWO. */
async function world(): Promise<World> {
  const home = mkdtempSync(join(tmpdir(), 'baton-tabconv-'));
  const conv = await createConversation(home, { cwd: home, title: 't', user: { type: 'user', name: 'tester', device: 'test' } });
  const term = new FakeTerminal();
  const registry = registryOf(fakeDriver(term, { name: 'alpha', title: 'Alpha', capabilities: { resume: true, tabSession: true } }));
  const session = new TabSession({ conversation: conv, registry, terminal: term, env: {}, deliveryTimeoutMs: 120, readyTimeoutMs: 2000 });
  const tab = new TabConversation(session, { home, registry, env: {} });
  w = { home, conv, term, tab, one: 0, two: 0 };
  assert.is((await tab.start('alpha')).kind, 'started');
  for (const text of ['MARK-ONE', 'MARK-TWO']) {
    await until(() => tab.snapshot().status === 'idle', 'Alpha idle');
    assert.is((await tab.send(text)).kind, 'delivered');
    term.finish();
  }
  await until(() => tab.snapshot().status === 'idle', 'Alpha answered');
  w.one = userSeq(conv, 'MARK-ONE');
  w.two = userSeq(conv, 'MARK-TWO');
  return w;
}

const s = suite('tab conversation: reset, undo, close');
s.after.each(async () => {
  if (!w) return;
  await w.tab.close();
  rmSync(w.home, { recursive: true, force: true });
  w = undefined;
});

s('reset facts: the entry in one line, how many entries it hides, no checkpoint to restore; refused while Alpha works', async () => {
  const { tab, term, one } = await world();
  const facts = tab.resetFacts(one, { alpha: 'Alpha' });
  if ('refused' in facts) throw new Error(facts.refused);
  assert.match(facts.entry, /MARK-ONE/);
  // Alpha's answer to MARK-ONE, MARK-TWO and its answer.
  assert.is(facts.hidden, 3);
  assert.is(facts.canRestore, false);
  assert.is(facts.agentTitle, 'Alpha');
  term.set('BUSY');
  await until(() => tab.snapshot().status === 'working', 'Alpha working');
  const busy = tab.resetFacts(one, {});
  assert.ok('refused' in busy);
  assert.match('refused' in busy ? busy.refused : '', /Alpha is still working\. Nothing was reset/);
});

s('reset facts: the last entry hides nothing and is refused', async () => {
  const { tab, conv } = await world();
  const facts = tab.resetFacts(conv.transcript.lastSeq, {});
  assert.equal(facts, { refused: `#${conv.transcript.lastSeq} is the last entry: a reset to it would hide nothing.` });
});

s('reset: later entries are hidden (not deleted), Alpha is stopped, and its restart is armed for the next message', async () => {
  const { tab, term, conv, one } = await world();
  const before = conv.transcript.entries.length;
  const done = await tab.reset(one);
  assert.equal(done, { seq: one, hidden: 3, restored: false, stoppedTitle: 'Alpha' });
  assert.equal(shownTexts(tab), ['MARK-ONE']);
  assert.is(conv.transcript.entries.length, before + 1, 'one reset entry added, nothing removed');
  assert.not.ok(term.isRunning(), 'Alpha stopped');
  const snap = tab.snapshot();
  assert.is(snap.running, false);
  assert.is(snap.armed?.agent, 'alpha', 'the next message starts Alpha afresh');
});

s('reset: refused while Alpha works: nothing hidden, Alpha still runs', async () => {
  const { tab, term, conv, one } = await world();
  const before = conv.transcript.entries.length;
  term.set('BUSY');
  await until(() => tab.snapshot().status === 'working', 'Alpha working');
  const r = await tab.reset(one);
  assert.ok('refused' in r);
  assert.is(conv.transcript.entries.length, before);
  assert.ok(term.isRunning());
  assert.equal(shownTexts(tab), ['MARK-ONE', 'MARK-TWO']);
});

s('reset: an entry that does not exist is a BatonError (no such entry) and changes nothing', async () => {
  const { tab, term, conv } = await world();
  const before = conv.transcript.entries.length;
  const err = await tab.reset(999).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.instance(err, BatonError);
  assert.is((err as BatonError).exitCode, EXIT.noSuchEntry);
  assert.is(conv.transcript.entries.length, before);
  assert.ok(term.isRunning(), 'Alpha was not stopped');
});

s('undo: nothing to undo before a reset; after one, what comes back is counted, then brought back and Alpha stopped again', async () => {
  const { tab, term, one } = await world();
  assert.equal(tab.undoFacts(), { refused: 'No reset to undo in this conversation.' });
  assert.equal(await tab.undo(), { refused: 'No reset to undo in this conversation.' });
  await tab.reset(one);
  // Alpha runs again (the user started it), then the reset is undone.
  assert.is((await tab.start('alpha')).kind, 'started');
  await until(() => tab.snapshot().status === 'idle', 'Alpha idle again');
  assert.equal(tab.undoFacts(), { toSeq: one, back: 3, runningTitle: 'Alpha' });
  const done = await tab.undo();
  assert.equal(done, { toSeq: one, back: 3, stoppedTitle: 'Alpha' });
  assert.equal(shownTexts(tab), ['MARK-ONE', 'MARK-TWO']);
  assert.not.ok(term.isRunning(), 'Alpha stopped: its session never saw what came back');
  assert.equal(tab.undoFacts(), { refused: 'No reset to undo in this conversation.' });
});

s('undo: refused while Alpha works', async () => {
  const { tab, term, one } = await world();
  await tab.reset(one);
  assert.is((await tab.start('alpha')).kind, 'started');
  await until(() => tab.snapshot().status === 'idle', 'Alpha idle again');
  term.set('BUSY');
  await until(() => tab.snapshot().status === 'working', 'Alpha working');
  assert.match('refused' in tab.undoFacts() ? (tab.undoFacts() as { refused: string }).refused : '', /Nothing was undone/);
  const r = await tab.undo();
  assert.ok('refused' in r);
  assert.equal(shownTexts(tab), ['MARK-ONE']);
  assert.ok(term.isRunning());
});

s('close: the agent is stopped, the conversation closed (another writer may open it), its facts given back; twice is once', async () => {
  const { tab, term, home, conv } = await world();
  const first = tab.close();
  const second = tab.close();
  assert.is(first, second);
  assert.equal(await first, { id: conv.id, title: 't', cwd: home });
  assert.not.ok(term.isRunning());
  const again = await openConversation(home, conv.id, { write: true });
  assert.equal(
    again.transcript.entries.flatMap((e) => (e.kind === 'user_message' ? [e.text] : [])),
    ['MARK-ONE', 'MARK-TWO'],
  );
  await again.close();
});

s.run();
