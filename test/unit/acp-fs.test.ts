// The client file system ACP agents get: absolute paths only, line/limit, "not found" as
// the protocol's -32002, writes that create parent directories.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTextFile, within, writeTextFile } from '../../src/plugins/acp-fs.js';

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

t("with a root (a view tab's directory): inside is served, outside refused (-32602), a link out of it too", async () => {
  const root = join(dir, 'work');
  mkdirSync(root);
  writeFileSync(join(dir, 'secret.txt'), 'outside');
  symlinkSync(dir, join(root, 'up'));
  await writeTextFile(join(root, 'sub/new.txt'), 'inside', root);
  assert.is(await readTextFile(join(root, 'sub/new.txt'), null, null, root), 'inside');
  assert.is(await code(readTextFile(join(dir, 'secret.txt'), null, null, root)), -32602);
  assert.is(await code(readTextFile(join(root, '../secret.txt'), null, null, root)), -32602);
  assert.is(await code(readTextFile(join(root, 'up/secret.txt'), null, null, root)), -32602);
  assert.is(await code(writeTextFile(join(root, 'up/written.txt'), 'x', root)), -32602);
  assert.not.ok(existsSync(join(dir, 'written.txt')), 'nothing written outside');
  assert.ok(within(root, root));
  assert.not.ok(within(root, `${root}-sibling/x`));
});

t.run();
