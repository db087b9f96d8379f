// Messages queued in a tab before a switch was armed (src/conversation/tab-session.ts send,
// tab-session-delivery.ts drainQueue), through a TabSession and the in-memory CLI of
// test/helpers/fake-agent.ts: they were written to the agent that runs, so they go to it, in
// order, once it is idle, and the armed switch's message comes after them, to the new agent.
// Before, an armed switch held the queue: the switch's message went first, with the brief, and
// the queued one followed it to the new agent (found by hand: Claude's queued "QS1" reached
// Codex after the switch message).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fakeDriver } from '../helpers/fake-agent.js';
import { fakeSessions } from '../helpers/fake-session.js';
import { until as poll } from '../helpers/wait.js';

const s = suite('queued before a switch');
const startSession = fakeSessions(s, 'baton-queue-switch-');

const until = (cond: () => boolean, what: string, ms = 5000) => poll(cond, what, ms, 5);

/** A tab running Alpha, Beta installed beside it. */
async function world() {
  const caps = { resume: true, tabSession: true };
  const { term, session, conv } = await startSession(
    (term) => [fakeDriver(term, { name: 'alpha', title: 'Alpha', capabilities: caps }), fakeDriver(term, { name: 'beta', title: 'Beta', capabilities: caps })],
    { readyTimeoutMs: 2000 },
  );
  const users = () => conv.transcript.entries.flatMap((e) => (e.kind === 'user_message' ? [e.text] : []));
  return { term, session, users };
}

s('a message queued while Alpha works goes to Alpha though a switch was armed after it; the switch goes after it', async () => {
  const { term, session, users } = await world();
  assert.is((await session.send('FIRST')).kind, 'delivered');
  term.emit({ type: 'session', agentSession: 'A-1' });
  assert.is((await session.send('QUEUED-BEFORE')).kind, 'queued');
  assert.ok(session.arm('beta').armed, 'the switch arms while Alpha works');
  const early = await session.send('OVER-TO-BETA');
  assert.is(early.kind, 'refused', 'Alpha still works');
  term.finish();
  // Alpha is idle: the queued message goes to it, not held behind the armed switch.
  await until(() => users().includes('QUEUED-BEFORE'), 'the queued message delivered');
  assert.is(term.pasted('QUEUED-BEFORE'), 1);
  assert.is(term.launches.length, 1, 'still Alpha: nothing stopped or launched');
  assert.is(session.snapshot().armed?.agent, 'beta', 'the switch stays armed');
  // While Alpha takes it, the switch's message waits (refused, back to the compose bar).
  const during = await session.send('OVER-TO-BETA');
  assert.is(during.kind, 'refused');
  term.finish();
  await until(() => session.status.current === 'idle', 'Alpha answered');
  const r = await session.send('OVER-TO-BETA');
  // (It failed once under load, refused; its words say by what.)
  assert.is(r.kind, 'switch', JSON.stringify(r));
  await until(() => users().includes('OVER-TO-BETA'), 'the switch message recorded');
  assert.equal(users(), ['FIRST', 'QUEUED-BEFORE', 'OVER-TO-BETA'], 'in the order written');
  assert.is(term.launches.length, 2, 'Beta launched for the switch');
});

s.run();
