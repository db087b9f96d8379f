// The conversation store end to end on real temp dirs and real second processes:
// round trip, modes, damaged logs, unknown kinds, crash safety (SIGKILL mid-append),
// one writer per conversation, import, id resolution.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatonError } from '../../src/errors.js';
import { createConversation, findConversation, importJsonl, listConversations, openConversation, readConversation } from '../../src/transcript/store.js';
import type { OpenConversation } from '../../src/transcript/store.js';
import type { Entry } from '../../src/transcript/types.js';
import { killAll, spawnWriter } from '../fixtures/store-spawn.js';

process.umask(0); // the most permissive umask: modes must come out 0600/0700 anyway

const user = { type: 'user' as const, name: 'ana', device: 'laptop' };
let home = '';
const open: OpenConversation[] = [];

const fresh = async (title = 'a conversation') => {
  const c = await createConversation(home, { cwd: '/work/repo', title, user, baseBranch: 'main' });
  open.push(c);
  return c;
};

/** A turn of realistic shape: user, agent text, tool call and result, turn end (a sync point). */
function turn(c: OpenConversation, n: number) {
  const t = c.transcript;
  t.apply({ type: 'user_text', text: `question ${n}` });
  t.apply({ type: 'agent_text', text: `answer ${n}` });
  t.apply({ type: 'tool_call', toolCallId: `call${n}`, toolName: 'Bash', input: { command: ['ls', '-la'] } });
  t.apply({ type: 'tool_result', toolCallId: `call${n}`, output: `out ${n}\n`.repeat(3) });
  t.apply({ type: 'turn_end', usage: { inputTokens: 10, outputTokens: 5 } });
}

const logOf = (c: { dir: string }) => join(c.dir, 'transcript.jsonl');
const mode = (p: string) => statSync(p).mode & 0o777;

async function rejects(p: Promise<unknown>): Promise<BatonError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof BatonError) return e;
    throw e;
  }
  throw new Error('expected a BatonError');
}

const s = suite('store');

s.before.each(() => {
  home = mkdtempSync(join(tmpdir(), 'baton-store-'));
});
s.after.each(async () => {
  for (const c of open.splice(0)) await c.close();
  killAll();
  rmSync(home, { recursive: true, force: true });
});

s('entries written through the transcript load back identically', async () => {
  const c = await fresh();
  c.transcript.startSegment({ harness: 'claude', model: 'opus', switchId: 'sw1' });
  turn(c, 1);
  c.transcript.startSegment({ harness: 'codex', model: 'gpt-5', switchId: 'sw2', mode: 'fresh', briefChars: 1200 });
  turn(c, 2);
  c.transcript.confirmCursor('claude', 'sess-1', 7);
  c.transcript.reset(3);
  const written = JSON.parse(JSON.stringify(c.transcript.entries)) as Entry[];
  await c.close();

  const r = await readConversation(home, c.id);
  assert.equal(r.problems, []);
  assert.equal(r.transcript.entries, written);
  assert.equal(
    r.transcript.segments.map((x) => x.harness),
    ['claude', 'codex'],
  );
  assert.equal(r.transcript.cursor('claude'), { harness: 'claude', agentSession: 'sess-1', deliveredSeq: 7 });
  assert.is(r.meta.data.title, 'a conversation');
  assert.is(r.meta.data.baseBranch, 'main');
  assert.equal(r.meta.data.lastAgent, { harness: 'codex', model: 'gpt-5' });
  // The user author carries over to the next writer.
  const w = await openConversation(home, c.id, { write: true });
  open.push(w);
  assert.equal(w.transcript.user, user);
});

s('the log starts with a versioned header naming the conversation', async () => {
  const c = await fresh();
  turn(c, 1);
  await c.close();
  const lines = readFileSync(logOf(c), 'utf8').split('\n');
  const header = JSON.parse(lines[0]!);
  assert.is(header.format, 'baton-transcript');
  assert.is(header.version, 1);
  assert.is(header.conversation, c.id);
  assert.is(JSON.parse(lines[1]!).seq, 1);
  assert.is(lines.at(-1), '', 'the log ends with a newline');
});

s('files are 0600 and directories 0700 under a permissive umask', async () => {
  const c = await fresh();
  turn(c, 1);
  await c.meta.update({ title: 'renamed' });
  assert.is(mode(home), 0o700);
  assert.is(mode(join(home, 'conversations')), 0o700);
  assert.is(mode(c.dir), 0o700);
  assert.is(mode(logOf(c)), 0o600);
  assert.is(mode(join(c.dir, 'meta.json')), 0o600);
  assert.is(mode(join(c.dir, 'lock')), 0o600);
  for (const name of readdirSync(c.dir)) assert.is(mode(join(c.dir, name)), 0o600, name);
});

s('a torn last line is ignored and reported; the next append starts a fresh line', async () => {
  const c = await fresh();
  turn(c, 1);
  await c.close();
  appendFileSync(logOf(c), '{"kind":"agent_text","text":"cut sho');

  const r = await readConversation(home, c.id);
  assert.is(r.transcript.lastSeq, 5);
  assert.equal(
    r.problems.map((p) => [p.line, p.kind]),
    [[7, 'torn']],
  );

  const w = await openConversation(home, c.id, { write: true });
  turn(w, 2);
  await w.close();
  const lines = readFileSync(logOf(c), 'utf8').split('\n');
  assert.is(lines[6], '{"kind":"agent_text","text":"cut sho', 'the fragment is left alone, not glued to');
  assert.is(JSON.parse(lines[7]!).seq, 6);

  const again = await readConversation(home, c.id);
  assert.is(again.transcript.lastSeq, 10);
  // Now in the middle, the old fragment is a corrupt line: still reported, still there.
  assert.equal(
    again.problems.map((p) => [p.line, p.kind]),
    [[7, 'corrupt']],
  );
});

s('a corrupt middle line is skipped and reported, and the file is never rewritten', async () => {
  const c = await fresh();
  turn(c, 1);
  await c.close();
  const lines = readFileSync(logOf(c), 'utf8').split('\n');
  lines[3] = '{"kind":"agent_text",#garbage#';
  writeFileSync(logOf(c), lines.join('\n'));
  const before = readFileSync(logOf(c));

  const r = await readConversation(home, c.id);
  assert.equal(
    r.problems.map((p) => [p.line, p.kind]),
    [[4, 'corrupt']],
  );
  assert.equal(
    r.transcript.entries.map((e) => e.seq),
    [1, 2, 4, 5],
  );
  assert.ok(readFileSync(logOf(c)).equals(before), 'reading leaves it byte for byte');

  const w = await openConversation(home, c.id, { write: true });
  assert.is(w.problems.length, 1);
  turn(w, 2);
  await w.close();
  const after = readFileSync(logOf(c));
  assert.ok(after.subarray(0, before.length).equals(before), 'writing only appends after it');
  assert.is((await readConversation(home, c.id)).transcript.lastSeq, 10);
});

s('entries of an unknown kind are kept in memory as unknown and stay on disk', async () => {
  const c = await fresh();
  turn(c, 1);
  await c.close();
  const future = {
    kind: 'image',
    seq: 6,
    at: '2026-01-01T00:00:00.000Z',
    author: { type: 'user', name: 'ana', device: 'x' },
    segment: 's0',
    mime: 'image/png',
    sha: 'abc',
  };
  appendFileSync(logOf(c), JSON.stringify(future) + '\n');

  const w = await openConversation(home, c.id, { write: true });
  const u = w.transcript.entry(6)!;
  assert.is(u.kind, 'unknown');
  if (u.kind === 'unknown') {
    assert.is(u.originalKind, 'image');
    assert.equal(u.raw, future);
  }
  assert.equal(
    w.problems.map((p) => [p.line, p.kind]),
    [[7, 'unknown-kind']],
  );
  assert.match(w.problems[0]!.detail, /"image"/);
  turn(w, 2);
  assert.is(w.transcript.lastSeq, 11);
  await w.close();
  assert.ok(readFileSync(logOf(c), 'utf8').includes(JSON.stringify(future) + '\n'));
});

s('a bulk writer killed with SIGKILL loses nothing it acknowledged as synced', async () => {
  const child = spawnWriter(['bulk', home, 'new']);
  const [, id] = await child.waitFor(/^id (\w+)$/m);
  await child.waitFor(/^synced (\d{4,})$/m, 60_000); // a thousand entries in
  child.kill('SIGKILL');
  await child.exited();
  const acked = [...child.out().matchAll(/^synced (\d+)$/gm)].map((m) => Number(m[1]));
  const lastAcked = acked.at(-1)!;

  const r = await readConversation(home, id!);
  const torn = r.problems.filter((p) => p.kind === 'torn');
  assert.ok(torn.length <= 1, `at most one torn line, got ${torn.length}`);
  assert.equal(
    r.problems.filter((p) => p.kind !== 'torn'),
    [],
  );
  assert.ok(r.transcript.lastSeq >= lastAcked);
  const seqs = r.transcript.entries.map((e) => e.seq);
  assert.equal(
    seqs,
    Array.from({ length: seqs.length }, (_, i) => i + 1),
    'dense, nothing lost in between',
  );
  for (const seq of acked) assert.is(r.transcript.entry(seq)!.kind, 'turn_end', `seq ${seq}`);

  // The lock the killed writer left is stale: the next writer takes over and carries on.
  const w = await openConversation(home, id!, { write: true });
  turn(w, 1);
  await w.close();
  const again = await readConversation(home, id!);
  assert.ok(again.problems.every((p) => p.kind === 'corrupt' || p.kind === 'torn'));
  assert.is(again.transcript.entries.at(-1)!.kind, 'turn_end');
});

s('a second writer is refused with exit 5 naming the pid of the one holding it', async () => {
  const c = await fresh();
  await c.close();
  const holder = spawnWriter(['hold', home, c.id]);
  await holder.waitFor(/^locked /m);

  const e = await rejects(openConversation(home, c.id, { write: true }));
  assert.is(e.exitCode, 5);
  assert.is(e.message, `conversation ${c.id} is open in another baton (pid ${holder.pid})`);
  assert.ok(e.hint);
  // Readers do not need the lock.
  const r = await readConversation(home, c.id);
  assert.is(r.id, c.id);
  assert.ok((await listConversations(home))[0]!.open);

  holder.child.stdin!.end();
  await holder.exited();
  const w = await openConversation(home, c.id, { write: true });
  open.push(w);
  assert.ok(w.writable);
});

s('the same process opening a conversation twice for writing is refused too', async () => {
  const c = await fresh();
  const e = await rejects(openConversation(home, c.id, { write: true }));
  assert.is(e.exitCode, 5);
  assert.match(e.message, /already open in this baton/);
});

s('the lock of a writer that died is taken over', async () => {
  const c = await fresh();
  await c.close();
  const holder = spawnWriter(['hold', home, c.id]);
  await holder.waitFor(/^locked /m);
  holder.kill('SIGKILL');
  await holder.exited();
  assert.match(readFileSync(join(c.dir, 'lock'), 'utf8'), new RegExp(`"pid":${holder.pid}`));

  const w = await openConversation(home, c.id, { write: true });
  open.push(w);
  assert.match(readFileSync(join(c.dir, 'lock'), 'utf8'), new RegExp(`"pid":${process.pid}`));
});

s('an ordinary exit without close() still writes buffered entries and removes the lock', async () => {
  const c = await fresh();
  await c.close();
  const child = spawnWriter(['exit', home, c.id, '50']);
  await child.waitFor(/^appended 50$/m);
  assert.equal((await child.exited()).code, 0);
  const r = await readConversation(home, c.id);
  assert.is(r.transcript.lastSeq, 50);
  assert.not.ok(readdirSync(c.dir).includes('lock'));
});

s('ids given by users are validated; unknown ones are exit 2 with a hint', async () => {
  const c = await fresh();
  for (const bad of ['../../etc', 'a/b', '..', '', 'nope1234', c.id + 'x', 'ABC123']) {
    const e = await rejects(readConversation(home, bad));
    assert.is(e.exitCode, 2, bad);
    assert.match(e.message, /^no conversation /);
    assert.match(e.hint!, /baton transcript list/);
  }
  const e = await rejects(readConversation(home, 'abc\u001b[2Jdef'));
  assert.not.match(e.message, /\u001b/, 'control characters are not echoed');
});

s('a unique id prefix finds the conversation; an ambiguous one says so', async () => {
  const a = await fresh('a');
  assert.equal(findConversation(home, a.id.slice(0, 10)), { id: a.id, dir: a.dir });
  const b = await fresh('b');
  const common = [...a.id].findIndex((ch, i) => b.id[i] !== ch);
  if (common >= 4) {
    const e = await rejects(readConversation(home, a.id.slice(0, common)));
    assert.is(e.exitCode, 2);
    assert.match(e.message, /ambiguous/);
  }
});

s('importJsonl starts a new conversation from an exported log, damaged lines left out', async () => {
  const c = await fresh('source');
  c.transcript.startSegment({ harness: 'gemini', model: 'pro', switchId: 'sw' });
  turn(c, 1);
  await c.close();
  const file = join(home, 'export.jsonl');
  writeFileSync(file, readFileSync(logOf(c), 'utf8') + '{"kind":"future","seq":7,"at":"x","author":{"type":"system"},"segment":"s1"}\nnot json\n{"torn');

  const res = await importJsonl(home, file, { cwd: '/elsewhere' });
  assert.is(res.entries, 7);
  assert.equal(
    res.problems.map((p) => p.kind),
    ['unknown-kind', 'corrupt', 'torn'],
  );
  assert.is.not(res.id, c.id);
  const r = await readConversation(home, res.id);
  assert.equal(
    r.problems.map((p) => p.kind),
    ['unknown-kind'],
  );
  assert.equal(
    r.transcript.entries.map((e) => e.seq),
    [1, 2, 3, 4, 5, 6, 7],
  );
  assert.is(r.meta.data.title, 'imported from export.jsonl');
  assert.is(r.meta.data.cwd, '/elsewhere');
  assert.equal(r.meta.data.importedFrom, { file, conversation: c.id });
  assert.is(mode(logOf(r)), 0o600);

  const notOurs = join(home, 'notes.txt');
  writeFileSync(notOurs, 'hello\nworld\n');
  assert.is((await rejects(importJsonl(home, notOurs, { cwd: '/' }))).exitCode, 2);
  assert.is((await rejects(importJsonl(home, join(home, 'missing.jsonl'), { cwd: '/' }))).exitCode, 2);
});

s('a log written by a newer baton is refused with exit 2, not misread', async () => {
  const c = await fresh();
  await c.close();
  const text = readFileSync(logOf(c), 'utf8').replace('"version":1', '"version":2');
  writeFileSync(logOf(c), text);
  const e = await rejects(openConversation(home, c.id, { write: true }));
  assert.is(e.exitCode, 2);
  assert.match(e.message, /newer baton/);
  assert.not.ok(readdirSync(c.dir).includes('lock'), 'the lock taken for it is released');
});

s('a conversation directory without its log is exit 2 naming the missing file', async () => {
  const c = await fresh();
  await c.close();
  rmSync(logOf(c));
  const e = await rejects(openConversation(home, c.id, { write: true }));
  assert.is(e.exitCode, 2);
  assert.ok(e.message.includes(logOf(c)));
  assert.not.ok(readdirSync(c.dir).includes('lock'));
});

s('close is idempotent and a closed conversation takes no more entries', async () => {
  const c = await fresh();
  turn(c, 1);
  await c.close();
  await c.close();
  assert.throws(() => c.transcript.apply({ type: 'notice', text: 'late' }), /closed/);
  try {
    await c.meta.update({ title: 'late' });
    assert.unreachable();
  } catch (e) {
    assert.match((e as Error).message, /closed/);
  }
});

s.after(() => killAll());
s.run();
