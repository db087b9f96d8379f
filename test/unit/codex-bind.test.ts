// Which codex thread a tab's own process holds (plugins/codex/bind.ts threadAmong), from the
// files its processes hold open as /proc shows them. Two codex TUIs in one directory: each
// tab's files name its own thread, never the other's; nothing before the lock is taken;
// a lock under another CODEX_HOME (an account's) is not this run's; two threads held at once
// are ambiguous, never a guess; the rollout the process holds open is named once it is.
// (heldThread on real processes: test/integration/codex-ingest-bind.test.ts.)
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AmbiguousSessionError } from '../../src/plugins/api.js';
import { threadAmong } from '../../plugins/codex/bind.js';

const A = '01a22f3e-0159-7241-ac42-d6fe5ec3c8d2';
const B = '01a22f3e-ba2b-7a61-b8d5-8cba8c6a477d';
const C = '01a22f3e-f539-7420-b5d7-60f1657ef844';

let dir = '';
let home = '';
const lock = (h: string, id: string) => join(h, 'thread-writer-locks', `${id}.lock`);
const rollout = (h: string, id: string) => join(h, 'sessions', '2026', '12', '01', `rollout-2026-12-01T01-35-22-${id}.jsonl`);

const s = suite('codex binding');
s.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-codex-bind-'));
  home = join(dir, 'codex-home');
  mkdirSync(join(home, 'thread-writer-locks'), { recursive: true });
});
s.after.each(() => rmSync(dir, { recursive: true, force: true }));

s("two TUIs in one directory: each tab's open files name its own thread", () => {
  const tab1 = ['/dev/pts/1', join(home, 'state_5.sqlite'), lock(home, A), join(home, 'thread-writer-locks', '.coordination.lock')];
  const tab2 = ['/dev/pts/2', lock(home, B), rollout(home, B)];
  assert.equal(threadAmong(home, tab1), { thread: A });
  assert.equal(threadAmong(home, tab2), { thread: B, rollout: rollout(home, B) });
});

s('no lock yet (the TUI starting): no answer', () => {
  assert.is(threadAmong(home, ['/dev/pts/1', join(home, 'state_5.sqlite')]), undefined);
  assert.is(threadAmong(home, []), undefined, 'a group that is gone');
});

s("a lock under another CODEX_HOME (another account's) is not this run's thread", () => {
  const other = join(dir, 'accounts', 'codex', 'work');
  assert.is(threadAmong(home, [lock(other, A)]), undefined);
  assert.equal(threadAmong(other, [lock(other, A)]), { thread: A });
});

s('two threads held at once (a /new before baton looked): ambiguous, never a guess', () => {
  try {
    threadAmong(home, [lock(home, B), lock(home, C)]);
    assert.unreachable('a thread was picked');
  } catch (err) {
    assert.instance(err, AmbiguousSessionError);
    assert.ok((err as Error).message.includes(B) && (err as Error).message.includes(C));
  }
});

s.run();
