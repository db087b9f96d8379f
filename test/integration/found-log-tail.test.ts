// A session log that has to be looked for: asked for until it appears (the folder may not
// exist yet), then followed as JSONL from the offset the driver gives, appends included;
// lines that are not JSON reported. Disposing ends the tail: the suite's process would not
// exit with a watcher left open. Choosing the new log by its first record: the oldest one
// started since, those that can never be it remembered and not read again.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AmbiguousSessionError } from '../../src/plugins/api.js';
import { firstNewLog, tailLogOnceFound, type FoundLogTail } from '../../src/plugins/found-log-tail.js';
import { until } from '../helpers/wait.js';

let dir = '';
const logs: FoundLogTail[] = [];
const t = suite('found-log-tail');
t.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-found-'));
});
t.after.each(async () => {
  await Promise.all(logs.splice(0).map((l) => l.dispose()));
  rmSync(dir, { recursive: true, force: true });
});

t('not there yet: looked for until it appears, then read from the top and followed', async () => {
  const path = join(dir, 'sessions', '2025', 'rollout-1.jsonl');
  const records: unknown[] = [];
  let asked = 0;
  let found = 0;
  const log = await tailLogOnceFound({
    find: () => {
      asked++;
      return existsSync(path) ? path : undefined;
    },
    onFound: () => {
      found++;
      return undefined;
    },
    onRecord: (r) => records.push(r),
    onInvalid: () => assert.unreachable('no invalid line was written'),
  });
  logs.push(log);
  assert.is(log.path, undefined);
  await until(() => asked >= 2, 'a second look');
  mkdirSync(join(dir, 'sessions', '2025'), { recursive: true });
  writeFileSync(path, '{"n":1}\n{"n":2}\n');
  await until(() => records.length === 2, 'the records already written');
  assert.is(log.path, path);
  appendFileSync(path, '{"n":3}\n');
  await until(() => records.length === 3, 'the appended record');
  assert.equal(records, [{ n: 1 }, { n: 2 }, { n: 3 }]);
  assert.is(found, 1);
});

t('found at once: read from the offset onFound gives; bad lines reported', async () => {
  const path = join(dir, 'chat.jsonl');
  writeFileSync(path, '{"old":1}\n{"old":2}\n');
  const from = statSync(path).size;
  appendFileSync(path, '{"new":1}\n{broken\n');
  const records: unknown[] = [];
  let invalid = 0;
  const log = await tailLogOnceFound({ find: () => path, onFound: () => from, onRecord: (r) => records.push(r), onInvalid: () => invalid++ });
  logs.push(log);
  // The first read is done before tailLogOnceFound returns.
  assert.equal(records, [{ new: 1 }]);
  assert.is(invalid, 1);
  assert.is(log.path, path);
});

t(
  'firstNewLog: the one log started since that belongs; the never-matching remembered, a half-written one waited for; two are ambiguous, never the older',
  () => {
    const since = new Date(Date.now() - 60_000);
    const at = (ms: number) => new Date(since.getTime() + ms).toISOString();
    const log = (name: string, first: string) => {
      writeFileSync(join(dir, name), first);
      return join(dir, name);
    };
    const old = log('old.jsonl', `{"started":"${at(-5000)}","project":"p"}\n`);
    utimesSync(old, since.getTime() / 1000 - 10, since.getTime() / 1000 - 10);
    const before = log('before.jsonl', `{"started":"${at(-5000)}","project":"p"}\n`);
    const other = log('other.jsonl', `{"started":"${at(1000)}","project":"q"}\n`);
    const later = log('later.jsonl', `{"started":"${at(3000)}","project":"p"}\n`);
    const half = log('half.jsonl', `{"started":"${at(2000)}","proj`);
    const read: string[] = [];
    const header = (path: string) => {
      read.push(path);
      const text = readFileSync(path, 'utf8');
      if (!text.includes('\n')) return undefined;
      const h = JSON.parse(text.split('\n')[0]!) as { started: string; project: string };
      return { started: Date.parse(h.started), project: h.project };
    };
    const rejected = new Set<string>();
    const paths = [old, before, other, later, half];
    const mine = (h: { project: string }) => h.project === 'p';
    // While the half-written one may be a rival, nothing is picked.
    assert.is(firstNewLog(paths, since, rejected, header, mine), undefined);
    assert.equal([...rejected].sort(), [before, old, other].sort());
    assert.not.ok(read.includes(old), 'a log last written before since is not opened');
    // Alone, the one that belongs is picked.
    const first = firstNewLog([old, before, other, later], since, rejected, header, mine);
    assert.is(first?.path, later);
    assert.equal(first?.header, { started: since.getTime() + 3000, project: 'p' });

    // The half-written header completes: two runs' logs, and which is this one's cannot be told.
    appendFileSync(half, 'ect":"p"}\n');
    read.length = 0;
    try {
      firstNewLog(paths, since, rejected, header, mine);
      assert.unreachable('two candidates picked from');
    } catch (err) {
      assert.instance(err, AmbiguousSessionError);
      assert.match((err as Error).message, /2 sessions started in this directory/);
      assert.ok((err as Error).message.includes(half) && (err as Error).message.includes(later));
    }
    assert.equal(read.sort(), [half, later].sort(), 'the rejected are not read again');
    assert.is(
      firstNewLog([join(dir, 'gone.jsonl')], since, rejected, header, () => true),
      undefined,
    );
  },
);

t('tailLogOnceFound: a find() that cannot tell its log stops the looking and says why, once', async () => {
  let asked = 0;
  const said: string[] = [];
  const log = await tailLogOnceFound({
    find: () => {
      asked++;
      if (asked < 2) return undefined;
      throw new AmbiguousSessionError('two of them', 'pick one');
    },
    onRecord: () => assert.unreachable('nothing is read'),
    onInvalid: () => {},
    onUnbound: (r) => said.push(r),
  });
  logs.push(log);
  await new Promise((r) => setTimeout(r, 700));
  assert.is(asked, 2, 'no look after the ambiguity');
  assert.equal(said, ['two of them (pick one)']);
  assert.is(log.path, undefined);
});

t.run();
