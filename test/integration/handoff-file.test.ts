// Handoff files in real git repositories (temp dirs): a brief too long to paste with its
// message is written to .baton/handoff-<id>.md (0600 in a 0700 dir, never through a link) and never shows in `git status` — .baton/ is
// excluded through the repository's own info/exclude, once, the file's mode kept, also
// from a linked worktree and from a subdirectory — and removeLaunchFiles takes it away.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { briefAndMessage, excludeHandoffDir, removeLaunchFiles, writeHandoffFile } from '../../src/plugins/handoff-file.js';
import { BatonError } from '../../src/errors.js';
import { symlinkSync } from 'node:fs';

const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-C', cwd, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' });
const mode = (p: string) => statSync(p).mode & 0o777;
const exclude = (repo: string) => readFileSync(join(repo, '.git', 'info', 'exclude'), 'utf8');
const count = (text: string, line: string) => text.split('\n').filter((l) => l === line).length;

let root = '';
const s = suite('handoff file');
s.before.each(() => {
  root = mkdtempSync(join(tmpdir(), 'baton-handoff-'));
});
s.after.each(() => {
  rmSync(root, { recursive: true, force: true });
});

function repo(name = 'repo'): string {
  const dir = join(root, name);
  mkdirSync(dir);
  git(dir, 'init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'README'), 'hi\n');
  git(dir, 'add', 'README');
  git(dir, 'commit', '-q', '-m', 'init');
  return dir;
}

s('a brief and message within the limit are pasted whole: no file, no .baton, no exclude line', () => {
  const dir = repo();
  const before = exclude(dir);
  assert.equal(briefAndMessage(dir, '[baton handoff brief] B', 'short message', 'sw1'), { text: '[baton handoff brief] B\n\nshort message' });
  assert.not.ok(existsSync(join(dir, '.baton')));
  assert.is(exclude(dir), before);
});

s('a long brief goes as a file (0600, dir 0700, .baton/ excluded once, git status clean); the message is pasted last, unchanged', () => {
  const dir = repo();
  const brief = 'B'.repeat(200_000);
  const pasted = briefAndMessage(dir, brief, 'my message MSG-1', 'sw-long');
  const file = join(dir, '.baton', 'handoff-sw-long.md');
  assert.is(pasted.file, file);
  assert.is(readFileSync(file, 'utf8'), brief);
  assert.ok(pasted.text.includes(file), 'the CLI is pointed at the file');
  assert.ok(pasted.text.endsWith('\n\nmy message MSG-1'), 'the message last, as written');
  assert.ok(Buffer.byteLength(pasted.text) < 1024);
  assert.is(mode(file), 0o600);
  assert.is(mode(join(dir, '.baton')), 0o700);
  assert.is(git(dir, 'status', '--porcelain'), '');
  assert.is(count(exclude(dir), '.baton/'), 1);
  // A second handoff in the same repository adds nothing to the exclude file.
  briefAndMessage(dir, brief, 'again', 'sw-two', 1000);
  assert.is(count(exclude(dir), '.baton/'), 1);
  assert.is(git(dir, 'status', '--porcelain'), '');
  removeLaunchFiles([file]);
  assert.not.ok(existsSync(file));
  assert.ok(existsSync(join(dir, '.baton', 'handoff-sw-two.md')), "another run's file stays");
});

s('a .baton that is a symbolic link is refused (exit 2): its target is neither chmodded nor written', () => {
  const dir = repo();
  const target = join(root, 'elsewhere');
  mkdirSync(target, { mode: 0o755 });
  symlinkSync(target, join(dir, '.baton'));
  try {
    writeHandoffFile(dir, 'sw-x', 'secret brief');
    assert.unreachable('a symlinked .baton was used');
  } catch (e) {
    assert.instance(e, BatonError);
    assert.is((e as BatonError).exitCode, 2);
    assert.match((e as BatonError).message, 'symbolic link');
  }
  assert.is(mode(target), 0o755, 'the target keeps its mode');
  assert.equal(readdirSync(target), []);
});

s('a handoff file planted as a symbolic link is not followed', () => {
  const dir = repo();
  writeHandoffFile(dir, 'first', 'x');
  const victim = join(root, 'victim.txt');
  writeFileSync(victim, 'untouched');
  symlinkSync(victim, join(dir, '.baton', 'handoff-sw-y.md'));
  assert.throws(() => writeHandoffFile(dir, 'sw-y', 'secret brief'), /ELOOP|symbolic/);
  assert.is(readFileSync(victim, 'utf8'), 'untouched');
});

s('the exclude file keeps its mode and its content; a last line without newline is not joined', () => {
  const dir = repo();
  const path = join(dir, '.git', 'info', 'exclude');
  writeFileSync(path, '*.log');
  chmodSync(path, 0o640);
  assert.ok(excludeHandoffDir(dir));
  assert.is(readFileSync(path, 'utf8').split('\n')[0], '*.log');
  assert.is(count(readFileSync(path, 'utf8'), '.baton/'), 1);
  assert.is(mode(path), 0o640);
  assert.ok(excludeHandoffDir(dir));
  assert.is(count(readFileSync(path, 'utf8'), '.baton/'), 1);
});

s('an exclude line the user wrote (.baton) is enough: nothing appended', () => {
  const dir = repo();
  const path = join(dir, '.git', 'info', 'exclude');
  writeFileSync(path, '.baton\n');
  assert.ok(excludeHandoffDir(dir));
  assert.is(readFileSync(path, 'utf8'), '.baton\n');
});

s('a repository without info/exclude gets one', () => {
  const dir = repo();
  rmSync(join(dir, '.git', 'info'), { recursive: true });
  writeHandoffFile(dir, 'sw', 'text');
  assert.is(count(exclude(dir), '.baton/'), 1);
  assert.is(git(dir, 'status', '--porcelain'), '');
});

s("from a linked worktree: the repository's shared exclude, and both status are clean", () => {
  const main = repo();
  const linked = join(root, 'linked');
  git(main, 'worktree', 'add', '-q', '-b', 'side', linked);
  const { path } = writeHandoffFile(linked, 'sw-linked', 'brief');
  assert.ok(existsSync(path));
  assert.is(count(exclude(main), '.baton/'), 1);
  assert.is(git(linked, 'status', '--porcelain'), '');
  assert.is(git(main, 'status', '--porcelain'), '');
});

s('from a subdirectory of the repository: .baton/ below the top is excluded too', () => {
  const dir = repo();
  const sub = join(dir, 'pkg', 'a');
  mkdirSync(sub, { recursive: true });
  writeFileSync(join(sub, 'x.ts'), '1\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'sub');
  writeHandoffFile(sub, 'sw-sub', 'brief');
  assert.ok(existsSync(join(sub, '.baton', 'handoff-sw-sub.md')));
  assert.is(git(dir, 'status', '--porcelain'), '');
});

s('outside any repository the file is written all the same', () => {
  const dir = join(root, 'plain');
  mkdirSync(dir);
  assert.not.ok(excludeHandoffDir(dir));
  const r = briefAndMessage(dir, 'x'.repeat(50), 'm', undefined, 10);
  assert.ok(r.file && existsSync(r.file));
  assert.is(mode(r.file!), 0o600);
});

s('removeLaunchFiles: the files go, then .baton when empty; a missing file is fine', () => {
  const dir = repo();
  const a = writeHandoffFile(dir, 'a', 'A').path;
  const b = writeHandoffFile(dir, 'b', 'B').path;
  removeLaunchFiles([a]);
  assert.not.ok(existsSync(a));
  assert.ok(existsSync(join(dir, '.baton')));
  removeLaunchFiles([b, a]);
  assert.not.ok(existsSync(join(dir, '.baton')));
  // A file outside .baton is removed, its directory left alone.
  const other = join(dir, 'other.txt');
  writeFileSync(other, 'x');
  removeLaunchFiles([other]);
  assert.not.ok(existsSync(other));
  assert.ok(existsSync(dir));
});

s.run();
