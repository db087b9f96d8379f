// The working tree as one git tree object: tracked and untracked files, not ignored ones,
// deleted files absent, bytes as `git add` stores them. Built in a throwaway index (a copy
// of the worktree's own, so git's stat cache spares re-hashing unchanged files), which is
// what lets checkpoints and diff stats see untracked work.
// It must never write the user's index, HEAD, refs or stash, and never leave its
// temporary index behind.

import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { badInput } from '../errors.js';
import { gitLine, gitTry, GitError, notARepository } from './git.js';

export interface RepoPaths {
  /** Top of this working tree (a linked worktree's own top). */
  root: string;
  /** This working tree's own index file (absolute). */
  index: string;
}

/**
 * Where the working tree holding dir and its index are, in one git call (this is on the path
 * of every checkpoint). Not a repo (or a bare one, or inside .git): the notARepository error.
 */
export async function repoPaths(dir: string, what = 'This'): Promise<RepoPaths> {
  if (!existsSync(dir)) throw badInput(`${dir} does not exist`, 'Give a directory that exists.');
  const r = await gitTry(['rev-parse', '--is-inside-work-tree', '--show-toplevel', '--git-path', 'index'], { cwd: dir });
  const [inside, root, index] = r.stdout.toString('utf8').split('\n');
  if (r.code !== 0 || inside !== 'true' || !root || !index) throw notARepository(dir, what);
  return { root, index: isAbsolute(index) ? index : resolve(dir, index) };
}

/**
 * Runs fn with GIT_INDEX_FILE pointing at a private index: a copy of the worktree's index
 * when `copyFrom` is given and it exists, otherwise empty. Removed afterwards whatever happens.
 */
export async function withTempIndex<T>(
  copyFrom: string | null,
  fn: (env: { GIT_INDEX_FILE: string }) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'baton-index-'));
  const file = join(dir, 'index');
  try {
    if (copyFrom) {
      try {
        await copyFile(copyFrom, file);
      } catch (err) {
        // No index yet (fresh repo, nothing ever added): start empty.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
    return await fn({ GIT_INDEX_FILE: file });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// A split index would make git write a new shared index into the user's git dir for our
// throwaway copy; an ordinary index file keeps the copy self-contained.
const ADD_CONFIG = ['-c', 'core.splitIndex=false'];

/** Stages the whole working tree into the index named by env. */
export async function addAll(root: string, env: { GIT_INDEX_FILE: string }): Promise<void> {
  const args = [...ADD_CONFIG, 'add', '-A'];
  const r = await gitTry(args, { cwd: root, env });
  if (r.code !== 0) throw new GitError(args, r.code, r.stderr);
}

/** The tree sha of the working tree as it is now (see the module comment). */
export async function snapshotTree(dir: string, paths?: RepoPaths): Promise<string> {
  const { root, index } = paths ?? (await repoPaths(dir));
  return withTempIndex(index, async (env) => {
    await addAll(root, env);
    return gitLine(['write-tree'], { cwd: root, env });
  });
}
