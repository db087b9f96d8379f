// A draft the user left in the CLI's own input box, and the commands of baton's that act on
// that CLI other than a compose-bar message (src/conversation/tab-session.ts send and
// startInstead, tab-session-delivery.ts draftHold, fork-history.ts resetTo), through a
// TabSession and the in-memory CLI of test/helpers/fake-agent.ts: an armed switch to another
// agent (it stops the CLI: the draft would be lost), another model of the same agent changed in
// its running session (`/model …` typed after the draft would join it), a restart in place
// (startInstead) and a reset wait while the box has text of the user's, saying so in one line,
// with the message back in the compose bar and the switch still armed; once the box is empty
// the same send goes through. (On main each stopped the CLI or typed into the box at once.)
// A recorded message the CLI put back in its box (Claude Code does after Esc interrupts a
// turn) is no draft: the switch goes at once, and another model is changed by a relaunch on
// the same session, never by a `/model` typed after that text.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { resetTo } from '../../src/conversation/fork-history.js';
import type { HarnessDriver } from '../../src/plugins/api.js';
import { fakeDriver } from '../helpers/fake-agent.js';
import { fakeSessions } from '../helpers/fake-session.js';
import { until as poll } from '../helpers/wait.js';

const s = suite('a draft in the input box holds a switch');
const startSession = fakeSessions(s, 'baton-draft-switch-');

const until = (cond: () => boolean, what: string, ms = 5000) => poll(cond, what, ms, 5);
const HOLD = /^Alpha's input box has text of yours: send it \(Enter in its pane\) or clear it there first\./;

/** A tab running Alpha (whose driver reads its box and changes model in its session) after one answered turn, in session A-1. */
async function world() {
  const modelChanges: string[] = [];
  const { term, session, conv } = await startSession(
    (term) => {
      const alpha: HarnessDriver = {
        ...fakeDriver(term, { name: 'alpha', title: 'Alpha', capabilities: { resume: true, tabSession: true }, readsInput: true }),
        changeModelInTab: async (o) => {
          modelChanges.push(o.model);
          return { kind: 'changed' };
        },
      };
      return [alpha, fakeDriver(term, { name: 'beta', title: 'Beta', capabilities: { resume: true, tabSession: true }, readsInput: true })];
    },
    { readyTimeoutMs: 2000 },
  );
  assert.is((await session.send('MARK-ONE')).kind, 'delivered');
  term.emit({ type: 'session', agentSession: 'A-1' });
  term.finish();
  await until(() => session.status.current === 'idle', 'Alpha answered');
  const users = () => conv.transcript.entries.flatMap((e) => (e.kind === 'user_message' ? [e.text] : []));
  return { term, session, modelChanges, users, conv };
}

s('a switch to another agent: refused while the box has text, nothing stopped or typed, the switch still armed; then it goes', async () => {
  const { term, session, users } = await world();
  session.arm('beta');
  term.box = 'half a thought';
  term.output();
  const writes = term.writes.length;
  const r = await session.send('over to beta MARK-TWO');
  assert.is(r.kind, 'refused');
  assert.match(r.kind === 'refused' ? r.message : '', HOLD);
  assert.match(r.kind === 'refused' ? r.message : '', /the switch stays armed/);
  assert.ok(term.isRunning(), 'Alpha was not stopped');
  assert.is(term.box, 'half a thought', 'the draft is in the box as the user left it');
  assert.is(term.launches.length, 1, 'nothing launched');
  assert.is(term.writes.length, writes, 'nothing typed');
  assert.is(session.snapshot().armed?.agent, 'beta', 'the switch stays armed');
  // The user clears the box; the same send goes through.
  term.box = '';
  term.output();
  const again = await session.send('over to beta MARK-TWO');
  assert.is(again.kind, 'switch');
  assert.is(again.kind === 'switch' ? again.outcome.kind : '', 'switched', JSON.stringify(again));
  assert.is(term.launches.at(-1)?.agent, 'beta');
  assert.equal(users(), ['MARK-ONE', 'over to beta MARK-TWO']);
});

s('another model in the running session: no `/model` typed after the draft; once the box is empty the model changes in place', async () => {
  const { term, session, modelChanges, users } = await world();
  session.arm('alpha', 'alpha-2');
  term.box = 'ow';
  term.output();
  const r = await session.send('on the new model MARK-THREE');
  assert.is(r.kind, 'refused');
  assert.match(r.kind === 'refused' ? r.message : '', HOLD);
  assert.equal(modelChanges, [], 'no model change was typed');
  assert.is(term.box, 'ow');
  assert.is(term.launches.length, 1);
  term.box = '';
  term.output();
  const again = await session.send('on the new model MARK-THREE');
  assert.is(again.kind === 'switch' ? again.outcome.kind : again.kind, 'switched', JSON.stringify(again));
  assert.equal(modelChanges, ['alpha-2'], 'changed in the running session');
  assert.is(term.launches.length, 1, 'not relaunched');
  await until(() => users().length === 2, 'the message recorded');
  assert.equal(users(), ['MARK-ONE', 'on the new model MARK-THREE']);
});

s('a restart in place (startInstead) while the box has text: nothing stopped, said why', async () => {
  const { term, session } = await world();
  term.box = 'not yet sent';
  term.output();
  const out = await session.startInstead('beta');
  assert.is(out.kind, 'not-sent');
  assert.match(out.message, HOLD);
  assert.ok(term.isRunning());
  assert.is(term.box, 'not yet sent');
  assert.is(term.launches.length, 1);
});

s('a reset (and so the stop after it) while the box has text: refused in one line, nothing hidden, the CLI still runs', async () => {
  const { term, session, conv } = await world();
  const first = conv.transcript.entries.find((e) => e.kind === 'user_message')!;
  term.box = 'keep this';
  term.output();
  const r = await resetTo(session, first.seq, {});
  assert.ok('refused' in r, JSON.stringify(r));
  assert.match('refused' in r ? r.refused : '', HOLD);
  assert.match('refused' in r ? r.refused : '', /Nothing was reset\.$/);
  assert.not.ok(
    conv.transcript.entries.some((e) => e.kind === 'reset'),
    'no reset recorded',
  );
  assert.ok(term.isRunning());
  assert.is(term.box, 'keep this');
});

s('a recorded message put back in the box (an interrupt, as Claude Code does) holds nothing: the switch to another agent goes at once', async () => {
  const { term, session, users } = await world();
  session.arm('beta');
  // Claude Code after Esc: the interrupted message, already in the transcript, back in its box (wrapped).
  term.box = 'MARK-\nONE';
  term.output();
  const r = await session.send('over to beta MARK-FOUR');
  assert.is(r.kind === 'switch' ? r.outcome.kind : r.kind, 'switched', JSON.stringify(r));
  assert.is(term.launches.at(-1)?.agent, 'beta');
  assert.equal(users(), ['MARK-ONE', 'over to beta MARK-FOUR']);
});

s('a recorded message in the box and another model of the same agent: no `/model` typed after it; relaunched on its session with the model', async () => {
  const { term, session, modelChanges, users } = await world();
  session.arm('alpha', 'alpha-2');
  term.box = 'MARK-ONE';
  term.output();
  const writes = term.writes.length;
  const r = await session.send('on the new model MARK-FIVE');
  assert.is(r.kind === 'switch' ? r.outcome.kind : r.kind, 'switched', JSON.stringify(r));
  assert.equal(modelChanges, [], 'no model change typed into the running session');
  assert.not.ok(
    term.writes.slice(writes).some((w) => w.includes('/model')),
    'nothing typed after the text',
  );
  assert.is(term.launches.length, 2, 'relaunched');
  assert.is(term.launches.at(-1)?.agent, 'alpha');
  assert.is(term.launches.at(-1)?.model, 'alpha-2');
  await until(() => users().length === 2, 'the message recorded');
  assert.equal(users(), ['MARK-ONE', 'on the new model MARK-FIVE']);
});

s('a compose-bar message still waits behind a recorded message put back in the box (pasted after, the two would join), saying what is there', async () => {
  const { term, session } = await world();
  term.box = 'MARK-ONE';
  term.output();
  const writes = term.writes.length;
  const r = await session.send('next MARK-SIX');
  assert.is(r.kind, 'queued');
  assert.match(
    r.kind === 'queued' ? r.message : '',
    /Alpha's input box holds a copy of an earlier message of yours: send it \(Enter in its pane\) or clear it there first; then this one goes\./,
  );
  assert.is(term.writes.length, writes, 'nothing typed');
  assert.is(term.box, 'MARK-ONE');
});

s.run();
