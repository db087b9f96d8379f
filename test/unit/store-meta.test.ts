// Conversation metadata through lowdb: defaults, merge and `updated` stamping, 0600
// under a permissive umask (including lowdb's temp file), read-only handles, and
// missing or unreadable meta.json (reported; kept aside rather than overwritten); titles
// redacted on every write and on read (a meta.json written raw by an older baton).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMeta, writeMeta } from '../../src/transcript/store-meta.js';
import type { ConversationMeta } from '../../src/transcript/store-meta.js';

process.umask(0);

let dir = '';
const defaults: ConversationMeta = { id: 'abcd1234', title: '', created: '2026-01-01T00:00:00.000Z', updated: '2026-01-01T00:00:00.000Z', cwd: '/r' };
const at = (iso: string) => () => new Date(iso);
const metaFile = () => join(dir, 'meta.json');

const m = suite('store meta');
m.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-meta-'));
});
m.after.each(() => rmSync(dir, { recursive: true, force: true }));

m('written metadata reads back; updates merge and stamp updated', async () => {
  await writeMeta(dir, { ...defaults, title: 'first' });
  const o = await openMeta(dir, defaults, { write: true, now: at('2026-02-02T00:00:00.000Z') });
  assert.equal(o.problems, []);
  assert.is(o.handle.data.title, 'first');
  await o.handle.update({ lastAgent: { harness: 'codex', model: 'gpt-5' }, baseBranch: 'main' });
  await o.handle.update({ updated: '2026-03-03T00:00:00.000Z' });
  const back = JSON.parse(readFileSync(metaFile(), 'utf8')) as ConversationMeta;
  assert.equal(back, { ...defaults, title: 'first', lastAgent: { harness: 'codex', model: 'gpt-5' }, baseBranch: 'main', updated: '2026-03-03T00:00:00.000Z' });
});

m('meta.json stays 0600 through many writes under umask 0, with no temp file left', async () => {
  await writeMeta(dir, defaults);
  assert.is(statSync(metaFile()).mode & 0o777, 0o600);
  const o = await openMeta(dir, defaults, { write: true });
  await Promise.all(Array.from({ length: 20 }, (_, i) => o.handle.update({ title: `t${i}` })));
  await o.settled();
  assert.is(statSync(metaFile()).mode & 0o777, 0o600);
  assert.is(o.handle.data.title, 't19');
  assert.is((JSON.parse(readFileSync(metaFile(), 'utf8')) as ConversationMeta).title, 't19');
  for (const name of readdirSync(dir)) assert.is(statSync(join(dir, name)).mode & 0o777, 0o600, name);
});

m("the id is the directory's, whatever the file says", async () => {
  await writeMeta(dir, { ...defaults, id: 'zzzz9999' });
  const o = await openMeta(dir, defaults, { write: false });
  assert.is(o.handle.data.id, 'abcd1234');
});

m('a read-only handle refuses updates', async () => {
  await writeMeta(dir, defaults);
  const o = await openMeta(dir, defaults, { write: false });
  try {
    await o.handle.update({ title: 'x' });
    assert.unreachable();
  } catch (e) {
    assert.match((e as Error).message, /read-only/);
  }
});

m('a missing meta.json gives the defaults and a problem', async () => {
  const o = await openMeta(dir, defaults, { write: false });
  assert.equal(o.handle.data, defaults);
  assert.equal(
    o.problems.map((p) => p.kind),
    ['meta'],
  );
  assert.match(o.problems[0]!.detail, /missing/);
});

m('an unreadable meta.json is reported; a writer moves it aside instead of overwriting it', async () => {
  writeFileSync(metaFile(), '{"title": "half');
  const r = await openMeta(dir, defaults, { write: false });
  assert.equal(r.handle.data, defaults);
  assert.match(r.problems[0]!.detail, /unreadable/);
  assert.is(readFileSync(metaFile(), 'utf8'), '{"title": "half', 'a reader changes nothing');

  const w = await openMeta(dir, defaults, { write: true, now: at('2026-05-05T10:00:00.000Z') });
  assert.match(w.problems[0]!.detail, /kept as meta\.json\.corrupt-2026-05-05T10-00-00-000Z/);
  assert.is(readFileSync(join(dir, 'meta.json.corrupt-2026-05-05T10-00-00-000Z'), 'utf8'), '{"title": "half');
  await w.handle.update({ title: 'fresh' });
  assert.is((JSON.parse(readFileSync(metaFile(), 'utf8')) as ConversationMeta).title, 'fresh');
});

const key = 'sk_live_' + 'F4KEabcdefghijklmnopqrst';

m('a title is redacted when it is written, by creation or by update', async () => {
  await writeMeta(dir, { ...defaults, title: `deploy with ${key}` });
  assert.not.ok(readFileSync(metaFile(), 'utf8').includes('F4KE'), 'creation');
  const o = await openMeta(dir, defaults, { write: true });
  assert.is(o.handle.data.title, 'deploy with [REDACTED:stripe-key]');
  await o.handle.update({ title: `rotate ${key} today` });
  await o.settled();
  assert.not.ok(readFileSync(metaFile(), 'utf8').includes('F4KE'), 'update');
  assert.is(o.handle.data.title, 'rotate [REDACTED:stripe-key] today');
});

m('a title written raw by an older baton reads redacted, and the file is left as it was', async () => {
  const old = JSON.stringify({ ...defaults, title: `use ${key}` });
  writeFileSync(metaFile(), old);
  const o = await openMeta(dir, defaults, { write: false });
  assert.is(o.handle.data.title, 'use [REDACTED:stripe-key]');
  assert.is(readFileSync(metaFile(), 'utf8'), old, 'a reader changes nothing');
});

m.run();
