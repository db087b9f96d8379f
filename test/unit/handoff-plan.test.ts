// src/conversation/handoff-plan.ts: the one planner `baton chat` and a tab's switch share.
// Which model runs, whether it is a switch, the session resumed or forked, the brief (a
// replay, a returning agent's delta, or none), and what recordHandoff() writes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accountFor, planHandoff, recordHandoff, modelFor, type HandoffInput } from '../../src/conversation/handoff-plan.js';
import { addAccount, setDefaultAccount } from '../../src/plugins/account-store.js';
import { dividerText } from '../../src/transcript/render-text.js';
import { regenerateCard } from '../../src/conversation/handoff-card.js';
import { createConversation, type OpenConversation } from '../../src/transcript/store.js';
import { FakeTerminal, fakeDriver, registryOf } from '../helpers/fake-agent.js';

const term = new FakeTerminal();
const alpha = fakeDriver(term, { name: 'alpha', title: 'Alpha', capabilities: { resume: true, fork: true, tabSession: true } });
const beta = fakeDriver(term, { name: 'beta', title: 'Beta', capabilities: { resume: true, fork: false, tabSession: false } });
const gamma = fakeDriver(term, { name: 'gamma', title: 'Gamma', capabilities: { resume: true, fork: true, tabSession: true, accounts: true } });
const registry = registryOf(alpha, beta, gamma);

async function withConversation(fn: (conv: OpenConversation) => Promise<void>): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'baton-plan-'));
  const conv = await createConversation(home, { cwd: home, title: 'plan', user: { type: 'user', name: 'tester', device: 'test' } });
  try {
    await fn(conv);
  } finally {
    await conv.close();
    rmSync(home, { recursive: true, force: true });
  }
}

/** One turn of `harness` in its session `session`, which has seen it all (its cursor confirmed). */
function turn(conv: OpenConversation, harness: string, session: string, text: string): void {
  const t = conv.transcript;
  if (t.currentSegment?.harness !== harness) t.startSegment({ harness, model: 'default', switchId: `sw-${harness}-${t.lastSeq}` });
  t.apply({ type: 'user_text', text });
  t.apply({ type: 'session', agentSession: session });
  t.apply({ type: 'agent_text', text: `answer to ${text}` });
  t.apply({ type: 'turn_end' });
  t.confirmCursor(harness, session, t.lastSeq);
}

const input = (conv: OpenConversation, driver = alpha, inTab = true): HandoffInput => ({ conversation: conv, registry, driver, env: {}, inTab });

test("nothing said yet: the agent starts with no brief and no resume (a switch, the conversation's first segment)", () =>
  withConversation(async (conv) => {
    const plan = await planHandoff(input(conv));
    assert.is(plan.switching, true);
    assert.is(plan.model, 'default');
    assert.is(plan.brief, undefined);
    assert.is(plan.resume, undefined);
    const h = recordHandoff(conv, plan, 'sw-1');
    assert.ok(h?.kind === 'handoff' && h.from === null && h.mode === 'fresh' && h.briefChars === 0);
  }));

test('another agent takes over: a fresh replay with the earlier turn, recorded with its hash (the card regenerates it)', () =>
  withConversation(async (conv) => {
    turn(conv, 'alpha', 'A-1', 'MARK-EARLIER question');
    const plan = await planHandoff(input(conv, beta));
    assert.is(plan.switching, true);
    assert.is(plan.resume, undefined, 'beta never saw it');
    assert.match(plan.brief?.text ?? '', /MARK-EARLIER/);
    const h = recordHandoff(conv, plan, 'sw-2');
    assert.ok(h?.kind === 'handoff');
    if (h?.kind !== 'handoff') return;
    assert.equal([h.from?.harness, h.to.harness, h.mode, h.briefChars, h.switchId], ['alpha', 'beta', 'fresh', plan.brief!.text.length, 'sw-2']);
    // The message follows the handoff, and the conversation goes on: the card still stops where the brief did.
    conv.transcript.apply({ type: 'user_text', text: 'MARK-AFTER', switchId: 'sw-2' });
    conv.transcript.apply({ type: 'agent_text', text: 'later' });
    const card = regenerateCard(conv.transcript, h.seq, { alpha: 'Alpha', beta: 'Beta' });
    assert.is(card.matches, true, 'the card regenerated from the record matches the brief');
    assert.not.match(card.text ?? '', /MARK-AFTER/);
  }));

test('a returning agent with nothing new to hear: its own session, no brief; with something new: its session and only the delta', () =>
  withConversation(async (conv) => {
    turn(conv, 'alpha', 'A-1', 'MARK-ONE');
    const same = await planHandoff(input(conv));
    assert.is(same.switching, false, 'the same agent and model');
    assert.is(same.resume, 'A-1');
    assert.is(same.brief, undefined);
    assert.is(recordHandoff(conv, same, 'sw-x'), undefined, 'nothing to record');

    turn(conv, 'beta', 'B-1', 'MARK-TWO');
    const back = await planHandoff(input(conv));
    assert.is(back.switching, true);
    assert.is(back.resume, 'A-1');
    assert.match(back.brief?.text ?? '', /MARK-TWO/);
    assert.not.match(back.brief?.text ?? '', /MARK-ONE/, 'only what it missed');
    const h = recordHandoff(conv, back, 'sw-3');
    assert.ok(h?.kind === 'handoff' && h.mode === 'resume');
    assert.is(conv.transcript.currentSegment?.agentSession, 'A-1', "the resumed session is the new segment's own");
  }));

test('in a tab, a program that cannot open a session by id gets the full brief; headless, the same driver resumes', () =>
  withConversation(async (conv) => {
    turn(conv, 'beta', 'B-1', 'MARK-ONE');
    turn(conv, 'alpha', 'A-1', 'MARK-TWO');
    const tab = await planHandoff(input(conv, beta, true));
    assert.is(tab.resume, undefined);
    assert.match(tab.brief?.text ?? '', /MARK-ONE[^]*MARK-TWO/);
    const headless = await planHandoff(input(conv, beta, false));
    assert.is(headless.resume, 'B-1');
    assert.not.match(headless.brief?.text ?? '', /MARK-ONE/);
  }));

test("a native fork's cursor: the session is forked, never recorded as the new segment's own", () =>
  withConversation(async (conv) => {
    const t = conv.transcript;
    t.startSegment({ harness: 'alpha', model: 'default', switchId: 'sw-1' });
    t.apply({ type: 'user_text', text: 'MARK-SRC' });
    t.apply({ type: 'agent_text', text: 'hi' });
    t.confirmCursor('alpha', 'SRC-1', t.lastSeq, { fork: true });
    const plan = await planHandoff({ ...input(conv), model: 'other' });
    assert.is(plan.resume, 'SRC-1');
    assert.is(plan.fork?.agentSession, 'SRC-1');
    recordHandoff(conv, plan, 'sw-2');
    assert.is(t.currentSegment?.agentSession, undefined);
  }));

test('the same agent with another model is a switch; with its own model, not', () =>
  withConversation(async (conv) => {
    turn(conv, 'alpha', 'A-1', 'MARK-ONE');
    assert.is((await planHandoff(input(conv))).switching, false);
    const other = await planHandoff({ ...input(conv), model: 'big' });
    assert.is(other.switching, true);
    assert.is(other.model, 'big');
    assert.is(recordHandoff(conv, other, 'sw-m')?.kind, 'handoff');
  }));

test('the model: the one asked for, else the one the agent ran last here, else its configured default', () =>
  withConversation(async (conv) => {
    const t = conv.transcript;
    assert.is(modelFor(t, registry, alpha, undefined), 'default');
    t.startSegment({ harness: 'alpha', model: 'big', switchId: 'sw-1' });
    t.startSegment({ harness: 'beta', model: 'default', switchId: 'sw-2' });
    assert.is(modelFor(t, registry, alpha, undefined), 'big');
    assert.is(modelFor(t, registry, alpha, 'small'), 'small');
  }));

/** A turn of gamma under `account` (undefined: the CLI's own configuration), its cursor confirmed. */
function accountTurn(conv: OpenConversation, account: string | undefined, session: string, text: string): void {
  const t = conv.transcript;
  const cur = t.currentSegment;
  if (cur?.harness !== 'gamma' || cur.account !== account) {
    t.startSegment({ harness: 'gamma', model: 'default', ...(account ? { account } : {}), switchId: `sw-acct-${t.lastSeq}` });
  }
  turn(conv, 'gamma', session, text);
}

test("another account of the same agent is a switch with a fresh brief: the other account's session is not resumed", () =>
  withConversation(async (conv) => {
    const env = { BATON_HOME: conv.dir };
    accountTurn(conv, 'work', 'G-WORK', 'MARK-WORK-TURN');
    assert.is(conv.transcript.cursor('gamma')?.account, 'work', "the cursor is the account's");
    const same = await planHandoff({ ...input(conv, gamma), env });
    assert.equal([same.switching, same.account, same.resume], [false, 'work', 'G-WORK'], 'no account named: the one it runs under here');
    const plan = await planHandoff({ ...input(conv, gamma), env, account: 'home' });
    assert.equal([plan.switching, plan.account, plan.resume], [true, 'home', undefined]);
    assert.match(plan.brief?.text ?? '', /MARK-WORK-TURN/, 'the brief carries the conversation');
    assert.match(plan.brief?.text ?? '', /Fresh start/);
    const h = recordHandoff(conv, plan, 'sw-home');
    assert.ok(h?.kind === 'handoff');
    if (h?.kind !== 'handoff') return;
    assert.equal([h.account, h.fromAccount, h.mode], ['home', 'work', 'fresh']);
    assert.is(dividerText(h, { gamma: 'Gamma' }), 'Switched to account home of Gamma');
    assert.is(conv.transcript.currentSegment?.account, 'home');
    // Back to the CLI's own configuration: `default` is no account at all.
    const back = await planHandoff({ ...input(conv, gamma), env, account: 'default' });
    assert.equal([back.switching, back.account], [true, undefined]);
    const h2 = recordHandoff(conv, back, 'sw-default');
    assert.ok(h2?.kind === 'handoff' && h2.account === undefined && h2.fromAccount === 'home');
    assert.is(dividerText(h2!, { gamma: 'Gamma' }), 'Switched to account default of Gamma');
  }));

test('another model of the same agent (issue 14 item 2) is a switch that resumes its own session, with no brief', () =>
  withConversation(async (conv) => {
    const env = { BATON_HOME: conv.dir };
    accountTurn(conv, undefined, 'G-1', 'MARK-MODEL-TURN');
    const plan = await planHandoff({ ...input(conv, gamma), env, model: 'big' });
    assert.equal([plan.switching, plan.model, plan.resume, plan.brief], [true, 'big', 'G-1', undefined]);
    const h = recordHandoff(conv, plan, 'sw-model');
    assert.ok(h?.kind === 'handoff');
    if (h?.kind !== 'handoff') return;
    assert.equal([h.from, h.to, h.mode], [{ harness: 'gamma', model: 'default' }, { harness: 'gamma', model: 'big' }, 'resume']);
    assert.is(dividerText(h, { gamma: 'Gamma' }), 'Switched Gamma to model big');
    assert.equal([conv.transcript.currentSegment?.model, conv.transcript.currentSegment?.agentSession], ['big', 'G-1']);
    const again = await planHandoff({ ...input(conv, gamma), env });
    assert.equal([again.switching, again.model], [false, 'big'], 'the model it runs now, no model named');
  }));

test('the account: the one asked for, else the one the agent ran under here, else its default; none for a driver without accounts', () =>
  withConversation(async (conv) => {
    const env = { BATON_HOME: conv.dir };
    const t = conv.transcript;
    assert.is(accountFor(t, gamma, undefined, env), undefined, "nothing set: the CLI's own configuration");
    addAccount(env, 'gamma', 'team');
    setDefaultAccount(env, 'gamma', 'team');
    assert.is(accountFor(t, gamma, undefined, env), 'team');
    assert.is(accountFor(t, gamma, 'default', env), undefined);
    accountTurn(conv, 'solo', 'G-SOLO', 'x');
    turn(conv, 'alpha', 'A-1', 'y');
    assert.is(accountFor(t, gamma, undefined, env), 'solo', 'a returning agent keeps the account its session lives in');
    assert.is(accountFor(t, alpha, 'team', env), undefined, 'alpha cannot isolate accounts');
    const plan = await planHandoff({ ...input(conv, alpha), env });
    assert.is(plan.account, undefined);
    const other = t.entries.filter((e) => e.kind === 'handoff').pop();
    assert.is(dividerText(other!, {}), 'Switched this conversation from gamma to alpha');
  }));

test.run();

test('a local model server is remembered by its segment: the next turn, and a return after another agent, go on with it; another model drops it', () =>
  withConversation(async (conv) => {
    const t = conv.transcript;
    const local = { endpoint: 'http://127.0.0.1:11434', api: 'openai-chat' };
    turn(conv, 'alpha', 'A-1', 'MARK-CLOUD');
    // --local: gamma runs the local model, a switch recorded with the server.
    const toLocal = await planHandoff({ ...input(conv, gamma), model: 'qwen3-coder', local });
    assert.is(toLocal.switching, true);
    assert.equal(toLocal.local, local);
    const h = recordHandoff(conv, toLocal, 'sw-local');
    assert.ok(h?.kind === 'handoff');
    if (h?.kind !== 'handoff') return;
    assert.equal(h.local, local, 'the handoff records the server');
    assert.is(h.fromLocal, undefined);
    assert.equal(t.currentSegment?.local, local);
    assert.match(dividerText(h, { alpha: 'Alpha', gamma: 'Gamma' }) ?? '', /to Gamma \(local model qwen3-coder at http:\/\/127\.0\.0\.1:11434\)$/);
    t.apply({ type: 'user_text', text: 'MARK-LOCAL' });
    t.apply({ type: 'session', agentSession: 'G-1' });
    t.apply({ type: 'agent_text', text: 'local answer' });
    t.confirmCursor('gamma', 'G-1', t.lastSeq);
    // The next turn, told nothing: the same agent, model and server, no switch.
    const next = await planHandoff(input(conv, gamma));
    assert.is(next.switching, false);
    assert.is(next.model, 'qwen3-coder');
    assert.equal(next.local, local);
    // Back to alpha: no server; its handoff says which one it left.
    const back = await planHandoff(input(conv, alpha));
    assert.is(back.local, undefined);
    assert.is(back.resume, 'A-1', 'alpha resumes its own session');
    const hb = recordHandoff(conv, back, 'sw-back');
    assert.ok(hb?.kind === 'handoff' && hb.local === undefined);
    if (hb?.kind === 'handoff') assert.equal(hb.fromLocal, local);
    // Gamma again without --local: its last segment's server and model, its own session.
    const again = await planHandoff(input(conv, gamma));
    assert.equal([again.model, again.local, again.resume], ['qwen3-coder', local, 'G-1']);
    // Gamma with another model: its own provider.
    const cloud = await planHandoff({ ...input(conv, gamma), model: 'qwen3-coder-plus' });
    assert.is(cloud.local, undefined);
    // Another server for the same agent and model is a switch.
    recordHandoff(conv, again, 'sw-again');
    const other = await planHandoff({ ...input(conv, gamma), model: 'qwen3-coder', local: { endpoint: 'http://127.0.0.1:1234', api: 'openai-chat' } });
    assert.is(other.switching, true);
  }));
