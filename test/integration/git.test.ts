// src/worktree/git.ts on real repositories in temp dirs: argv without a shell, env,
// stdin, bounded output, GitError with stderr, and the repo questions.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BatonError } from '../../src/errors.js';
import {
  GitError,
  branchExists,
  currentBranch,
  git,
  gitBuffer,
  gitLine,
  gitPath,
  gitTry,
  hasCommits,
  headCommit,
  isDirty,
  isRepo,
  isValidBranchName,
  repoRoot,
  resolveCommit,
  resolveTree,
  upstreamBranch,
} from '../../src/worktree/git.js';
import { gitOut, initRepo, TempDirs } from '../helpers/git-repo.js';

const temps = new TempDirs('baton-git-');
const tmp = () => temps.make();
const sh = gitOut;
const repo = (commit = true) => initRepo(tmp(), commit ? { files: { 'a.txt': 'a\n' } } : {});

const t = suite('git');
t.after(() => temps.cleanup());

t('arguments reach git literally, never through a shell', async () => {
  const d = repo();
  const out = await gitLine(['-c', 'x.y=$(touch pwned); touch pwned2', 'config', 'x.y'], { cwd: d });
  assert.is(out, '$(touch pwned); touch pwned2');
  assert.not.ok(existsSync(join(d, 'pwned')));
  assert.not.ok(existsSync(join(d, 'pwned2')));
});

t('stdin input and env additions', async () => {
  const d = repo();
  assert.is(await gitLine(['hash-object', '--stdin'], { cwd: d, input: 'hello\n' }), 'ce013625030ba8dba906f756967f9e9ca394464a');
  const ident = await gitLine(['var', 'GIT_AUTHOR_IDENT'], { cwd: d, env: { GIT_AUTHOR_NAME: 'Ana Env', GIT_AUTHOR_EMAIL: 'ana@env' } });
  assert.match(ident, /^Ana Env <ana@env> /);
  const buf = await gitBuffer(['cat-file', 'blob', 'HEAD:a.txt'], { cwd: d });
  assert.ok(Buffer.isBuffer(buf));
  assert.is(buf.toString(), 'a\n');
});

t('an inherited GIT_DIR / GIT_INDEX_FILE does not redirect git', async () => {
  const mine = repo();
  const other = repo();
  writeFileSync(join(other, 'other.txt'), 'make its HEAD differ\n');
  sh(other, 'add', 'other.txt');
  sh(other, 'commit', '-q', '-m', 'other');
  // Expected values first: the test's own git calls would follow GIT_DIR too.
  const expected = { root: sh(mine, 'rev-parse', '--show-toplevel'), head: sh(mine, 'rev-parse', 'HEAD') };
  assert.is.not(expected.head, sh(other, 'rev-parse', 'HEAD'));
  const saved = { dir: process.env.GIT_DIR, index: process.env.GIT_INDEX_FILE };
  process.env.GIT_DIR = join(other, '.git');
  process.env.GIT_INDEX_FILE = join(other, 'bogus-index');
  try {
    assert.is(await repoRoot(mine), expected.root);
    assert.is(await headCommit(mine), expected.head);
    assert.not.ok(await isDirty(mine));
  } finally {
    if (saved.dir === undefined) delete process.env.GIT_DIR;
    else process.env.GIT_DIR = saved.dir;
    if (saved.index === undefined) delete process.env.GIT_INDEX_FILE;
    else process.env.GIT_INDEX_FILE = saved.index;
  }
});

t('a failing git is a GitError (a BatonError) carrying its stderr and exit status', async () => {
  const d = repo();
  try {
    await git(['rev-parse', '--verify', 'no-such-branch'], { cwd: d });
    assert.unreachable('should fail');
  } catch (err) {
    assert.instance(err, GitError);
    assert.instance(err, BatonError);
    const e = err as GitError;
    assert.is(e.code, 128);
    assert.match(e.stderr, /no-such-branch|Needed a single revision/);
    assert.match(e.message, /git rev-parse --verify no-such-branch failed \(exit 128\)/);
  }
  const r = await gitTry(['rev-parse', '--verify', 'no-such-branch'], { cwd: d });
  assert.is(r.code, 128);
});

t('output past maxBuffer fails instead of growing without bound', async () => {
  const d = repo();
  writeFileSync(join(d, 'big.txt'), 'x'.repeat(100_000));
  sh(d, 'add', 'big.txt');
  sh(d, 'commit', '-q', '-m', 'big');
  try {
    await git(['cat-file', 'blob', 'HEAD:big.txt'], { cwd: d, maxBuffer: 1000 });
    assert.unreachable('should fail');
  } catch (err) {
    assert.instance(err, GitError);
    assert.match((err as Error).message, /exceeded 1000 bytes/);
  }
  assert.is((await git(['cat-file', 'blob', 'HEAD:big.txt'], { cwd: d })).length, 100_000);
});

t('a missing cwd is bad input naming it', async () => {
  const gone = join(tmp(), 'gone');
  try {
    await git(['status'], { cwd: gone });
    assert.unreachable('should fail');
  } catch (err) {
    assert.instance(err, BatonError);
    assert.is((err as BatonError).exitCode, 2);
    assert.match((err as Error).message, /gone does not exist/);
  }
});

t('isRepo and repoRoot', async () => {
  const d = repo();
  mkdirSync(join(d, 'sub', 'deeper'), { recursive: true });
  assert.ok(await isRepo(d));
  assert.ok(await isRepo(join(d, 'sub', 'deeper')));
  assert.is(await repoRoot(join(d, 'sub', 'deeper')), sh(d, 'rev-parse', '--show-toplevel'));
  assert.not.ok(await isRepo(join(d, '.git')));
  assert.not.ok(await isRepo(join(d, 'missing')));
  const plain = tmp();
  assert.not.ok(await isRepo(plain));
  try {
    await repoRoot(plain);
    assert.unreachable('should fail');
  } catch (err) {
    assert.instance(err, BatonError);
    assert.is((err as BatonError).exitCode, 6);
    assert.match((err as Error).message, /is not a git repository/);
    assert.match((err as BatonError).hint ?? '', /git init/);
  }
});

t('currentBranch: the branch, null when detached, the unborn name before any commit', async () => {
  const d = repo();
  assert.is(await currentBranch(d), 'main');
  sh(d, 'checkout', '-q', '--detach');
  assert.is(await currentBranch(d), null);
  const fresh = repo(false);
  assert.is(await currentBranch(fresh), 'main');
});

t('hasCommits, headCommit, resolveCommit, resolveTree', async () => {
  const fresh = repo(false);
  assert.not.ok(await hasCommits(fresh));
  assert.is(await headCommit(fresh), null);
  const d = repo();
  assert.ok(await hasCommits(d));
  assert.is(await headCommit(d), sh(d, 'rev-parse', 'HEAD'));
  assert.is(await resolveCommit(d, 'main'), sh(d, 'rev-parse', 'HEAD'));
  assert.is(await resolveCommit(d, 'nope'), null);
  assert.is(await resolveCommit(d, '--all'), null);
  assert.is(await resolveTree(d, 'HEAD'), sh(d, 'rev-parse', 'HEAD^{tree}'));
});

t('gitPath: a linked worktree has its own index', async () => {
  const d = repo();
  const wt = join(tmp(), 'wt');
  sh(d, 'worktree', 'add', '-q', '-b', 'side', wt);
  const mainIndex = await gitPath(d, 'index');
  const wtIndex = await gitPath(wt, 'index');
  assert.is(mainIndex, join(sh(d, 'rev-parse', '--absolute-git-dir'), 'index'));
  assert.is.not(wtIndex, mainIndex);
  assert.ok(existsSync(wtIndex));
  assert.match(wtIndex, /worktrees[/\\]wt[/\\]index$/);
});

t('upstreamBranch', async () => {
  const d = repo();
  assert.is(await upstreamBranch(d), null);
  sh(d, 'checkout', '-q', '-b', 'feature');
  sh(d, 'branch', '-q', '--set-upstream-to=main');
  assert.is(await upstreamBranch(d), 'main');
});

t('isDirty sees staged, unstaged and untracked work, not ignored files', async () => {
  const d = repo();
  writeFileSync(join(d, '.gitignore'), '*.log\n');
  sh(d, 'add', '.gitignore');
  sh(d, 'commit', '-q', '-m', 'ignore');
  assert.not.ok(await isDirty(d));
  writeFileSync(join(d, 'x.log'), 'noise');
  assert.not.ok(await isDirty(d));
  writeFileSync(join(d, 'new.txt'), 'n');
  assert.ok(await isDirty(d));
  rmSync(join(d, 'new.txt'));
  writeFileSync(join(d, 'a.txt'), 'changed\n');
  assert.ok(await isDirty(d));
});

t('questions take no optional locks: the index file is not rewritten', async () => {
  const d = repo();
  // A touched (same content) file makes a plain `git status` refresh and rewrite the index.
  const later = new Date(Date.now() + 5000);
  utimesSync(join(d, 'a.txt'), later, later);
  const index = join(d, '.git', 'index');
  const before = readFileSync(index);
  assert.not.ok(await isDirty(d));
  assert.ok(readFileSync(index).equals(before));
});

t('branch names: validity and existence', async () => {
  const d = repo();
  assert.ok(await isValidBranchName(d, 'baton/fix-login'));
  assert.not.ok(await isValidBranchName(d, 'bad..name'));
  assert.not.ok(await isValidBranchName(d, '-x'));
  assert.not.ok(await isValidBranchName(d, ''));
  assert.ok(await branchExists(d, 'main'));
  assert.not.ok(await branchExists(d, 'baton/x'));
});

t.run();
