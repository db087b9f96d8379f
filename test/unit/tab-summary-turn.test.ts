// src/conversation/tab-summary-turn.ts through a TabSession, against an in-memory terminal
// (test/helpers/fake-agent.ts): a switch armed with a summary first types baton's summary
// request into the outgoing agent as its next turn, keeps its answer as one `summary` entry
// (the request and the reply recorded as nothing else), and only then stops it; the user's
// message goes to the new agent once, with a brief that carries the summary. A summary that
// cannot be had is a notice and the switch goes on; a retry of the same switch asks no more.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SUMMARY_PROMPT } from '../../src/conversation/summary-turn.js';
import type { SendResult } from '../../src/conversation/tab-session.js';
import { TabSession } from '../../src/conversation/tab-session.js';
import type { SwitchOutcome } from '../../src/conversation/switch-transaction.js';
import { createConversation, type OpenConversation } from '../../src/transcript/store.js';
import type { Entry } from '../../src/transcript/types.js';
import { FakeTerminal, fakeDriver, registryOf, type FakeDriverOptions } from '../helpers/fake-agent.js';
import { until as poll } from '../helpers/wait.js';

const SUMMARY = 'SUMMARY-TEXT-7731: the user wants the filler kept; nothing is open. '.repeat(3);
/** Long enough that the brief (its budget below) leaves the first turn out or shortens it: the summary stands in. */
const FIRST = `MARK-ONE ${'alpha '.repeat(700)}`;

interface World {
  home: string;
  conv: OpenConversation;
  term: FakeTerminal;
  session: TabSession;
  beta: FakeDriverOptions;
  /** What the outgoing agent does with the summary request (default: answers SUMMARY and ends the turn). */
  answer: () => void;
}

let w: World | undefined;

/** Polled every 5 ms: a state awaited here may last only moments. */
const until = (cond: () => boolean, what: string, ms = 5000) => poll(cond, what, ms, 5);

const kinds = (c: OpenConversation, kind: Entry['kind']) => c.transcript.entries.filter((e) => e.kind === kind);
const texts = (c: OpenConversation, kind: Entry['kind']) => kinds(c, kind).map((e) => (e as { text: string }).text);

function outcomeOf(r: SendResult): SwitchOutcome {
  if (r.kind !== 'switch') throw new Error(`not a switch: ${JSON.stringify(r)}`);
  return r.outcome;
}

/** A tab running Alpha after one answered turn in its session A-1, with a switch to Beta armed (`summary` first or not). */
async function world(summary = true): Promise<World> {
  const home = mkdtempSync(join(tmpdir(), 'baton-tab-summary-'));
  const conv = await createConversation(home, { cwd: home, title: 't', user: { type: 'user', name: 'tester', device: 'test' } });
  const term = new FakeTerminal();
  const beta: FakeDriverOptions = { name: 'beta', title: 'Beta', capabilities: { resume: true, tabSession: true } };
  const registry = registryOf(fakeDriver(term, { name: 'alpha', title: 'Alpha', capabilities: { resume: true, tabSession: true } }), fakeDriver(term, beta));
  const session = new TabSession({
    conversation: conv,
    registry,
    terminal: term,
    env: { BATON_BRIEF_MAX_CHARS: '3000' },
    deliveryTimeoutMs: 120,
    readyTimeoutMs: 2000,
    summaryTimeoutMs: 2000,
  });
  const world: World = {
    home,
    conv,
    term,
    session,
    beta,
    answer: () => {
      term.state = 'READY';
      term.emit({ type: 'agent_text', text: SUMMARY });
      term.emit({ type: 'turn_end' });
    },
  };
  w = world;
  // The CLI takes what it is given; the summary request is answered as the test says.
  term.onEnter = (box) => {
    term.take();
    if (box.includes(SUMMARY_PROMPT)) world.answer();
  };
  assert.is((await session.start('alpha')).kind, 'started');
  await until(() => session.status.current === 'idle', 'Alpha ready');
  assert.is((await session.send(FIRST)).kind, 'delivered');
  term.emit({ type: 'session', agentSession: 'A-1' });
  term.finish();
  await until(() => session.status.current === 'idle', 'Alpha answered');
  assert.equal(session.arm('beta', undefined, undefined, undefined, summary), { armed: true, noContext: false });
  return world;
}

const s = suite('tab summary turn');
s.after.each(async () => {
  if (!w) return;
  await w.session.dispose();
  rmSync(w.home, { recursive: true, force: true });
  w = undefined;
});

s(
  'summary first: Alpha writes it in its pane before it stops; recorded as one summary entry; Beta gets the message once, its brief carrying the summary',
  async () => {
    const { conv, term, session } = await world();
    assert.is(session.snapshot().armed?.summary, true, 'the armed switch says summary first');
    const lastBefore = conv.transcript.lastSeq;
    const o = outcomeOf(await session.send('hello beta'));
    assert.is(o.kind, 'switched', o.message);
    assert.match(o.message, /^Alpha wrote its summary \(#\d+\)\. Continued with Beta\.$/);
    // Typed into Alpha: the request, alone (the first launch's pastes are FIRST, then it).
    const pastes = term.pastes();
    assert.is(pastes[1], SUMMARY_PROMPT, 'Alpha got the summary request as its next turn');
    assert.is(term.launches.length, 2, 'Alpha, then Beta');
    assert.is(pastes.filter((p) => p.includes('hello beta')).length, 1, 'the message was typed once');
    assert.ok(pastes.indexOf(SUMMARY_PROMPT) < pastes.findIndex((p) => p.includes('hello beta')), 'after the summary');
    const toBeta = pastes.find((p) => p.includes('hello beta'))!;
    assert.ok(toBeta.includes(SUMMARY.slice(0, 40)), 'the brief Beta got carries the summary');
    assert.match(toBeta, /asked for before the switch/);
    // The transcript: the summary, Alpha's, covering what there was; the request and reply nowhere else.
    const summaries = kinds(conv, 'summary') as (Entry & { kind: 'summary' })[];
    assert.is(summaries.length, 1);
    assert.is(summaries[0]!.text, SUMMARY.trim());
    assert.equal(summaries[0]!.author, { type: 'agent', harness: 'alpha', model: 'default' });
    assert.is(summaries[0]!.fromSeq, 1);
    assert.is(summaries[0]!.toSeq, lastBefore);
    assert.equal(texts(conv, 'user_message'), [FIRST, 'hello beta']);
    assert.not.ok(
      texts(conv, 'agent_text').some((t) => t.includes('SUMMARY-TEXT')),
      'the summary is no reply',
    );
    assert.is(kinds(conv, 'turn_end').length, 1, "the summary turn's end is not recorded");
    // Alpha's session has seen up to the summary: a return to it resumes from there.
    const cursor = conv.transcript.cursor('alpha');
    assert.is(cursor?.deliveredSeq, summaries[0]!.seq);
    assert.is(session.snapshot().armed, undefined, 'the switch is done');
  },
);

s('no summary when not asked: the request is never typed', async () => {
  const { conv, term, session } = await world(false);
  const o = outcomeOf(await session.send('hello beta'));
  assert.is(o.kind, 'switched', o.message);
  assert.is(o.message, 'Continued with Beta.');
  assert.not.ok(
    term.pastes().some((p) => p.includes(SUMMARY_PROMPT)),
    'no summary request',
  );
  assert.is(kinds(conv, 'summary').length, 0);
});

s('a summary that cannot be had (no text) is a notice; the switch goes on and the message goes once', async () => {
  const world_ = await world();
  const { conv, term, session } = world_;
  // The turn ends with nothing said.
  world_.answer = () => {
    term.state = 'READY';
    term.emit({ type: 'turn_end' });
  };
  const o = outcomeOf(await session.send('hello beta'));
  assert.is(o.kind, 'switched', o.message);
  assert.match(o.message, /^Alpha's summary failed: Alpha answered with no text; switching without it\. Continued with Beta\.$/);
  assert.is(kinds(conv, 'summary').length, 0);
  assert.ok(
    texts(conv, 'notice').some((t) => /Alpha's summary failed: .*; the brief is made without a summary\./.test(t)),
    'said in the transcript',
  );
  assert.equal(texts(conv, 'user_message'), [FIRST, 'hello beta']);
  assert.is(term.pastes().filter((p) => p.includes('hello beta')).length, 1);
});

s('a retry of the same switch (Beta could not be launched) asks for no second summary', async () => {
  const { conv, term, session, beta } = await world();
  beta.launchFails = 'no such model';
  const first = outcomeOf(await session.send('hello beta'));
  assert.is(first.kind, 'stopped-not-switched', first.message);
  assert.match(first.message, /^Alpha wrote its summary/);
  assert.is(kinds(conv, 'summary').length, 1);
  delete beta.launchFails;
  const again = outcomeOf(await session.send('hello beta'));
  assert.is(again.kind, 'switched', again.message);
  assert.is(again.message, 'Continued with Beta.');
  assert.is(term.pastes().filter((p) => p === SUMMARY_PROMPT).length, 1, 'asked once');
  assert.is(kinds(conv, 'summary').length, 1);
  assert.equal(texts(conv, 'user_message'), [FIRST, 'hello beta']);
});

s('an outgoing agent whose brief still waits gets it with the summary request, in one paste; the brief is not reported as never sent', async () => {
  const { conv, term, session } = await world(false);
  session.disarm();
  // Beta takes the tab with nothing to say yet: the conversation so far waits for its next message.
  assert.is((await session.startInstead('beta')).kind, 'started');
  await until(() => session.status.current === 'idle', 'Beta ready');
  assert.ok(session.snapshot().briefPending, 'a brief waits');
  assert.equal(session.arm('alpha', undefined, undefined, undefined, true), { armed: true, noContext: false });
  const o = outcomeOf(await session.send('back to alpha'));
  assert.is(o.kind, 'switched', o.message);
  assert.match(o.message, /^Beta wrote its summary/);
  const asked = term.pastes().filter((p) => p.endsWith(SUMMARY_PROMPT));
  assert.is(asked.length, 1);
  assert.match(asked[0]!, /^\[baton handoff brief\]/, 'the brief first, in the same paste');
  const summaries = kinds(conv, 'summary');
  assert.is(summaries.length, 1);
  assert.equal((summaries[0]!.author as { harness?: string }).harness, 'beta');
  assert.not.ok(
    texts(conv, 'notice').some((t) => /was never sent/.test(t)),
    'the brief went, with the request',
  );
  assert.equal(texts(conv, 'user_message'), [FIRST, 'back to alpha']);
});

s.run();
