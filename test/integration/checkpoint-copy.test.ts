// src/worktree/checkpoint-copy.ts on a real repository: refs made under another
// conversation's id in one transaction, commits not in the repository skipped, an existing
// ref never replaced.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCheckpoint } from '../../src/worktree/checkpoint.js';
import { copyCheckpoints } from '../../src/worktree/checkpoint-copy.js';
import { BatonError } from '../../src/errors.js';

let repo = '';
const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
const refs = (id: string) => git('for-each-ref', '--format=%(refname) %(objectname)', `refs/baton/checkpoints/${id}/`).split('\n').filter(Boolean);

const c = suite('checkpoint copy');
c.before.each(() => {
  repo = mkdtempSync(join(tmpdir(), 'baton-cpcopy-'));
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 't@example.com');
  git('config', 'user.name', 'T');
  writeFileSync(join(repo, 'a.txt'), 'a');
  git('add', '.');
  git('commit', '-qm', 'init');
});
c.after.each(() => rmSync(repo, { recursive: true, force: true }));

c('copies the commits under the new id, skips what is not a commit here, and leaves the source refs', async () => {
  const one = await createCheckpoint(repo, 'src1', 2);
  writeFileSync(join(repo, 'a.txt'), 'b');
  const two = await createCheckpoint(repo, 'src1', 9);
  const tree = git('rev-parse', 'HEAD^{tree}');
  const n = await copyCheckpoints(repo, 'fork1', [
    { seq: 2, sha: one },
    { seq: 9, sha: two },
    { seq: 11, sha: 'f'.repeat(40) },
    { seq: 12, sha: tree },
  ]);
  assert.is(n, 2);
  assert.equal(refs('fork1'), [`refs/baton/checkpoints/fork1/2 ${one}`, `refs/baton/checkpoints/fork1/9 ${two}`]);
  assert.is(refs('src1').length, 2);
  assert.is(await copyCheckpoints(repo, 'fork2', []), 0);
  assert.is(await copyCheckpoints(repo, 'fork2', [{ seq: 1, sha: '0'.repeat(40) }]), 0);
});

c('an existing ref is never replaced: the whole copy fails and makes nothing', async () => {
  const one = await createCheckpoint(repo, 'src1', 2);
  writeFileSync(join(repo, 'a.txt'), 'b');
  const two = await createCheckpoint(repo, 'fork1', 5);
  try {
    await copyCheckpoints(repo, 'fork1', [
      { seq: 2, sha: one },
      { seq: 5, sha: one },
    ]);
    assert.unreachable('should fail');
  } catch (err) {
    assert.instance(err, BatonError);
  }
  assert.equal(refs('fork1'), [`refs/baton/checkpoints/fork1/5 ${two}`]);
});

c('a bad conversation id is bad input (2), a directory that is no repository exit 6', async () => {
  const plain = mkdtempSync(join(tmpdir(), 'baton-cpcopy-plain-'));
  try {
    for (const [dir, id, code] of [
      [repo, '../x', 2],
      [plain, 'fork1', 6],
    ] as const) {
      try {
        await copyCheckpoints(dir, id, [{ seq: 1, sha: 'a'.repeat(40) }]);
        assert.unreachable('should fail');
      } catch (err) {
        assert.instance(err, BatonError);
        assert.is((err as BatonError).exitCode, code);
      }
    }
  } finally {
    rmSync(plain, { recursive: true, force: true });
  }
});

c.run();
