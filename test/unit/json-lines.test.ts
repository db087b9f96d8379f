// JSON Lines as the CLIs write them: which stdout lines are records, and a whole JSONL log
// read in order (blank lines passed over, unparseable ones counted, a last line without its
// newline, lines and UTF-8 characters that straddle the stream's chunks).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonObjectLine, readJsonlFile } from '../../src/plugins/json-lines.js';

let dir = '';
const t = suite('json-lines');
t.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-jsonl-'));
});
t.after.each(() => rmSync(dir, { recursive: true, force: true }));

async function read(path: string): Promise<{ records: unknown[]; invalid: number }> {
  const records: unknown[] = [];
  let invalid = 0;
  await readJsonlFile(
    path,
    (r) => records.push(r),
    () => invalid++,
  );
  return { records, invalid };
}

t('a stdout line is a record only when it is a JSON object', () => {
  assert.equal(jsonObjectLine('{"type":"init","n":1}'), { type: 'init', n: 1 });
  assert.equal(jsonObjectLine('  {"type":"x"}\r'), { type: 'x' });
  assert.is(jsonObjectLine('Warning: 256-color support not detected.'), undefined);
  assert.is(jsonObjectLine('{not json'), undefined);
  assert.is(jsonObjectLine('[1,2]'), undefined);
  assert.is(jsonObjectLine('42'), undefined);
  assert.is(jsonObjectLine(''), undefined);
});

t('a log: records in order, blank lines passed over, bad lines counted, CRLF and a last line without newline', async () => {
  const f = join(dir, 'a.jsonl');
  writeFileSync(f, '{"a":1}\n\n   \n{"b":2}\r\n{oops\n[3]\n"four"\n{"e":5}');
  assert.equal(await read(f), { records: [{ a: 1 }, { b: 2 }, [3], 'four', { e: 5 }], invalid: 1 });
});

t('a log larger than a read chunk: lines and multi-byte characters split across chunks come out whole', async () => {
  const f = join(dir, 'big.jsonl');
  const lines: string[] = [];
  for (let i = 0; i < 3000; i++) lines.push(JSON.stringify({ i, text: `${'é—🙂'.repeat(i % 17)}${'x'.repeat(i % 89)}` }));
  writeFileSync(f, `${lines.join('\n')}\n`);
  const got = await read(f);
  assert.is(got.invalid, 0);
  assert.equal(
    got.records,
    lines.map((l) => JSON.parse(l)),
  );
});

t('a log that is not there rejects with the file error', async () => {
  try {
    await read(join(dir, 'missing.jsonl'));
    assert.unreachable('should have rejected');
  } catch (err) {
    assert.is((err as NodeJS.ErrnoException).code, 'ENOENT');
  }
});

t.run();
