// Incremental tail of a growing JSONL log: offsets, partial lines, UTF-8 split across
// writes, truncation and replacement, chokidar-driven following, files that appear later.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tailJsonl, tailLines, type LogTail } from '../../src/plugins/log-tail.js';
import { until } from '../helpers/wait.js';

let dir = '';
const tails: LogTail[] = [];
const t = suite('log-tail');
t.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-tail-'));
});
t.after.each(async () => {
  await Promise.all(tails.splice(0).map((x) => x.dispose()));
  rmSync(dir, { recursive: true, force: true });
});

t('reads complete lines and holds a partial last line back until its newline', async () => {
  const f = join(dir, 'a.jsonl');
  writeFileSync(f, '{"n":1}\n{"n":2}\n{"n":');
  const seen: unknown[] = [];
  const tail = await tailJsonl(f, { watch: false, onRecord: (r) => seen.push(r) });
  tails.push(tail);
  assert.equal(seen, [{ n: 1 }, { n: 2 }]);
  assert.is(tail.offset, 16, 'offset stops after the last complete line');
  appendFileSync(f, '3}\n');
  await tail.poll();
  assert.equal(seen, [{ n: 1 }, { n: 2 }, { n: 3 }]);
  assert.is(tail.offset, 24);
});

t('continues from a saved offset without delivering earlier lines again', async () => {
  const f = join(dir, 'b.jsonl');
  writeFileSync(f, '{"n":1}\n{"n":2}\n');
  const first: unknown[] = [];
  const a = await tailJsonl(f, { watch: false, onRecord: (r) => first.push(r) });
  await a.dispose();
  appendFileSync(f, '{"n":3}\n');
  const later: unknown[] = [];
  const ends: number[] = [];
  const onRecord = (r: unknown, end: number) => {
    later.push(r);
    ends.push(end);
  };
  const b = await tailJsonl(f, { from: a.offset, watch: false, onRecord });
  tails.push(b);
  assert.equal(first, [{ n: 1 }, { n: 2 }]);
  assert.equal(later, [{ n: 3 }]);
  assert.equal(ends, [24]);
});

t('a UTF-8 character cut in half by the writer arrives whole', async () => {
  const f = join(dir, 'c.jsonl');
  const line = Buffer.from('{"t":"café ☕"}\n');
  const cut = line.indexOf(Buffer.from('☕')) + 1; // inside the 3-byte sequence
  writeFileSync(f, line.subarray(0, cut));
  const seen: unknown[] = [];
  const tail = await tailJsonl(f, { watch: false, onRecord: (r) => seen.push(r) });
  tails.push(tail);
  assert.equal(seen, []);
  appendFileSync(f, line.subarray(cut));
  await tail.poll();
  assert.equal(seen, [{ t: 'café ☕' }]);
});

t('bad lines are reported and skipped; CRLF and blank lines are tolerated', async () => {
  const f = join(dir, 'd.jsonl');
  writeFileSync(f, '{"ok":1}\r\nnot json\n\n{"ok":2}\n');
  const seen: unknown[] = [];
  const bad: string[] = [];
  const tail = await tailJsonl(f, { watch: false, onRecord: (r) => seen.push(r), onInvalid: (line) => bad.push(line) });
  tails.push(tail);
  assert.equal(seen, [{ ok: 1 }, { ok: 2 }]);
  assert.equal(bad, ['not json']);
});

t('a truncated or replaced log is read again from the top', async () => {
  const f = join(dir, 'e.jsonl');
  writeFileSync(f, 'one\ntwo\n');
  const seen: string[] = [];
  let resets = 0;
  const tail = await tailLines(f, { watch: false, onLine: (l) => seen.push(l), onReset: () => resets++ });
  tails.push(tail);
  writeFileSync(f, 'x\n'); // shorter: truncated and rewritten
  await tail.poll();
  assert.equal(seen, ['one', 'two', 'x']);
  assert.is(resets, 1);
  // Replaced by rename (a new inode), even though it is longer than before.
  writeFileSync(join(dir, 'new'), 'first line of new file\nsecond\n');
  renameSync(join(dir, 'new'), f);
  await tail.poll();
  assert.equal(seen.slice(3), ['first line of new file', 'second']);
  assert.is(resets, 2);
});

t('follows appends through chokidar without being asked', async () => {
  const f = join(dir, 'f.jsonl');
  writeFileSync(f, '');
  const seen: unknown[] = [];
  const tail = await tailJsonl(f, { onRecord: (r) => seen.push(r) });
  tails.push(tail);
  for (let i = 1; i <= 5; i++) appendFileSync(f, `{"i":${i}}\n`);
  await until(() => seen.length === 5, 'the five lines');
  appendFileSync(f, '{"i":6}\n');
  await until(() => seen.length === 6, 'the sixth line');
  assert.equal(
    seen,
    [1, 2, 3, 4, 5, 6].map((i) => ({ i })),
    'each line exactly once, in order',
  );
});

t('a log whose directory does not exist yet is picked up when it appears', async () => {
  const f = join(dir, 'later', 'sessions', 'g.jsonl');
  const seen: unknown[] = [];
  const tail = await tailJsonl(f, { onRecord: (r) => seen.push(r) });
  tails.push(tail);
  mkdirSync(join(dir, 'later', 'sessions'), { recursive: true });
  writeFileSync(f, '{"hello":1}\n');
  await until(() => seen.length === 1, 'the first line of the new file');
  appendFileSync(f, '{"hello":2}\n');
  await until(() => seen.length === 2, 'the second line');
  assert.equal(seen, [{ hello: 1 }, { hello: 2 }]);
});

t('an error in the consumer while following is reported, not thrown into the loop', async () => {
  const f = join(dir, 'h.jsonl');
  writeFileSync(f, '');
  const errors: Error[] = [];
  const tail = await tailLines(f, {
    onLine: () => {
      throw new Error('consumer broke');
    },
    onError: (e) => errors.push(e),
  });
  tails.push(tail);
  appendFileSync(f, 'x\n');
  await until(() => errors.length > 0, "the consumer's error reported");
  assert.match(errors[0]!.message, 'consumer broke');
});

t.run();
