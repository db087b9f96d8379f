// The working tree as one git tree object: tracked and untracked files, not ignored ones,
// deleted files absent, bytes as `git add` stores them. Built in a throwaway index (a copy
// of the worktree's own, so git's stat cache spares re-hashing unchanged files), which is
// what lets checkpoints and diff stats see untracked work. Runs git with a malloc setting
// that makes writing many objects cheap (objectWriterEnv), and remembers where a
// directory's repository is (one git start less per checkpoint).
// It must never write the user's index, HEAD, refs or stash, and never leave its
// temporary index behind: one left by a baton that was killed mid-checkpoint (each a
// copy of a repository's index) is removed by the next one.

import { copyFile, lstat, mkdtemp, readdir, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { badInput } from '../errors.js';
import { exists } from '../proc/index.js';
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

const pathsByDir = new Map<string, RepoPaths>();

/**
 * True while the cached answer for dir still holds: root still has its .git, and no
 * directory from dir up to (not including) root has gained one (a `git init` inside,
 * which would make dir another repository's).
 */
function stillHolds(dir: string, paths: RepoPaths): boolean {
  if (!existsSync(resolve(paths.root, '.git'))) return false;
  let at: string;
  try {
    at = realpathSync(dir);
  } catch {
    return false;
  }
  for (;;) {
    if (at === paths.root) return true;
    if (existsSync(resolve(at, '.git'))) return false;
    const up = dirname(at);
    if (up === at) return false; // never reached root (a symlinked path): ask git again
    at = up;
  }
}

/**
 * repoPaths, remembered per directory while the answer holds (see stillHolds); a
 * checkpoint is taken before every message, and the rev-parse was one git start of five.
 * Failures are never remembered.
 */
export async function cachedRepoPaths(dir: string, what = 'This'): Promise<RepoPaths> {
  const known = pathsByDir.get(dir);
  if (known && stillHolds(dir, known)) return known;
  pathsByDir.delete(dir);
  const paths = await repoPaths(dir, what);
  pathsByDir.set(dir, paths);
  return paths;
}

// glibc hands freed heap back to the kernel as soon as 128 KiB lie free at its top. git
// sets up and frees a zlib stream (~256 KiB) for every loose object it writes, so each of
// the ~330 objects of a 1 MB checkpoint paid a brk shrink (a TLB flush) and fresh page
// faults: on the 2-core VM this was measured at 40% of write-tree and more than half of
// the object-writing time of add. A high trim threshold keeps that memory for the
// process's short life instead. Other libcs ignore the variable; a user's own
// GLIBC_TUNABLES come after ours, so theirs win where both set the same tunable.
const MALLOC_KEEP = 'glibc.malloc.trim_threshold=268435456';

/** Environment for git commands that write many objects (add, write-tree, commit-tree). */
export function objectWriterEnv(inherited: string | undefined = process.env.GLIBC_TUNABLES): { GLIBC_TUNABLES: string } {
  return { GLIBC_TUNABLES: inherited ? `${MALLOC_KEEP}:${inherited}` : MALLOC_KEEP };
}

// Temporary index directories are named baton-index-<pid>-XXXXXX, so a later baton can
// tell the ones whose process is gone. Unnamed ones (baton-index-XXXXXX) come from
// batons before that; they are removed once a day old.
const TEMP_PREFIX = 'baton-index-';
const OWNED = /^baton-index-(\d+)-[A-Za-z0-9]{6}$/;
const UNOWNED = /^baton-index-[A-Za-z0-9]{6}$/;
const UNOWNED_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * Removes the temporary index directories of batons that were killed mid-checkpoint: ours
 * (same user) whose pid is gone, or old unnamed ones. Never one of a live process.
 * Best effort: a directory it cannot read or remove is left as it is.
 */
export async function sweepTempIndexes(dir = tmpdir(), now = Date.now()): Promise<string[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.startsWith(TEMP_PREFIX));
  } catch {
    return [];
  }
  const removed: string[] = [];
  const uid = process.getuid?.();
  for (const name of names) {
    const owned = OWNED.exec(name);
    if (!owned && !UNOWNED.test(name)) continue;
    const path = join(dir, name);
    try {
      const st = await lstat(path);
      if (!st.isDirectory() || (uid !== undefined && st.uid !== uid)) continue;
      const stale = owned ? Number(owned[1]) !== process.pid && !exists(Number(owned[1])) : now - st.mtimeMs > UNOWNED_AGE_MS;
      if (!stale) continue;
      await rm(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
  return removed;
}

let swept: Promise<unknown> | undefined;

/**
 * Runs fn with GIT_INDEX_FILE pointing at a private index: a copy of the worktree's index
 * when `copyFrom` is given and it exists, otherwise empty. Removed afterwards whatever happens.
 */
export async function withTempIndex<T>(copyFrom: string | null, fn: (env: { GIT_INDEX_FILE: string }) => Promise<T>): Promise<T> {
  // Once per process: what killed batons left behind.
  await (swept ??= sweepTempIndexes());
  const dir = await mkdtemp(join(tmpdir(), `${TEMP_PREFIX}${process.pid}-`));
  const file = join(dir, 'index');
  try {
    if (copyFrom) {
      try {
        // The copy keeps the index's mtime: git trusts a file whose stat matches its entry
        // unless the entry is as new as the index file itself ("racily clean"), so a copy
        // stamped now would miss a same-size edit made in the second the index was written.
        // Taken before the copy, the time can only be older than the content: more entries
        // are re-read, never fewer.
        const { atime, mtime } = await stat(copyFrom);
        await copyFile(copyFrom, file);
        await utimes(file, atime, mtime);
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
  const r = await gitTry(args, { cwd: root, env: { ...objectWriterEnv(), ...env } });
  if (r.code !== 0) throw new GitError(args, r.code, r.stderr);
}

/** The tree sha of the working tree as it is now (see the module comment). */
export async function snapshotTree(dir: string, paths?: RepoPaths): Promise<string> {
  const { root, index } = paths ?? (await repoPaths(dir));
  return withTempIndex(index, async (env) => {
    await addAll(root, env);
    return gitLine(['write-tree'], { cwd: root, env: { ...objectWriterEnv(), ...env } });
  });
}
