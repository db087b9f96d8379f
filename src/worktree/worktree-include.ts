// `.batoninclude`: the files git does not carry (`.env`, local config) that a new worktree
// still needs, copied from the source working tree. One path per line, taken literally
// (no globs), `#` starts a comment.
// It must never copy from outside the source repo (no `..`, no absolute path, no symlink
// leading out), never copy anything out of `.git`, and never overwrite a file the new
// worktree already has.

import { constants } from 'node:fs';
import { copyFile, lstat, mkdir, readFile, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, relative, sep } from 'node:path';

export const INCLUDE_FILE = '.batoninclude';

export interface IncludeSkip {
  path: string;
  reason: string;
}

export interface IncludeResult {
  /** Paths copied, relative to the repo root. */
  copied: string[];
  /** Lines that named nothing copyable, with why. */
  skipped: IncludeSkip[];
}

/** The paths a `.batoninclude` text names, in order, comments and blank lines dropped. */
export function parseInclude(text: string): string[] {
  const paths: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    if (!paths.includes(line)) paths.push(line);
  }
  return paths;
}

function inside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** Why `rel` cannot be copied from sourceRoot, or null when it can. */
async function refuseReason(sourceRoot: string, realRoot: string, rel: string): Promise<string | null> {
  if (isAbsolute(rel)) return 'an absolute path';
  const norm = normalize(rel);
  if (norm.startsWith('..') || !inside(sourceRoot, join(sourceRoot, norm))) return 'outside the repository';
  if (norm.split(sep)[0] === '.git') return 'inside .git';
  let real: string;
  try {
    await lstat(join(sourceRoot, norm));
    real = await realpath(join(sourceRoot, norm));
  } catch {
    return 'does not exist';
  }
  if (!inside(realRoot, real)) return 'leads outside the repository';
  if (!(await stat(real)).isFile()) return 'not a file';
  return null;
}

/** Copies what sourceRoot's `.batoninclude` names into targetRoot; a missing file list copies nothing. */
export async function copyIncluded(sourceRoot: string, targetRoot: string): Promise<IncludeResult> {
  const result: IncludeResult = { copied: [], skipped: [] };
  let text: string;
  try {
    text = await readFile(join(sourceRoot, INCLUDE_FILE), 'utf8');
  } catch {
    return result;
  }
  const realRoot = await realpath(sourceRoot);
  for (const rel of parseInclude(text)) {
    const reason = await refuseReason(sourceRoot, realRoot, rel);
    if (reason) {
      result.skipped.push({ path: rel, reason });
      continue;
    }
    const norm = normalize(rel);
    const dest = join(targetRoot, norm);
    try {
      await mkdir(dirname(dest), { recursive: true });
      // EXCL: a file the checkout already wrote is the commit's, not ours to replace.
      await copyFile(join(sourceRoot, norm), dest, constants.COPYFILE_EXCL);
      result.copied.push(norm.split(sep).join('/'));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      result.skipped.push({ path: rel, reason: code === 'EEXIST' ? 'already in the worktree' : `could not copy (${code ?? String(err)})` });
    }
  }
  return result;
}
