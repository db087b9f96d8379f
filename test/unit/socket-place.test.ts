// src/server/socket-place.ts: the socket's directory is $XDG_RUNTIME_DIR/baton or
// baton-<uid> under the temp dir, made 0700; one that is a link, a file, another user's,
// or open to others is refused (exit 5) with its name and what to do; server names are
// checked like every name baton takes from the user.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatonError } from '../../src/errors.js';
import { checkServerName, ensurePrivateDir, socketDir, socketPlace } from '../../src/server/socket-place.js';

let root = '';
const s = suite('socket place');
s.before.each(() => {
  root = mkdtempSync(join(tmpdir(), 'baton-sock-'));
});
s.after.each(() => rmSync(root, { recursive: true, force: true }));

function refusedWith(fn: () => unknown, re: RegExp): void {
  try {
    fn();
    assert.unreachable('not refused');
  } catch (e) {
    assert.instance(e, BatonError);
    assert.is((e as BatonError).exitCode, 5);
    assert.match((e as BatonError).message, re);
    assert.ok((e as BatonError).hint);
  }
}

s('XDG_RUNTIME_DIR/baton when set, else baton-<uid> under TMPDIR; made 0700', () => {
  assert.is(socketDir({ XDG_RUNTIME_DIR: '/run/user/7' }, 7), '/run/user/7/baton');
  assert.is(socketDir({ TMPDIR: '/var/tmp' }, 7), '/var/tmp/baton-7');
  assert.is(socketDir({ XDG_RUNTIME_DIR: 'relative', TMPDIR: '/t' }, 7), '/t/baton-7', 'a relative XDG_RUNTIME_DIR is ignored');
  const p = socketPlace({ XDG_RUNTIME_DIR: root }, 'work');
  assert.is(p.path, join(root, 'baton', 'work.sock'));
  assert.is(statSync(p.dir).mode & 0o777, 0o700);
});

s('a directory open to others, a link, or a file is refused', () => {
  const open = join(root, 'open');
  mkdirSync(open, { mode: 0o755 });
  chmodSync(open, 0o755);
  refusedWith(() => ensurePrivateDir(open, { create: true }), /open to other users \(mode 755\)/);
  const link = join(root, 'link');
  symlinkSync(open, link);
  refusedWith(() => ensurePrivateDir(link, { create: true }), /symbolic link/);
  const file = join(root, 'file');
  writeFileSync(file, '');
  refusedWith(() => ensurePrivateDir(file, { create: true }), /not a directory/);
});

s('a directory of another user is refused', () => {
  const theirs = join(root, 'theirs');
  mkdirSync(theirs, { mode: 0o700 });
  if (process.getuid?.() === 0) {
    chownSync(theirs, 65534, 65534);
    refusedWith(() => ensurePrivateDir(theirs, { create: false }), /belongs to another user \(uid 65534\)/);
  } else {
    refusedWith(() => ensurePrivateDir(theirs, { create: false, uid: (process.getuid?.() ?? 0) + 1 }), /belongs to another user/);
  }
});

s('server names: letters, digits, . _ -; no paths', () => {
  assert.is(checkServerName('work-2.x'), 'work-2.x');
  for (const bad of ['', '../x', 'a/b', '.hidden', 'a..b', 'x'.repeat(65), 'sp ace']) {
    try {
      checkServerName(bad);
      assert.unreachable(bad);
    } catch (e) {
      assert.is((e as BatonError).exitCode, 2, bad);
    }
  }
});

s.run();
