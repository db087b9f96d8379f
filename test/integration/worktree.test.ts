// src/worktree/worktree.ts on real repositories: fork a worktree (from HEAD or a checkpoint),
// .batoninclude copies, setup command, list, remove, and every bad input leaving nothing behind.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT } from '../../src/errors.js';
import { createCheckpoint } from '../../src/worktree/checkpoint.js';
import { addWorktree, listWorktrees, parseWorktreeList, removeWorktree } from '../../src/worktree/worktree.js';
import { parseInclude } from '../../src/worktree/worktree-include.js';
import { rejectsWith } from '../helpers/baton-error.js';
import { branches, gitOut, initRepo, TempDirs, worktreePaths } from '../helpers/git-repo.js';

const temps = new TempDirs('baton-wt-');
const tmp = () => temps.make();
const sh = gitOut;
const repo = (commit = true) => initRepo(tmp(), commit ? { files: { '.gitignore': '.env\nconfig/local.json\n', 'a.txt': 'a\n' } } : {});

const rejects = rejectsWith;

/** Nothing of a failed fork is left: no branch, no directory, no registered worktree. */
function nothingLeft(d: string, path: string, branch: string): void {
  assert.not.ok(branches(d).includes(branch), `branch ${branch} left behind`);
  assert.not.ok(existsSync(path), `${path} left behind`);
  assert.equal(worktreePaths(d), [d]);
}

const t = suite('worktree');
t.after(() => temps.cleanup());

t('add from HEAD: new branch at HEAD, files checked out, listed', async () => {
  const d = repo();
  const path = join(tmp(), 'fork');
  const res = await addWorktree(d, { branch: 'baton/fork-1', path });
  assert.is(res.path, path);
  assert.is(res.branch, 'baton/fork-1');
  assert.is(res.commit, sh(d, 'rev-parse', 'HEAD'));
  assert.equal(res.copied, []);
  assert.is(readFileSync(join(path, 'a.txt'), 'utf8'), 'a\n');
  assert.is(sh(path, 'rev-parse', '--abbrev-ref', 'HEAD'), 'baton/fork-1');
  assert.is(sh(d, 'rev-parse', '--abbrev-ref', 'HEAD'), 'main', 'the source stays on its branch');
  const list = await listWorktrees(d);
  assert.is(list.length, 2);
  assert.equal(list[0]!.path, d);
  assert.ok(list[0]!.main);
  assert.equal(
    { path: list[1]!.path, branch: list[1]!.branch, head: list[1]!.head, main: list[1]!.main, dirty: list[1]!.dirty, locked: list[1]!.locked },
    { path, branch: 'baton/fork-1', head: res.commit, main: false, dirty: false, locked: false },
  );
});

t('add from a checkpoint: the fork has the uncommitted and untracked work of that turn', async () => {
  const d = repo();
  writeFileSync(join(d, 'a.txt'), 'edited in the turn\n');
  writeFileSync(join(d, 'new.txt'), 'new in the turn\n');
  const ckpt = await createCheckpoint(d, 'conv', 4);
  writeFileSync(join(d, 'a.txt'), 'edited later\n');
  const path = join(tmp(), 'fork');
  const res = await addWorktree(d, { commit: ckpt, branch: 'baton/from-turn-4', path });
  assert.is(res.commit, ckpt);
  assert.is(readFileSync(join(path, 'a.txt'), 'utf8'), 'edited in the turn\n');
  assert.is(readFileSync(join(path, 'new.txt'), 'utf8'), 'new in the turn\n');
  assert.is(readFileSync(join(d, 'a.txt'), 'utf8'), 'edited later\n', 'the source is untouched');
});

t('.batoninclude: listed files copied (mode kept), comments and unsafe lines skipped, nothing overwritten', async () => {
  const d = repo();
  const secret = join(tmp(), 'outside.txt');
  writeFileSync(secret, 'outside the repo');
  writeFileSync(join(d, '.env'), 'TOKEN=local\n');
  chmodSync(join(d, '.env'), 0o600);
  mkdirSync(join(d, 'config'));
  writeFileSync(join(d, 'config', 'local.json'), '{"local":true}\n');
  mkdirSync(join(d, 'somedir'));
  symlinkSync(secret, join(d, 'escape-link'));
  writeFileSync(join(d, 'a.txt'), 'a, edited in the source\n');
  writeFileSync(
    join(d, '.batoninclude'),
    [
      '# files git does not carry',
      '.env',
      '  config/local.json  ',
      '',
      'missing.txt',
      '../outside.txt',
      secret,
      'escape-link',
      'somedir',
      '.git/config',
      'a.txt',
      'config/../.env',
    ].join('\n'),
  );
  const path = join(tmp(), 'fork');
  const res = await addWorktree(d, { branch: 'baton/inc', path });
  assert.equal(res.copied, ['.env', 'config/local.json']);
  assert.equal(Object.fromEntries(res.skipped.map((s) => [s.path, s.reason])), {
    'missing.txt': 'does not exist',
    '../outside.txt': 'outside the repository',
    [secret]: 'an absolute path',
    'escape-link': 'leads outside the repository',
    somedir: 'not a file',
    '.git/config': 'inside .git',
    'a.txt': 'already in the worktree',
    'config/../.env': 'already in the worktree',
  });
  assert.is(readFileSync(join(path, '.env'), 'utf8'), 'TOKEN=local\n');
  assert.is(statSync(join(path, '.env')).mode & 0o777, 0o600);
  assert.is(readFileSync(join(path, 'config', 'local.json'), 'utf8'), '{"local":true}\n');
  assert.is(readFileSync(join(path, 'a.txt'), 'utf8'), 'a\n', 'the checkout wins over the source copy');
  assert.not.ok(existsSync(join(path, 'escape-link')));
});

t('parseInclude: one literal path a line, # comments, blanks and duplicates dropped', () => {
  assert.equal(parseInclude('# c\n.env\r\n\n  x/y.json \n.env\n#.secret\n*.txt\n'), ['.env', 'x/y.json', '*.txt']);
});

t('setup command runs as argv in the new worktree, no shell', async () => {
  const d = repo();
  const path = join(tmp(), 'fork');
  const script = "require('fs').writeFileSync('setup-ran.txt', process.argv[1] + '|' + process.env.BATON_WORKTREE_SOURCE); console.log('set up')";
  const res = await addWorktree(d, { branch: 'baton/setup', path, setup: [process.execPath, '-e', script, '$(echo not expanded)'] });
  assert.is(readFileSync(join(path, 'setup-ran.txt'), 'utf8'), `$(echo not expanded)|${d}`);
  assert.match(res.setupOutput ?? '', /set up/);
});

t('a failing setup command undoes the fork (exit 2) with its output', async () => {
  const d = repo();
  const path = join(tmp(), 'fork');
  const err = await rejects(
    addWorktree(d, { branch: 'baton/bad-setup', path, setup: [process.execPath, '-e', "console.error('no network'); process.exit(3)"] }),
    2,
    /setup command .* exited with 3; the fork was undone:\nno network/,
  );
  assert.match(err.hint ?? '', /setup/);
  nothingLeft(d, path, 'baton/bad-setup');
  await rejects(addWorktree(d, { branch: 'baton/no-such', path, setup: ['/no/such/program'] }), 2, /was not found/);
  nothingLeft(d, path, 'baton/no-such');
  await rejects(addWorktree(d, { branch: 'baton/empty', path, setup: [] }), 2, /setup command is empty/);
  nothingLeft(d, path, 'baton/empty');
});

t('git failing mid-add (a post-checkout hook) rolls back the branch and the directory', async () => {
  const d = repo();
  writeFileSync(join(d, '.git', 'hooks', 'post-checkout'), '#!/bin/sh\necho hook says no >&2\nexit 7\n');
  chmodSync(join(d, '.git', 'hooks', 'post-checkout'), 0o755);
  const path = join(tmp(), 'fork');
  const err = await rejects(addWorktree(d, { branch: 'baton/hooked', path }), 2, /git worktree add .* failed \(exit 7\): [^]*hook says no/);
  assert.match(err.hint ?? '', /Nothing was created/);
  nothingLeft(d, path, 'baton/hooked');
});

t('not a git repository: exit 6, says a worktree fork needs git, offers a tab fork', async () => {
  const plain = tmp();
  const err = await rejects(
    addWorktree(plain, { branch: 'baton/x', path: join(plain, 'x') }),
    EXIT.notARepository,
    /is not a git repository\. A worktree fork needs git/,
  );
  assert.match(err.hint ?? '', /Fork to a new tab/);
  assert.not.ok(existsSync(join(plain, 'x')));
  await rejects(listWorktrees(plain), EXIT.notARepository, /not a git repository/);
  await rejects(removeWorktree(plain, join(plain, 'x')), EXIT.notARepository, /not a git repository/);
});

t('detached HEAD: the fork starts at the detached commit', async () => {
  const d = repo();
  sh(d, 'checkout', '-q', '--detach');
  const path = join(tmp(), 'fork');
  const res = await addWorktree(d, { branch: 'baton/detached', path });
  assert.is(res.commit, sh(d, 'rev-parse', 'HEAD'));
  const list = await listWorktrees(d);
  assert.ok(list[0]!.detached);
  assert.is(list[0]!.branch, null);
  assert.is(list[1]!.branch, 'baton/detached');
});

t('no commits yet: exit 8 from HEAD, but a checkpoint of the fresh repo forks fine', async () => {
  const d = repo(false);
  writeFileSync(join(d, 'draft.txt'), 'draft\n');
  const path = join(tmp(), 'fork');
  const err = await rejects(addWorktree(d, { branch: 'baton/fresh', path }), EXIT.noCommits, /has no commits yet/);
  assert.match(err.hint ?? '', /checkpoint/);
  nothingLeft(d, path, 'baton/fresh');
  const ckpt = await createCheckpoint(d, 'c', 1);
  await addWorktree(d, { commit: ckpt, branch: 'baton/fresh', path });
  assert.is(readFileSync(join(path, 'draft.txt'), 'utf8'), 'draft\n');
});

t('an existing branch or path: exit 10; bad branch names, an unknown commit: exit 2; nothing made', async () => {
  const d = repo();
  sh(d, 'branch', 'baton/taken');
  const path = join(tmp(), 'fork');
  await rejects(addWorktree(d, { branch: 'baton/taken', path }), EXIT.alreadyExists, /branch baton\/taken already exists/);
  await rejects(addWorktree(d, { branch: 'bad..name', path }), 2, /not a valid branch name/);
  await rejects(addWorktree(d, { branch: '-f', path }), 2, /not a valid branch name/);
  await rejects(addWorktree(d, { commit: 'no-such-rev', branch: 'baton/x', path }), 2, /no-such-rev is not a commit/);
  nothingLeft(d, path, 'baton/x');
  mkdirSync(path);
  await rejects(addWorktree(d, { branch: 'baton/y', path }), EXIT.alreadyExists, /already exists/);
  assert.not.ok(branches(d).includes('baton/y'));
  assert.equal(worktreePaths(d), [d]);
  const file = join(tmp(), 'a-file');
  writeFileSync(file, 'x');
  await rejects(addWorktree(d, { branch: 'baton/z', path: file }), EXIT.alreadyExists, /already exists/);
  assert.is(readFileSync(file, 'utf8'), 'x');
});

t('a path git still has a worktree registered at (its directory deleted by hand): locked exit 11, else 10; the registration stays', async () => {
  const d = repo();
  const path = join(tmp(), 'fork');
  await addWorktree(d, { branch: 'baton/old', path });
  sh(d, 'worktree', 'lock', '--reason', 'on a usb disk', path);
  rmSync(path, { recursive: true, force: true });
  const locked = await rejects(
    addWorktree(d, { branch: 'baton/new', path }),
    EXIT.worktreeLocked,
    /locked worktree registered at .*fork \(on a usb disk\), though its directory is gone/,
  );
  assert.match(locked.hint ?? '', /git worktree unlock .*fork && git worktree prune/);
  assert.not.ok(branches(d).includes('baton/new'), 'the branch git made before refusing is gone');
  assert.not.ok(existsSync(path));
  assert.equal(worktreePaths(d), [d, path], "the locked registration is the user's: kept");
  assert.ok((await listWorktrees(d))[1]!.locked, 'and still locked');

  sh(d, 'worktree', 'unlock', path);
  const stale = await rejects(
    addWorktree(d, { branch: 'baton/new', path }),
    EXIT.alreadyExists,
    /worktree registered at .*fork \(branch baton\/old\), though its directory is gone/,
  );
  assert.match(stale.hint ?? '', /git worktree prune/);
  assert.not.ok(branches(d).includes('baton/new'));
  assert.equal(worktreePaths(d), [d, path]);
  sh(d, 'worktree', 'prune');
  await addWorktree(d, { branch: 'baton/new', path });
  assert.ok(existsSync(join(path, 'a.txt')), 'after the prune the same path works');
});

t('list: dirty and locked (with reason) worktrees', async () => {
  const d = repo();
  const p1 = join(tmp(), 'one');
  const p2 = join(tmp(), 'two');
  await addWorktree(d, { branch: 'baton/one', path: p1 });
  await addWorktree(d, { branch: 'baton/two', path: p2 });
  writeFileSync(join(p1, 'untracked.txt'), 'x');
  sh(d, 'worktree', 'lock', '--reason', 'on a USB disk', p2);
  const list = await listWorktrees(d);
  const one = list.find((w) => w.path === p1)!;
  const two = list.find((w) => w.path === p2)!;
  assert.is(one.dirty, true);
  assert.is(one.locked, false);
  assert.is(two.dirty, false);
  assert.is(two.locked, true);
  assert.is(two.lockReason, 'on a USB disk');
  assert.is(list[0]!.dirty, false);
  assert.ok((await listWorktrees(d, { dirty: false })).every((w) => w.dirty === null));
});

t('parseWorktreeList reads porcelain blocks (bare, detached, prunable, unborn)', () => {
  const text = [
    'worktree /r',
    'bare',
    '',
    'worktree /r/a',
    'HEAD 0000000000000000000000000000000000000000',
    'branch refs/heads/new',
    '',
    'worktree /r/b',
    'HEAD 1111111111111111111111111111111111111111',
    'detached',
    'locked',
    'prunable gitdir file points to non-existent location',
    '',
  ].join('\n');
  const [bare, a, b] = parseWorktreeList(text);
  assert.ok(bare!.bare && bare!.main);
  assert.equal([a!.head, a!.branch, a!.main], [null, 'new', false]);
  assert.equal([b!.detached, b!.locked, b!.lockReason, b!.prunable], [true, true, undefined, true]);
});

t('remove: the worktree and its branch go', async () => {
  const d = repo();
  const path = join(tmp(), 'fork');
  await addWorktree(d, { branch: 'baton/gone', path });
  const res = await removeWorktree(d, path);
  assert.equal(res, { path, branch: 'baton/gone', branchDeleted: true });
  assert.not.ok(existsSync(path));
  assert.not.ok(branches(d).includes('baton/gone'));
  assert.equal(worktreePaths(d), [d]);
});

t('remove refuses a dirty worktree (exit 5) unless force', async () => {
  const d = repo();
  const path = join(tmp(), 'fork');
  await addWorktree(d, { branch: 'baton/dirty', path });
  writeFileSync(join(path, 'a.txt'), 'changed\n');
  const err = await rejects(removeWorktree(d, path), 5, /has uncommitted changes/);
  assert.match(err.hint ?? '', /force/);
  assert.is(readFileSync(join(path, 'a.txt'), 'utf8'), 'changed\n');
  assert.ok(branches(d).includes('baton/dirty'));
  await removeWorktree(d, path, { force: true });
  assert.not.ok(existsSync(path));
  assert.not.ok(branches(d).includes('baton/dirty'));
});

t('remove refuses a branch whose commits nothing else holds (exit 5) unless force', async () => {
  const d = repo();
  const path = join(tmp(), 'fork');
  await addWorktree(d, { branch: 'baton/work', path });
  writeFileSync(join(path, 'work.txt'), 'agent work\n');
  sh(path, 'add', 'work.txt');
  sh(path, 'commit', '-q', '-m', 'agent work');
  await rejects(removeWorktree(d, path), 5, /branch baton\/work has commits that no other branch, tag or checkpoint holds/);
  assert.ok(existsSync(join(path, 'work.txt')));
  sh(d, 'branch', 'keep', 'baton/work');
  await removeWorktree(d, path);
  assert.not.ok(branches(d).includes('baton/work'));
  assert.ok(branches(d).includes('keep'));
});

t('remove refuses a locked worktree (exit 11), even with force', async () => {
  const d = repo();
  const path = join(tmp(), 'fork');
  await addWorktree(d, { branch: 'baton/locked', path });
  sh(d, 'worktree', 'lock', path);
  const err = await rejects(removeWorktree(d, path), EXIT.worktreeLocked, /is locked/);
  assert.match(err.hint ?? '', /git worktree unlock/);
  await rejects(removeWorktree(d, path, { force: true }), EXIT.worktreeLocked, /is locked/);
  assert.ok(existsSync(path));
  assert.ok(branches(d).includes('baton/locked'));
});

t('remove: not a worktree, or the main one, is bad input; a vanished directory is pruned', async () => {
  const d = repo();
  await rejects(removeWorktree(d, join(tmp(), 'nowhere')), 2, /is not a worktree of/);
  await rejects(removeWorktree(d, d), 2, /is the main worktree/);
  const path = join(tmp(), 'fork');
  await addWorktree(d, { branch: 'baton/vanished', path });
  rmSync(path, { recursive: true, force: true });
  const res = await removeWorktree(d, path);
  assert.ok(res.branchDeleted);
  assert.equal(worktreePaths(d), [d]);
});

t('remove works when asked from inside the worktree being removed', async () => {
  const d = repo();
  const path = join(tmp(), 'fork');
  await addWorktree(d, { branch: 'baton/self', path });
  await removeWorktree(path, path);
  assert.not.ok(existsSync(path));
  assert.equal(worktreePaths(d), [d]);
});

t.run();
