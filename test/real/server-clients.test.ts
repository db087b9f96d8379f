// real CLIs: claude
// Several clients on one baton server, with the real Claude Code against the fake LLM, each
// client a real `baton` in a real PTY (issue 12, item 4 and its Show list). Two clients, as
// two people (BATON_USER/BATON_DEVICE), write into the same compose queue while claude works:
// the messages go in the order they arrived and the transcript records who wrote each. The
// turn is held at the fake LLM ([[FAKE_HOLD]]) while every client detaches, then finishes
// with nobody attached; the queue drains; the transcript has it all and a client attaching
// afterwards sees it. A turn under way when its client is killed with SIGKILL, or hung up
// (SIGHUP), completes the same way. Two clients writing into two tabs: each tab's
// conversation records its own author, also for text typed straight into claude's pane
// (recorded from claude's log, as the client that typed into the view last).
// Before the authors were carried, every message was recorded as the server's own user
// (the first client's), whoever typed it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { FakeLlm } from '../fake-llm/server.js';
import type { MultiCliEnv } from '../helpers/multi-cli-env.js';
import { TestTerminal } from '../helpers/term.js';
import { until } from '../helpers/wait.js';
import { builtBaton, pickEntry } from '../helpers/baton-tui.js';
import { endRealTui, realBatonEnv, recordedEntries, startRealEnv } from '../helpers/real-tui.js';

const CLI = builtBaton();
let fake: FakeLlm;
let menv: MultiCliEnv;
let env: Record<string, string>;
const terms: TestTerminal[] = [];

const ANA = { BATON_USER: 'ana', BATON_DEVICE: 'laptop' };
const BO = { BATON_USER: 'bo', BATON_DEVICE: 'desk' };

/** A baton client in a PTY of its own, as `who`. */
function client(args: string[], who: Record<string, string>): TestTerminal {
  const t = new TestTerminal([process.execPath, CLI, ...args], { cols: 120, rows: 36, cwd: menv.cwd, env: { ...env, ...who } });
  terms.push(t);
  return t;
}

interface Said {
  conversation: string;
  kind: string;
  text: string;
  author: string;
}

/** Every user message and agent reply baton recorded, per conversation, in order, with who wrote it. */
function recorded(): Said[] {
  return recordedEntries(join(menv.dir, 'baton-home'))
    .filter((e) => e.kind === 'user_message' || e.kind === 'agent_text')
    .map(({ conversation, kind, text, author: a }) => ({
      conversation,
      kind: kind!,
      text: text ?? '',
      author: a?.type === 'user' ? `${a.name}@${a.device}` : (a?.type ?? '?'),
    }));
}

const users = () => recorded().filter((r) => r.kind === 'user_message');
const marked = (mark: string) => users().filter((u) => u.text.includes(mark));
/** The agent's recorded reply to the message carrying `mark`. */
const replied = (mark: string) => recorded().some((r) => r.kind === 'agent_text' && r.text.includes(mark));

/** Sends `text` from `t`'s compose bar (opening it first). */
function send(t: TestTerminal, text: string): void {
  t.press('C-b', 'm');
  t.type(text);
  t.press('Enter');
}

/** Holds claude mid-turn: a message whose model reply the fake LLM keeps until release(name). */
async function heldTurn(t: TestTerminal, name: string, text: string): Promise<void> {
  send(t, `[[FAKE_HOLD: ${name}]] ${text}`);
  await fake.waitForRequest((r) => r.fault?.kind === 'hold' && r.fault.name === name, 60_000, `claude's request held as ${name}`);
  await t.waitFor(/1:Claude Code[^\n]*working/, 30_000, 'the tab working');
}

const s = suite('server clients with claude');
s.before(async () => {
  ({ fake, menv } = await startRealEnv(['claude']));
  env = realBatonEnv(menv);
});
s.after(() => endRealTui(terms, menv, fake));

s(
  'two clients write into one queue while claude works; the turn and the queue finish with nobody attached, in arrival order, each message recorded with its author; a new client sees it',
  async () => {
    const a = client([menv.cwd], ANA);
    await a.waitFor(/│Claude Code  \d[^]*│Plain shell/, 90_000, 'the agent picker');
    await pickEntry(a, 'Claude Code');
    await a.waitFor(/\? for shortcuts/, 90_000, 'claude ready');
    const b = client(['attach'], BO);
    await b.waitFor(/\? for shortcuts/, 30_000, 'the second client shows the tab');

    await heldTurn(a, 't1', 'first from ana MARK-A1');
    // The compose bar is one, as the view is: bo writes in it now.
    b.type('from bo MARK-B1');
    await b.waitFor(/bo@desk › from bo MARK-B1/, 10_000, 'the compose bar names who is writing');
    b.press('Enter');
    await b.waitFor(/queued \(1\)/, 10_000, "bo's message queued behind the turn");
    a.type('from ana MARK-A2');
    a.press('Enter');
    await a.waitFor(/queued \(2\)/, 10_000, "ana's second message queued behind it");

    // Everyone leaves while the turn is under way.
    a.press('C-b', 'd');
    assert.is(await a.exited, 0);
    b.press('C-b', 'd');
    assert.is(await b.exited, 0);
    const ls = spawnSync(process.execPath, [CLI, 'ls'], { cwd: menv.cwd, env, encoding: 'utf8' });
    assert.match(ls.stdout, /1: Claude Code[^\n]*working/, `the tab works on with nobody attached: ${ls.stdout}${ls.stderr}`);

    fake.release('t1');
    await until(() => replied('MARK-A2'), 'the turn and both queued messages answered, nobody attached', 180_000);
    const said = users().map((u) => `${u.author}: ${u.text.replace(/^\[ ?\[FAKE_HOLD: t1\]\] /, '')}`);
    assert.equal(
      said,
      ['ana@laptop: first from ana MARK-A1', 'bo@desk: from bo MARK-B1', 'ana@laptop: from ana MARK-A2'],
      'in arrival order, each with its author',
    );
    assert.ok(replied('MARK-A1') && replied('MARK-B1'), 'each answered');

    // The transcript's own view says who wrote what.
    const id = users()[0]!.conversation;
    const show = spawnSync(process.execPath, [CLI, 'transcript', 'show', id], { cwd: menv.cwd, env, encoding: 'utf8' });
    assert.is(show.status, 0, show.stderr);
    assert.match(show.stdout, /ana@laptop\n[^\n]*MARK-A1[^]*bo@desk\n[^\n]*MARK-B1[^]*ana@laptop\n[^\n]*MARK-A2/);

    const c = client(['attach'], ANA);
    await c.waitFor(/You said: from ana MARK-A2/, 30_000, 'the reattached screen shows what happened meanwhile');
    await c.waitFor(/1:Claude Code[^\n]*idle/, 30_000, 'claude idle');
    c.press('C-b', 'd');
    assert.is(await c.exited, 0);
  },
);

for (const signal of ['SIGKILL', 'SIGHUP'] as const) {
  s(`a turn under way when its client gets ${signal} completes; the transcript has it; the next client sees it`, async () => {
    const t = client(['attach'], ANA);
    await t.waitFor(/1:Claude Code[^\n]*idle/, 30_000, 'attached, claude idle');
    const mark = `MARK-${signal}`;
    await heldTurn(t, signal, `during a ${signal} ${mark}`);
    process.kill(t.pid, signal);
    await t.exited;
    fake.release(signal);
    await until(() => replied(mark), `the turn answered after the client's ${signal}`, 120_000);
    assert.equal(
      marked(mark).map((u) => u.author),
      ['ana@laptop'],
      "recorded once, as ana's",
    );
    const next = client(['attach'], BO);
    await next.waitFor(new RegExp(`You said: [^\\n]*during a ${signal} ${mark}`), 30_000, 'the reattached screen shows the reply');
    next.press('C-b', 'd');
    assert.is(await next.exited, 0);
  });
}

s("two clients write into two tabs: each tab's conversation records its own author, in the compose bar or typed in the pane", async () => {
  const a = client(['attach'], ANA);
  await a.waitFor(/1:Claude Code[^\n]*idle/, 30_000);
  a.press('C-b', 'c');
  await a.waitFor(/│Claude Code  \d[^]*│Plain shell/, 60_000, 'the picker for a second tab');
  await pickEntry(a, 'Claude Code');
  await a.waitFor(/2:Claude Code[^\n]*idle/, 90_000, "the second tab's claude ready");
  const b = client(['attach'], BO);
  await b.waitFor(/2:Claude Code/, 30_000);
  send(a, 'in tab two from ana MARK-T2');
  await until(() => replied('MARK-T2'), 'tab two answered', 90_000);
  await a.waitFor(/2:Claude Code[^\n]*idle/, 30_000);
  b.press('C-b', '1');
  await b.waitFor(/You said: [^\n]*MARK-SIGHUP/, 15_000, 'tab one in front');
  // Typed straight into claude's pane, not the compose bar: claude's log names no one; bo typed it.
  b.type('typed in the pane MARK-P');
  b.press('Enter');
  await until(() => replied('MARK-P'), 'the message typed in the pane answered', 90_000);
  await b.waitFor(/1:Claude Code[^\n]*idle/, 30_000);
  send(b, 'in tab one from bo MARK-T1');
  await until(() => replied('MARK-T1'), 'tab one answered', 90_000);
  const [t1] = marked('MARK-T1');
  const [t2] = marked('MARK-T2');
  assert.is(t1?.author, 'bo@desk');
  assert.is(t2?.author, 'ana@laptop');
  assert.equal(
    marked('MARK-P').map((u) => u.author),
    ['bo@desk'],
    'typed in the pane: recorded as the client that typed it',
  );
  assert.is.not(t1!.conversation, t2!.conversation, 'two conversations, one per tab');
  assert.is(t1!.conversation, marked('MARK-A1')[0]!.conversation, 'tab one is the first conversation');
});

s.run();
