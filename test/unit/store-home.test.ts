// Where the store lives and what ids look like: $BATON_HOME resolution, id minting and
// validation (no path escapes), and the private-mode helpers under a permissive umask.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, closeSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatonError } from '../../src/errors.js';
import {
  compareIds,
  conversationDir,
  ensurePrivateDir,
  isConversationId,
  makeDirs,
  newConversationId,
  openPrivate,
  printable,
  resolveHome,
} from '../../src/transcript/store-home.js';

process.umask(0);
const mode = (p: string) => statSync(p).mode & 0o777;

const h = suite('store home');

h('BATON_HOME wins, then XDG_STATE_HOME/baton, then ~/.local/state/baton', () => {
  assert.is(resolveHome({ BATON_HOME: '/b', XDG_STATE_HOME: '/x', HOME: '/h' }), '/b');
  assert.is(resolveHome({ XDG_STATE_HOME: '/x', HOME: '/h' }), '/x/baton');
  assert.is(resolveHome({ HOME: '/h' }), '/h/.local/state/baton');
  assert.is(resolveHome({ XDG_STATE_HOME: '', HOME: '/h' }), '/h/.local/state/baton');
  // XDG says relative values are invalid and ignored.
  assert.is(resolveHome({ XDG_STATE_HOME: 'rel', HOME: '/h' }), '/h/.local/state/baton');
});

h('a relative BATON_HOME is bad input, not a directory relative to wherever baton ran', () => {
  try {
    resolveHome({ BATON_HOME: 'state' });
    assert.unreachable();
  } catch (e) {
    assert.instance(e, BatonError);
    assert.is((e as BatonError).exitCode, 2);
    assert.match((e as BatonError).message, /BATON_HOME/);
  }
});

h('new ids are short, valid, unique and sort by creation time', () => {
  const ids = new Set<string>();
  for (let i = 0; i < 2000; i++) ids.add(newConversationId(new Date(Date.UTC(2026, 0, 1))));
  assert.ok(ids.size > 1990, 'random part keeps ids made in the same millisecond apart');
  for (const id of ids) {
    assert.ok(isConversationId(id), id);
    assert.is(id.length, 12);
  }
  const times = [Date.UTC(2001, 0, 1), Date.UTC(2026, 5, 1), Date.UTC(2026, 5, 1, 0, 0, 1), Date.UTC(2058, 0, 1), Date.UTC(2070, 0, 1)];
  const made = times.map((t) => newConversationId(new Date(t)));
  assert.equal([...made].reverse().sort(compareIds), made);
});

h('only lowercase alphanumerics are ids: nothing that could leave conversations/', () => {
  for (const bad of ['..', '.', '', '../x', 'a/b', 'a\\b', 'abc\u0000', 'ABCD', 'ab', 'x'.repeat(41), 'abcd.json', '~abcd']) {
    assert.not.ok(isConversationId(bad), JSON.stringify(bad));
    try {
      conversationDir('/home/baton', bad);
      assert.unreachable();
    } catch (e) {
      assert.instance(e, BatonError);
      assert.is((e as BatonError).exitCode, 2);
      assert.match((e as BatonError).message, /^no conversation/);
      assert.match((e as BatonError).hint ?? '', /baton transcript list/);
    }
  }
  assert.is(conversationDir('/home/baton', 'mx2mi82aqxmu'), '/home/baton/conversations/mx2mi82aqxmu');
});

h('printable strips control characters and bounds the length', () => {
  assert.is(printable('a\u001b[31mb\nc'), 'a?[31mb?c');
  assert.is(printable('x'.repeat(200)).length, 80);
});

h('private dirs and files get 0700/0600 whatever the umask, and loose ones are tightened', () => {
  const root = mkdtempSync(join(tmpdir(), 'baton-home-'));
  try {
    const deep = join(root, 'a', 'b');
    ensurePrivateDir(deep);
    assert.is(mode(deep), 0o700);
    const loose = join(root, 'loose');
    mkdirSync(loose, { mode: 0o777 });
    chmodSync(loose, 0o777);
    ensurePrivateDir(loose);
    assert.is(mode(loose), 0o700);

    const f = join(root, 'f');
    closeSync(openPrivate(f, 'a'));
    assert.is(mode(f), 0o600);
    const old = join(root, 'old');
    writeFileSync(old, 'x', { mode: 0o666 });
    chmodSync(old, 0o666);
    closeSync(openPrivate(old, 'a'));
    assert.is(mode(old), 0o600);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

h('resolveHome refuses a home that is a file, /dev/null or under a file (exit 2, before anything is read or written)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'baton-home-file-'));
  try {
    const file = join(dir, 'f');
    writeFileSync(file, 'x');
    for (const [home, said] of [
      [file, 'is not a directory'],
      ['/dev/null', 'is not a directory'],
      [join(file, 'sub'), 'is not a directory: a part of that path is a file'],
    ] as const) {
      try {
        resolveHome({ BATON_HOME: home });
        assert.unreachable(home);
      } catch (e) {
        assert.instance(e, BatonError);
        assert.is((e as BatonError).exitCode, 2);
        assert.is((e as BatonError).message, `BATON_HOME ${home} ${said}`);
        assert.match((e as BatonError).hint ?? '', /set BATON_HOME to a directory/);
      }
    }
    // From XDG_STATE_HOME, it says which directory it means.
    assert.throws(
      () => resolveHome({ XDG_STATE_HOME: file }),
      (e: unknown) => /^baton's state directory .* is not a directory/.test((e as Error).message),
    );
    // Missing is fine: it is made on the first write.
    assert.is(resolveHome({ BATON_HOME: join(dir, 'new', 'home') }), join(dir, 'new', 'home'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

h('makeDirs makes missing parents one by one, and fails instead of looping where the file system refuses (/proc)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'baton-makedirs-'));
  try {
    makeDirs(join(dir, 'a', 'b', 'c'));
    assert.is(mode(join(dir, 'a', 'b', 'c')), 0o700);
    makeDirs(join(dir, 'a', 'b', 'c')); // already there: nothing to do
    writeFileSync(join(dir, 'file'), '');
    assert.throws(
      () => makeDirs(join(dir, 'file', 'x')),
      (e: unknown) => (e as NodeJS.ErrnoException).code === 'ENOTDIR',
    );
    // mkdirSync(..., { recursive: true }) never returns here.
    try {
      makeDirs(`/proc/baton-unit-${process.pid}/x`);
      assert.unreachable('made a directory under /proc');
    } catch (e) {
      assert.instance(e, BatonError);
      assert.is((e as BatonError).message, `cannot create /proc/baton-unit-${process.pid}: that file system does not allow a directory there (ENOENT)`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

h.run();
