// src/worktree/checkpoint.ts on real repositories: what a checkpoint holds, what it must
// leave alone (HEAD, branch, index, stash), fresh repos, linked worktrees, restore.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatonError } from '../../src/errors.js';
import {
  checkpointRef,
  createCheckpoint,
  currentSnapshotTree,
  deleteCheckpoints,
  findCheckpoint,
  listCheckpoints,
  restoreCheckpoint,
} from '../../src/worktree/checkpoint.js';
import { objectWriterEnv } from '../../src/worktree/snapshot.js';

const temps: string[] = [];
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'baton-ckpt-'));
  temps.push(d);
  return d;
}
function sh(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}
function shBuf(cwd: string, ...args: string[]): Buffer {
  return execFileSync('git', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
}
function repo(commit = true): string {
  const d = tmp();
  sh(d, 'init', '-q', '-b', 'main');
  sh(d, 'config', 'user.name', 'Test');
  sh(d, 'config', 'user.email', 'test@example.com');
  sh(d, 'config', 'commit.gpgsign', 'false');
  if (commit) {
    writeFileSync(join(d, '.gitignore'), '*.log\nbuild/\n');
    writeFileSync(join(d, 'a.txt'), 'a\n');
    mkdirSync(join(d, 'src'));
    writeFileSync(join(d, 'src', 'main.ts'), 'export {};\n');
    sh(d, 'add', '-A');
    sh(d, 'commit', '-q', '-m', 'first');
  }
  return d;
}
/** Paths in a commit's tree. */
const files = (d: string, rev: string) => sh(d, 'ls-tree', '-r', '--name-only', rev).split('\n').filter(Boolean);
const blob = (d: string, rev: string, path: string) => shBuf(d, 'cat-file', 'blob', `${rev}:${path}`);

async function rejects(p: Promise<unknown>, exitCode: number, message: RegExp): Promise<BatonError> {
  try {
    await p;
  } catch (err) {
    assert.instance(err, BatonError);
    assert.is((err as BatonError).exitCode, exitCode);
    assert.match((err as Error).message, message);
    return err as BatonError;
  }
  assert.unreachable(`expected a BatonError matching ${message}`);
  throw new Error('unreachable');
}

const t = suite('checkpoint');
t.after(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

t('captures tracked and untracked files, not ignored ones, under its ref', async () => {
  const d = repo();
  writeFileSync(join(d, 'a.txt'), 'a changed\n');
  writeFileSync(join(d, 'new.txt'), 'untracked\n');
  writeFileSync(join(d, 'debug.log'), 'ignored\n');
  mkdirSync(join(d, 'build'));
  writeFileSync(join(d, 'build', 'out.js'), 'ignored\n');
  const sha = await createCheckpoint(d, 'conv1', 3);
  assert.is(sh(d, 'rev-parse', 'refs/baton/checkpoints/conv1/3'), sha);
  assert.is(checkpointRef('conv1', 3), 'refs/baton/checkpoints/conv1/3');
  assert.equal(files(d, sha).sort(), ['.gitignore', 'a.txt', 'new.txt', 'src/main.ts']);
  assert.is(blob(d, sha, 'a.txt').toString(), 'a changed\n');
  assert.is(sh(d, 'rev-parse', `${sha}^`), sh(d, 'rev-parse', 'HEAD'));
  assert.is(await findCheckpoint(d, 'conv1', 3), sha);
  assert.is(await findCheckpoint(d, 'conv1', 4), null);
});

t("a same-size edit made in the second the index was written is seen (git's racily clean entries)", async () => {
  const d = repo();
  // The race made exact: the file's mtime and the index's are one second, and the edit keeps
  // size, inode and mtime (ctime is not trusted here, as on filesystems where it is unreliable).
  sh(d, 'config', 'core.trustctime', 'false');
  const then = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
  utimesSync(join(d, 'a.txt'), then, then);
  sh(d, 'add', 'a.txt');
  utimesSync(join(d, '.git', 'index'), then, then);
  writeFileSync(join(d, 'a.txt'), 'b\n');
  utimesSync(join(d, 'a.txt'), then, then);
  // git itself, with the worktree's own index, sees the edit: the entry is as new as the index.
  assert.is(spawnSync('git', ['diff', '--quiet'], { cwd: d }).status, 1, 'git sees the edit');
  const sha = await createCheckpoint(d, 'conv1', 1);
  assert.is(blob(d, sha, 'a.txt').toString(), 'b\n', 'the checkpoint holds the edit');
});

t('binary files are byte-exact; executable bit and symlinks kept', async () => {
  const d = repo();
  const bytes = Buffer.concat([randomBytes(70_000), Buffer.from([0, 0, 13, 10, 255, 0])]);
  writeFileSync(join(d, 'image.bin'), bytes);
  writeFileSync(join(d, 'run.sh'), '#!/bin/sh\n');
  chmodSync(join(d, 'run.sh'), 0o755);
  symlinkSync('a.txt', join(d, 'link'));
  const sha = await createCheckpoint(d, 'conv1', 1);
  assert.ok(blob(d, sha, 'image.bin').equals(bytes));
  const modes = sh(d, 'ls-tree', sha);
  assert.match(modes, /100755 blob \w+\trun\.sh/);
  assert.match(modes, /120000 blob \w+\tlink/);
});

t('a file deleted since the last commit is absent', async () => {
  const d = repo();
  rmSync(join(d, 'a.txt'));
  const sha = await createCheckpoint(d, 'conv1', 1);
  assert.not.ok(files(d, sha).includes('a.txt'));
  assert.ok(files(d, sha).includes('src/main.ts'));
});

t('a dirty index (staged partial changes) is left exactly as it was', async () => {
  const d = repo();
  writeFileSync(join(d, 'a.txt'), 'staged\n');
  sh(d, 'add', 'a.txt');
  writeFileSync(join(d, 'a.txt'), 'staged\nand more, unstaged\n');
  writeFileSync(join(d, 'new.txt'), 'untracked\n');
  rmSync(join(d, 'src', 'main.ts'));
  const index = join(d, '.git', 'index');
  const before = { bytes: readFileSync(index), cached: sh(d, 'diff', '--cached'), status: sh(d, 'status', '--porcelain') };
  const sha = await createCheckpoint(d, 'conv1', 1);
  assert.ok(readFileSync(index).equals(before.bytes), 'index bytes unchanged');
  assert.is(sh(d, 'diff', '--cached'), before.cached);
  assert.is(sh(d, 'status', '--porcelain'), before.status);
  // The checkpoint holds the working tree, not the index.
  assert.is(blob(d, sha, 'a.txt').toString(), 'staged\nand more, unstaged\n');
});

t('HEAD, the branch and the stash are untouched', async () => {
  const d = repo();
  writeFileSync(join(d, 'a.txt'), 'to stash\n');
  sh(d, 'stash', 'push', '-q', '-m', 'mine');
  writeFileSync(join(d, 'a.txt'), 'working\n');
  // What the user's own refs say: HEAD, the branch, the stash, every branch.
  const refs = () => ({
    head: sh(d, 'rev-parse', 'HEAD'),
    sym: sh(d, 'symbolic-ref', 'HEAD'),
    main: sh(d, 'rev-parse', 'refs/heads/main'),
    stash: sh(d, 'rev-parse', 'refs/stash'),
    stashList: sh(d, 'stash', 'list'),
    branches: sh(d, 'for-each-ref', 'refs/heads'),
  });
  const before = refs();
  await createCheckpoint(d, 'conv1', 1);
  await createCheckpoint(d, 'conv1', 2);
  assert.equal(refs(), before);
  assert.is(readFileSync(join(d, 'a.txt'), 'utf8'), 'working\n');
});

t('works in a repo with no commits yet: a root commit, no index created, HEAD still unborn', async () => {
  const d = repo(false);
  writeFileSync(join(d, 'first.txt'), 'hello\n');
  assert.not.ok(existsSync(join(d, '.git', 'index')));
  const sha = await createCheckpoint(d, 'fresh', 1);
  assert.is(sh(d, 'rev-list', '--parents', '-n', '1', sha), sha, 'no parent');
  assert.equal(files(d, sha), ['first.txt']);
  assert.not.ok(existsSync(join(d, '.git', 'index')));
  assert.is(spawnSync('git', ['rev-parse', '-q', '--verify', 'HEAD'], { cwd: d }).status, 1, 'HEAD still unborn');
});

t('a repo with no commits and a staged file: the index stays as it was', async () => {
  const d = repo(false);
  writeFileSync(join(d, 'staged.txt'), 'staged\n');
  sh(d, 'add', 'staged.txt');
  writeFileSync(join(d, 'loose.txt'), 'loose\n');
  const before = readFileSync(join(d, '.git', 'index'));
  const sha = await createCheckpoint(d, 'fresh', 1);
  assert.equal(files(d, sha), ['loose.txt', 'staged.txt']);
  assert.ok(readFileSync(join(d, '.git', 'index')).equals(before));
});

t('mid-merge with a conflict: the checkpoint holds the conflicted file, the index keeps its stages', async () => {
  const d = repo();
  sh(d, 'checkout', '-q', '-b', 'other');
  writeFileSync(join(d, 'a.txt'), 'other\n');
  sh(d, 'commit', '-q', '-am', 'other');
  sh(d, 'checkout', '-q', 'main');
  writeFileSync(join(d, 'a.txt'), 'main\n');
  sh(d, 'commit', '-q', '-am', 'main');
  assert.is(spawnSync('git', ['merge', 'other'], { cwd: d }).status, 1);
  const index = readFileSync(join(d, '.git', 'index'));
  const sha = await createCheckpoint(d, 'm', 1);
  assert.match(blob(d, sha, 'a.txt').toString(), /<<<<<<< HEAD\nmain\n=======\nother\n>>>>>>> other/);
  assert.ok(readFileSync(join(d, '.git', 'index')).equals(index));
  assert.is(sh(d, 'status', '--porcelain'), 'UU a.txt');
});

t('detached HEAD is fine: the parent is the detached commit', async () => {
  const d = repo();
  sh(d, 'checkout', '-q', '--detach');
  writeFileSync(join(d, 'x.txt'), 'x');
  const sha = await createCheckpoint(d, 'conv1', 1);
  assert.is(sh(d, 'rev-parse', `${sha}^`), sh(d, 'rev-parse', 'HEAD'));
  assert.is(sh(d, 'rev-parse', '--abbrev-ref', 'HEAD'), 'HEAD');
});

t('in a linked worktree: its own files, its own index untouched, its HEAD as parent', async () => {
  const d = repo();
  const wt = join(tmp(), 'wt');
  sh(d, 'worktree', 'add', '-q', '-b', 'side', wt);
  writeFileSync(join(wt, 'a.txt'), 'side\n');
  sh(wt, 'add', 'a.txt');
  sh(wt, 'commit', '-q', '-m', 'side commit');
  writeFileSync(join(wt, 'staged.txt'), 'staged in wt\n');
  sh(wt, 'add', 'staged.txt');
  writeFileSync(join(wt, 'wt-only.txt'), 'wt\n');
  writeFileSync(join(d, 'main-only.txt'), 'main\n');
  const wtIndex = sh(wt, 'rev-parse', '--path-format=absolute', '--git-path', 'index');
  const beforeWt = readFileSync(wtIndex);
  const beforeMain = readFileSync(join(d, '.git', 'index'));
  const sha = await createCheckpoint(wt, 'convwt', 1);
  assert.equal(files(d, sha).sort(), ['.gitignore', 'a.txt', 'src/main.ts', 'staged.txt', 'wt-only.txt']);
  assert.is(blob(d, sha, 'a.txt').toString(), 'side\n');
  assert.is(sh(d, 'rev-parse', `${sha}^`), sh(wt, 'rev-parse', 'HEAD'));
  assert.ok(readFileSync(wtIndex).equals(beforeWt));
  assert.ok(readFileSync(join(d, '.git', 'index')).equals(beforeMain));
  // Checkpoint refs are shared: the main worktree sees them too.
  assert.equal(
    (await listCheckpoints(d, 'convwt')).map((c) => c.sha),
    [sha],
  );
});

t('list is by conversation, numeric seq order; taking a seq again replaces it', async () => {
  const d = repo();
  const s10 = await createCheckpoint(d, 'ab', 10);
  const s2 = await createCheckpoint(d, 'ab', 2);
  await createCheckpoint(d, 'a', 1);
  await createCheckpoint(d, 'abc', 1);
  const list = await listCheckpoints(d, 'ab');
  assert.equal(
    list.map((c) => c.seq),
    [2, 10],
  );
  assert.equal(
    list.map((c) => c.sha),
    [s2, s10],
  );
  assert.ok(list.every((c) => c.conversation === 'ab' && c.tree === sh(d, 'rev-parse', `${c.sha}^{tree}`)));
  assert.ok(list[0]!.at instanceof Date && Math.abs(list[0]!.at.getTime() - Date.now()) < 120_000);
  writeFileSync(join(d, 'later.txt'), 'later');
  const again = await createCheckpoint(d, 'ab', 2);
  assert.is.not(again, s2);
  assert.equal(
    (await listCheckpoints(d, 'ab')).map((c) => c.sha),
    [again, s10],
  );
});

t('deleteCheckpoints: all of a conversation, or all but the newest few', async () => {
  const d = repo();
  for (const seq of [1, 2, 3, 4]) await createCheckpoint(d, 'p', seq);
  await createCheckpoint(d, 'other', 1);
  assert.is(await deleteCheckpoints(d, 'p', { keepLast: 1 }), 3);
  assert.equal(
    (await listCheckpoints(d, 'p')).map((c) => c.seq),
    [4],
  );
  assert.is(await deleteCheckpoints(d, 'p'), 1);
  assert.equal(await listCheckpoints(d, 'p'), []);
  assert.is(await deleteCheckpoints(d, 'p'), 0);
  assert.is((await listCheckpoints(d, 'other')).length, 1);
});

t('bad input: a conversation id that cannot be a ref, a bad seq, not a repo', async () => {
  const d = repo();
  for (const bad of ['', '../x', 'a/b', 'x.lock', 'has space', '-x', 'a..b']) {
    await rejects(createCheckpoint(d, bad, 1), 2, /cannot name a checkpoint/);
  }
  await rejects(createCheckpoint(d, 'ok', -1), 2, /is not a transcript seq/);
  await rejects(createCheckpoint(d, 'ok', 1.5), 2, /is not a transcript seq/);
  const plain = tmp();
  const err = await rejects(createCheckpoint(plain, 'ok', 1), 6, /is not a git repository/);
  assert.match(err.hint ?? '', /git init/);
  assert.equal(sh(d, 'for-each-ref', 'refs/baton'), '');
});

t('restore round trip: changed, deleted and created files go back; ignored files stay; HEAD and index untouched', async () => {
  const d = repo();
  const bytes = randomBytes(20_000);
  writeFileSync(join(d, 'image.bin'), bytes);
  writeFileSync(join(d, 'notes.txt'), 'untracked at checkpoint\n');
  writeFileSync(join(d, 'a.txt'), 'a at checkpoint\n');
  sh(d, 'add', 'a.txt');
  const ckpt = await createCheckpoint(d, 'r', 1);
  const tree = sh(d, 'rev-parse', `${ckpt}^{tree}`);

  // What an agent does during the turn:
  writeFileSync(join(d, 'a.txt'), 'agent rewrote this\n');
  writeFileSync(join(d, 'image.bin'), randomBytes(100));
  rmSync(join(d, 'notes.txt'));
  rmSync(join(d, 'src', 'main.ts'));
  mkdirSync(join(d, 'src', 'deep', 'er'), { recursive: true });
  writeFileSync(join(d, 'src', 'deep', 'er', 'new.ts'), 'new\n');
  writeFileSync(join(d, 'agent.txt'), 'created by the agent\n');
  writeFileSync(join(d, 'run.log'), 'ignored, must stay\n');
  await createCheckpoint(d, 'r', 2);

  const index = join(d, '.git', 'index');
  const before = { index: readFileSync(index), head: sh(d, 'rev-parse', 'HEAD'), cached: sh(d, 'diff', '--cached') };
  const res = await restoreCheckpoint(d, ckpt, { conversation: 'r' });
  assert.is(res.tree, tree);
  assert.is(await currentSnapshotTree(d), tree);
  assert.is(readFileSync(join(d, 'a.txt'), 'utf8'), 'a at checkpoint\n');
  assert.ok(readFileSync(join(d, 'image.bin')).equals(bytes));
  assert.is(readFileSync(join(d, 'notes.txt'), 'utf8'), 'untracked at checkpoint\n');
  assert.is(readFileSync(join(d, 'src', 'main.ts'), 'utf8'), 'export {};\n');
  assert.not.ok(existsSync(join(d, 'agent.txt')));
  assert.not.ok(existsSync(join(d, 'src', 'deep')), 'emptied directories go too');
  assert.is(readFileSync(join(d, 'run.log'), 'utf8'), 'ignored, must stay\n');
  assert.ok(readFileSync(index).equals(before.index));
  assert.is(sh(d, 'rev-parse', 'HEAD'), before.head);
  assert.is(sh(d, 'diff', '--cached'), before.cached);
  assert.is(res.removed, 2);
  assert.is(res.written, 4);
});

t('restore handles a file that became a directory, a symlink and the executable bit', async () => {
  const d = repo();
  writeFileSync(join(d, 'thing'), 'a file\n');
  writeFileSync(join(d, 'tool.sh'), '#!/bin/sh\n');
  chmodSync(join(d, 'tool.sh'), 0o755);
  symlinkSync('a.txt', join(d, 'link'));
  const ckpt = await createCheckpoint(d, 'r', 1);
  rmSync(join(d, 'thing'));
  mkdirSync(join(d, 'thing'));
  writeFileSync(join(d, 'thing', 'inside.txt'), 'x');
  chmodSync(join(d, 'tool.sh'), 0o644);
  rmSync(join(d, 'link'));
  writeFileSync(join(d, 'link'), 'now a plain file');
  await restoreCheckpoint(d, ckpt, { force: true });
  assert.is(readFileSync(join(d, 'thing'), 'utf8'), 'a file\n');
  assert.ok(statSync(join(d, 'tool.sh')).mode & 0o100);
  assert.is(readFileSync(join(d, 'link'), 'utf8'), 'a\n');
  assert.ok(lstatSync(join(d, 'link')).isSymbolicLink());
  assert.is(await currentSnapshotTree(d), sh(d, 'rev-parse', `${ckpt}^{tree}`));
});

t('restore refuses (exit 5) when the worktree holds changes no checkpoint holds, unless force', async () => {
  const d = repo();
  writeFileSync(join(d, 'a.txt'), 'one\n');
  const ckpt = await createCheckpoint(d, 'r', 1);
  writeFileSync(join(d, 'a.txt'), 'unsaved work\n');
  writeFileSync(join(d, 'fresh.txt'), 'unsaved too\n');
  const err = await rejects(restoreCheckpoint(d, ckpt, { conversation: 'r' }), 5, /changes that no checkpoint holds/);
  assert.match(err.hint ?? '', /force/);
  assert.is(readFileSync(join(d, 'a.txt'), 'utf8'), 'unsaved work\n');
  assert.ok(existsSync(join(d, 'fresh.txt')));
  // A checkpoint of another conversation does not count for this one.
  await createCheckpoint(d, 'elsewhere', 1);
  await rejects(restoreCheckpoint(d, ckpt, { conversation: 'r' }), 5, /no checkpoint holds/);
  // ...but with no conversation named, any checkpoint counts.
  await restoreCheckpoint(d, ckpt);
  assert.is(readFileSync(join(d, 'a.txt'), 'utf8'), 'one\n');
  writeFileSync(join(d, 'a.txt'), 'more unsaved work\n');
  await rejects(restoreCheckpoint(d, ckpt), 5, /no checkpoint holds/);
  await restoreCheckpoint(d, ckpt, { conversation: 'r', force: true });
  assert.is(readFileSync(join(d, 'a.txt'), 'utf8'), 'one\n');
  assert.not.ok(existsSync(join(d, 'fresh.txt')));
});

t('restore over a clean worktree (matches HEAD) needs no force; restoring the same state is a no-op', async () => {
  const d = repo();
  writeFileSync(join(d, 'a.txt'), 'checkpointed\n');
  const ckpt = await createCheckpoint(d, 'r', 1);
  sh(d, 'checkout', '-q', '--', 'a.txt');
  const res = await restoreCheckpoint(d, ckpt, { conversation: 'r' });
  assert.is(res.written, 1);
  assert.is(readFileSync(join(d, 'a.txt'), 'utf8'), 'checkpointed\n');
  assert.equal(await restoreCheckpoint(d, ckpt, { conversation: 'r' }), { tree: res.tree, written: 0, removed: 0 });
});

t('restore of an unknown sha is bad input; restore in a fresh repo works', async () => {
  const d = repo();
  await rejects(restoreCheckpoint(d, 'deadbeef'), 2, /is not in/);
  const fresh = repo(false);
  writeFileSync(join(fresh, 'one.txt'), '1');
  const ckpt = await createCheckpoint(fresh, 'f', 1);
  writeFileSync(join(fresh, 'two.txt'), '2');
  rmSync(join(fresh, 'one.txt'));
  await createCheckpoint(fresh, 'f', 2);
  await restoreCheckpoint(fresh, ckpt, { conversation: 'f' });
  assert.ok(existsSync(join(fresh, 'one.txt')));
  assert.not.ok(existsSync(join(fresh, 'two.txt')));
});

t('no identity git can use: the fallback identity, before and after the first commit', async () => {
  const saved = { global: process.env.GIT_CONFIG_GLOBAL, nosystem: process.env.GIT_CONFIG_NOSYSTEM };
  process.env.GIT_CONFIG_GLOBAL = '/dev/null';
  process.env.GIT_CONFIG_NOSYSTEM = '1';
  const restore = (name: string, v: string | undefined) => (v === undefined ? delete process.env[name] : (process.env[name] = v));
  try {
    const d = repo(false);
    sh(d, 'config', '--unset', 'user.name');
    sh(d, 'config', '--unset', 'user.email');
    sh(d, 'config', 'user.useConfigOnly', 'true');
    writeFileSync(join(d, 'one.txt'), '1\n');
    const root = await createCheckpoint(d, 'anon', 1);
    assert.is(sh(d, 'log', '-1', '--format=%an <%ae>|%P', root), 'baton <baton@localhost>|');
    execFileSync('git', ['-c', 'user.name=U', '-c', 'user.email=u@example.com', 'commit', '-q', '--allow-empty', '-m', 'c'], { cwd: d, env: process.env });
    const child = await createCheckpoint(d, 'anon', 2);
    assert.is(sh(d, 'log', '-1', '--format=%an <%ae>|%P', child), `baton <baton@localhost>|${sh(d, 'rev-parse', 'HEAD')}`);
  } finally {
    restore('GIT_CONFIG_GLOBAL', saved.global);
    restore('GIT_CONFIG_NOSYSTEM', saved.nosystem);
  }
});

t('the repository a directory is in is remembered only while that holds: a git init inside, a .git removed', async () => {
  const d = repo();
  const sub = join(d, 'sub');
  mkdirSync(sub);
  writeFileSync(join(sub, 'inner.txt'), 'inner\n');
  const outer1 = await createCheckpoint(sub, 'moves', 1);
  assert.is(sh(d, 'rev-parse', 'refs/baton/checkpoints/moves/1'), outer1);
  assert.ok(files(d, outer1).includes('sub/inner.txt'));

  // sub becomes a repository of its own: the next checkpoint is taken there.
  sh(sub, 'init', '-q', '-b', 'main');
  const inner = await createCheckpoint(sub, 'moves', 2);
  assert.equal(files(sub, inner), ['inner.txt']);
  assert.is(sh(sub, 'rev-parse', 'refs/baton/checkpoints/moves/2'), inner);
  assert.is(spawnSync('git', ['rev-parse', '-q', '--verify', 'refs/baton/checkpoints/moves/2'], { cwd: d }).status, 1);

  // ...and back to the outer one once it is gone again.
  rmSync(join(sub, '.git'), { recursive: true, force: true });
  const outer3 = await createCheckpoint(sub, 'moves', 3);
  assert.is(sh(d, 'rev-parse', 'refs/baton/checkpoints/moves/3'), outer3);

  // No repository at all any more: the not-a-repository error, as for a directory never seen.
  rmSync(join(d, '.git'), { recursive: true, force: true });
  await rejects(createCheckpoint(sub, 'moves', 4), 6, /is not a git repository/);
  await rejects(createCheckpoint(d, 'moves', 4), 6, /is not a git repository/);
});

t('git writes objects with a malloc trim threshold; a GLIBC_TUNABLES of the user comes after it and wins', async () => {
  assert.is(objectWriterEnv(undefined).GLIBC_TUNABLES, 'glibc.malloc.trim_threshold=268435456');
  assert.is(
    objectWriterEnv('glibc.malloc.trim_threshold=131072:glibc.malloc.arena_max=2').GLIBC_TUNABLES,
    'glibc.malloc.trim_threshold=268435456:glibc.malloc.trim_threshold=131072:glibc.malloc.arena_max=2',
  );
  const saved = process.env.GLIBC_TUNABLES;
  process.env.GLIBC_TUNABLES = 'glibc.malloc.arena_max=2';
  try {
    const d = repo();
    writeFileSync(join(d, 'x.txt'), 'x\n');
    const sha = await createCheckpoint(d, 'tuned', 1);
    assert.is(blob(d, sha, 'x.txt').toString(), 'x\n');
  } finally {
    if (saved === undefined) delete process.env.GLIBC_TUNABLES;
    else process.env.GLIBC_TUNABLES = saved;
  }
});

t.run();
