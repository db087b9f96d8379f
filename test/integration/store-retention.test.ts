// Retention: BATON_RETENTION_DAYS parsing, pruning of conversations untouched past the
// limit, never one open in a live baton (a real second process), the prune log, dry
// runs, and cleanup of leftovers from interrupted creates and prunes.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatonError } from '../../src/errors.js';
import { createConversation, listConversations } from '../../src/transcript/store.js';
import { DEFAULT_RETENTION_DAYS, prune, pruneAtStartup, retentionDays } from '../../src/transcript/store-retention.js';
import { killAll, spawnWriter } from '../fixtures/store-spawn.js';

process.umask(0);

const DAY = 24 * 60 * 60 * 1000;
const user = { type: 'user' as const, name: 'ana', device: 'laptop' };
let home = '';
const later = (days: number) => new Date(Date.now() + days * DAY);

async function make(title: string, cwd = '/work/repo') {
  const c = await createConversation(home, { cwd, title, user });
  c.transcript.apply({ type: 'user_text', text: `hello from ${title}` });
  c.transcript.apply({ type: 'turn_end' });
  await c.close();
  return c;
}

const r = suite('store retention');
r.before.each(() => {
  home = mkdtempSync(join(tmpdir(), 'baton-prune-'));
});
r.after.each(() => {
  killAll();
  rmSync(home, { recursive: true, force: true });
});

r('BATON_RETENTION_DAYS: default 90, whole days, "never" turns it off, anything else is exit 2', () => {
  assert.is(retentionDays({}), DEFAULT_RETENTION_DAYS);
  assert.is(DEFAULT_RETENTION_DAYS, 90);
  assert.is(retentionDays({ BATON_RETENTION_DAYS: '' }), 90);
  assert.is(retentionDays({ BATON_RETENTION_DAYS: ' 30 ' }), 30);
  assert.is(retentionDays({ BATON_RETENTION_DAYS: 'never' }), undefined);
  assert.is(retentionDays({ BATON_RETENTION_DAYS: 'OFF' }), undefined);
  for (const bad of ['0', '-5', '1.5', '30d', 'abc', '1e3', '99999999']) {
    try {
      retentionDays({ BATON_RETENTION_DAYS: bad });
      assert.unreachable(bad);
    } catch (e) {
      assert.instance(e, BatonError, bad);
      assert.is((e as BatonError).exitCode, 2);
      assert.match((e as BatonError).message, /BATON_RETENTION_DAYS/);
      assert.ok((e as BatonError).hint);
    }
  }
});

r('conversations untouched past the limit are pruned and logged, recent ones kept', async () => {
  const old = await make('old one', '/work/old-repo');
  const recent = await make('recent one');
  // Make `old` 100 days old: its log and its metadata both.
  const past = new Date(Date.now() - 100 * DAY);
  const metaPath = join(old.dir, 'meta.json');
  writeFileSync(metaPath, JSON.stringify({ ...JSON.parse(readFileSync(metaPath, 'utf8')), updated: past.toISOString() }));
  for (const f of ['transcript.jsonl', 'meta.json']) utimesSync(join(old.dir, f), past, past);

  const res = await pruneAtStartup(home, {});
  assert.ok(res);
  assert.is(res.olderThanDays, 90);
  assert.equal(
    res.pruned.map((p) => [p.id, p.title, p.cwd]),
    [[old.id, 'old one', '/work/old-repo']],
  );
  assert.equal(res.skippedOpen, []);
  assert.not.ok(existsSync(old.dir));
  assert.ok(existsSync(recent.dir));
  assert.equal(
    (await listConversations(home)).map((c) => c.id),
    [recent.id],
  );

  const log = join(home, 'prune.log');
  assert.is(statSync(log).mode & 0o777, 0o600);
  const line = JSON.parse(readFileSync(log, 'utf8').trim()) as Record<string, string>;
  assert.is(line.pruned, old.id);
  assert.is(line.cwd, '/work/old-repo');
  assert.is(line.title, 'old one');
  assert.match(line.reason!, /more than 90 days/);
  assert.equal(readdirSync(join(home, 'conversations')), [recent.id], 'nothing left behind');
});

r('a conversation open in a live baton is never pruned; one whose baton died is', async () => {
  const a = await make('held');
  const b = await make('abandoned');
  const holder = spawnWriter(['hold', home, a.id]);
  await holder.waitFor(/^locked /m);
  const dead = spawnWriter(['hold', home, b.id]);
  await dead.waitFor(/^locked /m);
  dead.kill('SIGKILL');
  await dead.exited();

  const res = await prune(home, { olderThanDays: 30, now: later(31) });
  assert.equal(res.skippedOpen, [a.id]);
  assert.equal(
    res.pruned.map((p) => p.id),
    [b.id],
  );
  assert.ok(existsSync(join(a.dir, 'transcript.jsonl')));
  assert.not.ok(existsSync(b.dir));

  holder.child.stdin!.end();
  await holder.exited();
  const after = await prune(home, { olderThanDays: 30, now: later(31) });
  assert.equal(
    after.pruned.map((p) => p.id),
    [a.id],
  );
  assert.is(readFileSync(join(home, 'prune.log'), 'utf8').trim().split('\n').length, 2);
});

r('the age limit is respected to the day, and a dry run deletes and logs nothing', async () => {
  const c = await make('c');
  assert.equal((await prune(home, { olderThanDays: 10, now: later(9.9) })).pruned, []);
  const dry = await prune(home, { olderThanDays: 10, now: later(10.1), dryRun: true });
  assert.equal(
    dry.pruned.map((p) => p.id),
    [c.id],
  );
  assert.ok(existsSync(c.dir));
  assert.not.ok(existsSync(join(home, 'prune.log')));
});

r('retention off ("never") prunes nothing; a bad age is exit 2', async () => {
  await make('c');
  assert.is(await pruneAtStartup(home, { BATON_RETENTION_DAYS: 'never' }, later(10_000)), undefined);
  assert.is((await listConversations(home)).length, 1);
  for (const bad of [0, -1, Number.NaN]) {
    try {
      await prune(home, { olderThanDays: bad });
      assert.unreachable();
    } catch (e) {
      assert.is((e as BatonError).exitCode, 2);
    }
  }
});

r('leftovers of interrupted creates and prunes are cleaned up; other files are not touched', async () => {
  await make('c');
  const root = join(home, 'conversations');
  const oldNew = join(root, '.new-abcd1234-0000');
  const freshNew = join(root, '.new-abcd5678-0000');
  const trash = join(root, '.trash-abcd1234-0000');
  for (const d of [oldNew, freshNew, trash]) mkdirSync(d);
  const past = new Date(Date.now() - 2 * DAY);
  utimesSync(oldNew, past, past);
  writeFileSync(join(root, 'NOTES'), 'mine');
  await prune(home, { olderThanDays: 90 });
  assert.not.ok(existsSync(oldNew));
  assert.not.ok(existsSync(trash));
  assert.ok(existsSync(freshNew), 'a create may still be in progress');
  assert.ok(existsSync(join(root, 'NOTES')));
});

r('pruning an empty or missing home is a no-op', async () => {
  assert.equal((await prune(join(home, 'none'), { olderThanDays: 1 })).pruned, []);
});

r.after(() => killAll());
r.run();
