// src/conversation/tab-conversation.ts's fork command, against an in-memory terminal
// (test/helpers/fake-agent.ts) in a directory that is not a git repository (the fork looks for
// one, with git, to copy checkpoints in: hence this tier; reset, undo and close are in
// test/unit/tab-conversation.test.ts). What the fork dialog is told, the fork into a tab, the
// refused worktree fork, and the fork opened in a tab of its own as a restored tab is.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatonError, EXIT } from '../../src/errors.js';
import { openTabConversation, type TabConversation } from '../../src/conversation/index.js';
import { FakeTerminal, fakeDriver, registryOf } from '../helpers/fake-agent.js';
import { until as poll } from '../helpers/wait.js';

const USER = { type: 'user', name: 'tester', device: 'test' } as const;

/** Polled every 5 ms: a state awaited here may last only moments. */
const until = (cond: () => boolean, what: string, ms = 5000) => poll(cond, what, ms, 5);

const userTexts = (tab: TabConversation) =>
  tab
    .transcript()
    .visible()
    .flatMap((e) => (e.kind === 'user_message' ? [e.text] : []));
const tabs: TabConversation[] = [];
let home = '';

const terms = new Map<TabConversation, FakeTerminal>();

function open(source: { new: { cwd: string } } | { open: string }): Promise<TabConversation> {
  const term = new FakeTerminal();
  const registry = registryOf(fakeDriver(term, { name: 'alpha', title: 'Alpha', capabilities: { resume: true, tabSession: true } }));
  return openTabConversation({ home, source, user: USER, registry, terminal: term, env: {}, deliveryTimeoutMs: 120, readyTimeoutMs: 2000 }).then((t) => {
    tabs.push(t);
    terms.set(t, term);
    return t;
  });
}

const s = suite('tab conversation: fork');
s.before.each(() => {
  home = mkdtempSync(join(tmpdir(), 'baton-tabfork-'));
});
s.after.each(async () => {
  for (const t of tabs.splice(0)) await t.close();
  rmSync(home, { recursive: true, force: true });
});

s('a fork into a tab holds the entries up to the fork point; the source is untouched; the fork opens in a tab of its own', async () => {
  const src = await open({ new: { cwd: home } });
  assert.is((await src.start('alpha')).kind, 'started');
  for (const text of ['MARK-ONE', 'MARK-TWO']) {
    await until(() => src.snapshot().status === 'idle', 'Alpha idle');
    assert.is((await src.send(text)).kind, 'delivered');
    terms.get(src)!.finish();
  }
  const at = src
    .transcript()
    .visible()
    .find((e) => e.kind === 'user_message' && e.text === 'MARK-ONE')!.seq;
  const facts = await src.forkFacts(at, { alpha: 'Alpha' });
  assert.match(facts.entry, /MARK-ONE/);
  assert.is(facts.agent, 'alpha');
  assert.is(facts.worktreeBlocked?.exitCode, EXIT.notARepository, 'no worktree fork outside a repository');

  const before = src.transcript().visible().length;
  const fork = await src.fork(at, { worktree: false });
  assert.equal(fork.forkedFrom, { conversation: src.facts().id, seq: at });
  assert.is(fork.mode, 'replay');
  assert.is(src.transcript().visible().length, before, 'the source gained nothing');

  const forked = await open({ open: fork.id });
  assert.equal(forked.facts().forkedFrom, { conversation: src.facts().id, seq: at });
  assert.equal(userTexts(forked), ['MARK-ONE']);
  assert.is((await forked.start('alpha')).kind, 'started');
  assert.is(forked.snapshot().agent, 'alpha');
});

s('a fork into a worktree outside a repository is refused with a BatonError and makes nothing', async () => {
  const src = await open({ new: { cwd: home } });
  assert.is((await src.start('alpha')).kind, 'started');
  await until(() => src.snapshot().status === 'idle', 'Alpha idle');
  assert.is((await src.send('MARK-ONE')).kind, 'delivered');
  const at = src.transcript().visible()[0]!.seq;
  const err = await src.fork(at, { worktree: true }).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.instance(err, BatonError);
  assert.is((err as BatonError).exitCode, EXIT.notARepository);
});

s.run();
