// When a tab "needs you" (issue 13 item 4): src/conversation/needs-you.ts's rule on its own,
// then through a TabSession whose CLI (test/helpers/fake-agent.ts) comes up, works a turn,
// asks in a dialog and ends: told when the agent moves to approval or to idle after working
// on a turn, never for a CLI coming up, for idle after idle, or for a turn that ends with a
// message queued behind it (baton sends that one at once).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NeedsYouRule, type NeedsYou, type StatusReading } from '../../src/conversation/needs-you.js';
import { TabSession } from '../../src/conversation/tab-session.js';
import { createConversation } from '../../src/transcript/store.js';
import { FakeTerminal, fakeDriver, registryOf } from '../helpers/fake-agent.js';
import { until as poll } from '../helpers/wait.js';

/** What the rule says at each reading, in order. */
function told(readings: Partial<StatusReading>[]): (NeedsYou | undefined)[] {
  const rule = new NeedsYouRule();
  return readings.map((r) => rule.observe({ status: 'idle', turnOpen: false, queued: 0, ...r }));
}

const rule = suite('needs-you rule');

rule('working on a turn, then idle: done, once', () => {
  assert.equal(told([{ status: 'idle' }, { status: 'working', turnOpen: true }, { status: 'idle' }, { status: 'idle' }]), [
    undefined,
    undefined,
    'done',
    undefined,
  ]);
});

rule('idle after idle says nothing', () => {
  assert.equal(told([{ status: 'idle' }, { status: 'idle' }, { status: 'idle', queued: 1 }]), [undefined, undefined, undefined]);
});

rule('a CLI coming up (working with no turn open, then idle) says nothing', () => {
  assert.equal(told([{ status: 'working' }, { status: 'working' }, { status: 'idle' }]), [undefined, undefined, undefined]);
});

rule('approval is told as it starts, not again while it lasts; the turn after it ending is done', () => {
  assert.equal(
    told([
      { status: 'working', turnOpen: true },
      { status: 'approval', turnOpen: true },
      { status: 'approval', turnOpen: true },
      { status: 'working', turnOpen: true },
      { status: 'idle' },
    ]),
    [undefined, 'approval', undefined, undefined, 'done'],
  );
});

rule('a dialog before any turn (folder trust at start-up) is approval; answering it is not a done turn', () => {
  assert.equal(told([{ status: 'working' }, { status: 'approval' }, { status: 'idle' }]), [undefined, 'approval', undefined]);
});

rule('a turn that ends with messages queued is not done (the next goes at once); the last one ending is', () => {
  assert.equal(told([{ status: 'working', turnOpen: true }, { status: 'idle', queued: 1 }, { status: 'working', turnOpen: true }, { status: 'idle' }]), [
    undefined,
    undefined,
    undefined,
    'done',
  ]);
});

rule('an exit after working is not done, and does not carry over to the next run', () => {
  assert.equal(told([{ status: 'working', turnOpen: true }, { status: 'exited' }, { status: 'working' }, { status: 'idle' }]), [
    undefined,
    undefined,
    undefined,
    undefined,
  ]);
});

rule.run();

const session = suite('needs-you through a tab session');
let home: string | undefined;
let s: TabSession | undefined;
session.after.each(async () => {
  await s?.dispose();
  if (home) rmSync(home, { recursive: true, force: true });
  s = undefined;
  home = undefined;
});

/** Polled every 5 ms: a state awaited here may last only moments. */
const until = (cond: () => boolean, what: string, ms = 5000) => poll(cond, what, ms, 5);

async function started(): Promise<{ term: FakeTerminal; session: TabSession; heard: NeedsYou[] }> {
  home = mkdtempSync(join(tmpdir(), 'baton-needs-you-'));
  const conv = await createConversation(home, { cwd: home, title: 't', user: { type: 'user', name: 'tester', device: 'test' } });
  const term = new FakeTerminal();
  s = new TabSession({ conversation: conv, registry: registryOf(fakeDriver(term)), terminal: term, env: {}, deliveryTimeoutMs: 200 });
  const heard: NeedsYou[] = [];
  s.onNeedsYou((n) => heard.push(n));
  const out = await s.start('fake');
  assert.is(out.kind, 'started', out.message);
  term.output();
  const session = s;
  await until(() => session.status.current === 'idle', 'the CLI ready');
  return { term, session, heard };
}

session('the CLI coming up is not told; a message worked on and answered is done, once', async () => {
  const { term, session, heard } = await started();
  assert.equal(heard, [], 'coming up says nothing');
  assert.is((await session.send('hello')).kind, 'delivered');
  assert.is(session.status.current, 'working');
  term.finish();
  await until(() => session.status.current === 'idle', 'the turn over');
  term.output();
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(heard, ['done']);
});

session('a dialog mid-turn is approval; answered, the end of the turn is done', async () => {
  const { term, session, heard } = await started();
  await session.send('run it');
  term.set('DIALOG');
  await until(() => session.status.current === 'approval', 'the dialog read');
  assert.equal(heard, ['approval']);
  term.set('BUSY');
  await until(() => session.status.current === 'working', 'working again');
  term.finish();
  await until(() => session.status.current === 'idle', 'the turn over');
  assert.equal(heard, ['approval', 'done']);
});

session('a turn ending with a message queued is not done; the queued message answered is', async () => {
  const { term, session, heard } = await started();
  await session.send('first');
  assert.is((await session.send('second')).kind, 'queued');
  term.finish();
  await until(() => term.pasted('second') === 1, 'the queued message typed');
  assert.equal(heard, [], 'nothing told while the queue goes on');
  await until(() => session.status.current === 'working', 'working on the second');
  term.finish();
  await until(() => session.status.current === 'idle', 'the second turn over');
  assert.equal(heard, ['done']);
});

session.run();
