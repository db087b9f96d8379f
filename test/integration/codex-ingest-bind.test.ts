// codex's ingest bound by process, on real processes: two stand-ins for two tabs' codex TUIs
// in one CODEX_HOME and one directory, each its own process group holding its thread's lock
// open as codex 0.171 does, and two rollouts written the same second (codex names both with
// that second, so timing cannot tell them apart). Each tab's ingest follows the rollout of
// the thread its own group holds, never the other; one that takes its lock later is bound
// then; with neither a session nor a process it follows nothing and says why. After a /new
// (the process takes a new thread's lock beside the first one's) the new thread is followed,
// after a notice.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Ingestor, TranscriptEvent } from '../../src/plugins/api.js';
import { ingestCodex } from '../../plugins/codex/ingest.js';
import { fixtureLines, restamp } from '../helpers/log-fixtures.js';
import { until } from '../helpers/wait.js';

const A = '01a22f3e-0159-7241-ac42-d6fe5ec3c8d2';
const B = '01a22f3e-ba2b-7a61-b8d5-8cba8c6a477d';
const C = '01a22fee-01bd-7740-80d1-9655605a549d';
const FIXTURE_ID = '01a22a52-f80a-79c1-a700-5517965ba854';

let dir = '';
let home = '';
let cwd = '';
const started: ChildProcess[] = [];
const ings: Ingestor[] = [];

const lock = (id: string) => join(home, 'thread-writer-locks', `${id}.lock`);

/** A process in a group of its own that opens `file` after `afterMs` and keeps it open. */
function holder(file: string, afterMs = 0): number {
  const code = `setTimeout(() => { require('fs').openSync(${JSON.stringify(file)}, 'r'); }, ${afterMs}); setInterval(() => {}, 1e6);`;
  const child = spawn(process.execPath, ['-e', code], { detached: true, stdio: 'ignore' });
  started.push(child);
  return child.pid!;
}

/** The captured rollout as thread `id`'s, its tokens renamed `mark`, written after `since`. */
function rollout(id: string, mark: string): void {
  const day = join(home, 'sessions', '2026', '12', '01');
  mkdirSync(day, { recursive: true });
  const at = new Date(Date.now() + 60_000).toISOString();
  const lines = fixtureLines('codex', 'rollout-session.jsonl').map((l) => restamp(l, at).replaceAll(FIXTURE_ID, id).replaceAll('TOKEN-CDX', mark));
  writeFileSync(join(day, `rollout-2026-12-01T01-35-22-${id}.jsonl`), `${lines.join('\n')}\n`);
}

async function follow(extra: { processGroup?: () => number | undefined }): Promise<{ events: TranscriptEvent[]; unbound: string[]; ing: Ingestor }> {
  const events: TranscriptEvent[] = [];
  const unbound: string[] = [];
  const ing = await ingestCodex({
    cwd,
    env: { CODEX_HOME: home, HOME: dir },
    since: new Date(),
    onEvent: (e) => events.push(e),
    onUnbound: (r) => unbound.push(r),
    ...extra,
  });
  ings.push(ing);
  return { events, unbound, ing };
}

const texts = (events: TranscriptEvent[]) => JSON.stringify(events.filter((e) => e.type === 'user_text'));

const t = suite('codex ingest bound by process');
t.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-codex-bind-'));
  home = join(dir, 'codex-home');
  cwd = join(dir, 'work');
  mkdirSync(join(home, 'thread-writer-locks'), { recursive: true });
  mkdirSync(cwd);
  for (const id of [A, B]) writeFileSync(lock(id), '');
});
t.after.each(async () => {
  await Promise.all(ings.splice(0).map((i) => i.dispose()));
  for (const c of started.splice(0)) {
    try {
      process.kill(-c.pid!, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

t("two tabs' codex in one directory: each ingest follows the thread its own process group holds", async () => {
  const groupA = holder(lock(A));
  const groupB = holder(lock(B));
  const tabA = await follow({ processGroup: () => groupA });
  const tabB = await follow({ processGroup: () => groupB });
  rollout(B, 'MARK-B');
  rollout(A, 'MARK-A');
  await until(() => tabA.events.some((e) => e.type === 'turn_end') && tabB.events.some((e) => e.type === 'turn_end'), 'both turns', 10_000);
  assert.match(texts(tabA.events), 'MARK-A');
  assert.not.match(texts(tabA.events), 'MARK-B');
  assert.match(texts(tabB.events), 'MARK-B');
  assert.not.match(texts(tabB.events), 'MARK-A');
  assert.is(tabA.ing.agentSession, A);
  assert.is(tabB.ing.agentSession, B);
  assert.equal([...tabA.unbound, ...tabB.unbound], []);
});

t('a process that takes its lock later is bound then; before that nothing is followed, not even the only rollout', async () => {
  const group = holder(lock(B), 600);
  const tab = await follow({ processGroup: () => group });
  rollout(A, 'MARK-A');
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(tab.events, [], "the other thread's rollout is not this tab's");
  rollout(B, 'MARK-B');
  await until(() => tab.events.some((e) => e.type === 'turn_end'), 'its own turn', 10_000);
  assert.match(texts(tab.events), 'MARK-B');
  assert.not.match(texts(tab.events), 'MARK-A');
});

t("/new in the TUI: the process takes a new thread's lock beside the first; the new thread is followed from then on, after a notice", async () => {
  // As codex 0.171 does: the first lock held from the start, the new thread's lock file
  // created (and held) by the same process at /new, the first one kept.
  const newLock = lock(C);
  const code = `const fs = require('fs'); fs.openSync(${JSON.stringify(lock(A))}, 'r'); process.on('SIGUSR1', () => fs.openSync(${JSON.stringify(newLock)}, 'w')); setInterval(() => {}, 1e6);`;
  const child = spawn(process.execPath, ['-e', code], { detached: true, stdio: 'ignore' });
  started.push(child);
  const tab = await follow({ processGroup: () => child.pid });
  rollout(A, 'MARK-A');
  await until(() => tab.events.some((e) => e.type === 'turn_end'), "the first thread's turn", 10_000);
  await new Promise((r) => setTimeout(r, 300));
  assert.not.ok(
    tab.events.some((e) => e.type === 'notice'),
    'no notice before the new thread',
  );
  process.kill(child.pid!, 'SIGUSR1');
  await until(() => tab.events.some((e) => e.type === 'notice'), 'the notice of the new thread', 10_000);
  rollout(C, 'MARK-C');
  await until(() => tab.events.some((e) => e.type === 'user_text' && e.text.includes('MARK-C')), "the new thread's messages", 10_000);
  const kinds = tab.events.map((e) =>
    e.type === 'user_text'
      ? `user:${e.text.includes('MARK-C') ? 'C' : e.text.includes('MARK-A') ? 'A' : '?'}`
      : e.type === 'session'
        ? `session:${e.agentSession === C ? 'C' : e.agentSession === A ? 'A' : '?'}`
        : e.type,
  );
  const at = (k: string) => kinds.indexOf(k);
  assert.ok(at('user:A') >= 0 && at('user:A') < at('notice') && at('notice') < at('session:C') && at('session:C') < at('user:C'), kinds.join(' '));
  assert.match(JSON.stringify(tab.events.find((e) => e.type === 'notice')), /moved to another thread/);
  assert.is(tab.ing.agentSession, C);
  assert.equal(tab.unbound, []);
});

t('neither a session nor a process: nothing followed, and said why', async () => {
  rollout(A, 'MARK-A');
  const tab = await follow({});
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(tab.events, []);
  assert.is(tab.unbound.length, 1);
  assert.match(tab.unbound[0]!, /cannot tell its thread from another tab's/);
});

t.run();
