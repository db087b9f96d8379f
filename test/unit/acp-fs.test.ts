// The client file system ACP agents get: absolute paths only, line/limit, "not found" as
// the protocol's -32002, writes that create parent directories.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTextFile, writeTextFile } from '../../src/plugins/acp-fs.js';

let dir = '';
const t = suite('acp-fs');
t.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'baton-acpfs-'));
});
t.after.each(() => rmSync(dir, { recursive: true, force: true }));

async function code(p: Promise<unknown>): Promise<number> {
  try {
    await p;
  } catch (err) {
    return (err as { code: number }).code;
  }
  throw new Error('expected an error');
}

t('reads a whole file, or `limit` lines from 1-based `line`', async () => {
  const f = join(dir, 'a.txt');
  writeFileSync(f, '1\n2\n3\n4\n');
  assert.is(await readTextFile(f), '1\n2\n3\n4\n');
  assert.is(await readTextFile(f, 2, 2), '2\n3');
  assert.is(await readTextFile(f, 3), '3\n4\n');
  assert.is(await readTextFile(f, null, 1), '1');
  assert.is(await readTextFile(f, 99, 5), '');
});

t('a missing file is "resource not found"; a relative path is invalid params', async () => {
  assert.is(await code(readTextFile(join(dir, 'nope.txt'))), -32002);
  assert.is(await code(readTextFile('relative.txt')), -32602);
  assert.is(await code(writeTextFile('relative.txt', 'x')), -32602);
});

t('writes create missing parent directories and replace existing content', async () => {
  const f = join(dir, 'deep', 'er', 'b.txt');
  await writeTextFile(f, 'first');
  await writeTextFile(f, 'second ☕');
  assert.is(readFileSync(f, 'utf8'), 'second ☕');
});

t.run();
