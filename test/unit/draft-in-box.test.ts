// A draft the user left in the CLI's own input box, and a message sent from the compose bar
// (src/conversation/tab-session-delivery.ts, received-text.ts), through a TabSession and the
// in-memory CLI of test/helpers/fake-agent.ts. A driver that can read its box holds the message
// (queued, the notice says why) until the box is empty, then sends it alone; one that cannot has
// the paste joined to the draft, and the transcript records what the CLI received, once, by the
// compose message's author. (On main the transcript recorded only the compose text, and a draft
// after the paste left the message unclaimed: recorded as typed in the pane, and reported back
// as not taken.)
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { UserAuthor } from '../../src/transcript/types.js';
import { fakeSessions } from '../helpers/fake-session.js';
import { until as poll } from '../helpers/wait.js';

const s = suite('draft in the input box');
const start = fakeSessions(s, 'baton-draft-');

const ALICE: UserAuthor = { type: 'user', name: 'alice', device: 'laptop' };
const PANE_TYPIST: UserAuthor = { type: 'user', name: 'pane', device: 'here' };

async function started(readsInput: boolean) {
  const { term, session, conv } = await start({ readsInput }, { typist: () => PANE_TYPIST });
  const users = () => conv.transcript.entries.flatMap((e) => (e.kind === 'user_message' ? [{ text: e.text, author: (e.author as UserAuthor).name }] : []));
  return { term, session, users };
}

/** Polled every 5 ms: a state awaited here may last only moments. */
const until = (ok: () => boolean, ms = 5000) => poll(ok, 'in time', ms, 5);

s("a driver that cannot read its box: a draft before the paste is recorded with it, as the CLI received it, by the message's author", async () => {
  const { term, session, users } = await started(false);
  term.box = 'ow QMARK-1 [[x]]';
  const r = await session.send('queued QMARK-2', ALICE);
  assert.is(r.kind, 'delivered');
  assert.equal(users(), [{ text: 'ow QMARK-1 [[x]]queued QMARK-2', author: 'alice' }]);
});

s('a draft after the paste (typed before its Enter): the message is still claimed, recorded whole, once, and reported delivered', async () => {
  const { term, session, users } = await started(false);
  term.onEnter = (box) => {
    term.box = `${box} and this`;
    term.take();
  };
  const r = await session.send('queued QMARK-3', ALICE);
  assert.is(r.kind, 'delivered');
  assert.equal(users(), [{ text: 'queued QMARK-3 and this', author: 'alice' }]);
});

s('no draft: recorded as sent (the normal case unchanged)', async () => {
  const { session, users } = await started(true);
  assert.is((await session.send('plain QMARK-4', ALICE)).kind, 'delivered');
  assert.equal(users(), [{ text: 'plain QMARK-4', author: 'alice' }]);
});

s(
  'a driver that reads its box: the message waits, said in one line; sent alone once the draft is sent in the pane, each recorded by its own author, in order',
  async () => {
    const { term, session, users } = await started(true);
    term.box = 'ow QMARK-5';
    term.output();
    const r = await session.send('queued QMARK-6', ALICE);
    assert.is(r.kind, 'queued');
    assert.match(r.kind === 'queued' ? r.message : '', /input box has text of yours: send it \(Enter in its pane\) or clear it there first/);
    assert.equal(term.pastes(), [], 'nothing typed into the CLI');
    assert.is(session.snapshot().queue.length, 1);
    // The user sends the draft in the pane; the turn ends; then the queued message goes, alone.
    term.take();
    await until(() => users().length === 1);
    term.finish();
    await until(() => users().length === 2);
    assert.equal(term.pastes(), ['queued QMARK-6']);
    assert.equal(users(), [
      { text: 'ow QMARK-5', author: 'pane' },
      { text: 'queued QMARK-6', author: 'alice' },
    ]);
  },
);

s('a driver that reads its box: the draft cleared there, the message goes once the log has had a while to show the draft sent (it does not)', async () => {
  const { term, session, users } = await started(true);
  term.box = 'never mind';
  term.output();
  assert.is((await session.send('queued QMARK-7', ALICE)).kind, 'queued');
  term.box = '';
  term.output();
  await new Promise((r) => setTimeout(r, 1000));
  assert.equal(term.pastes(), [], 'not at once: the CLI may be starting a turn on the draft');
  await until(() => users().length === 1, 10_000);
  assert.equal(users(), [{ text: 'queued QMARK-7', author: 'alice' }]);
  assert.equal(term.pastes(), ['queued QMARK-7']);
});

s.run();
