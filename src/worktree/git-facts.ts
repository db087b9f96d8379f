// The git facts a handoff brief states: the branch, the base it is measured against, a
// `git diff --stat` from that base to the working tree as it is (untracked files included),
// and the text files under `.context/`. Every part is bounded in size.
// It must never change the repo (no index writes, no refs), never follow a symlink out of
// `.context/` (a link to ~/.ssh must not end up in a prompt), never include binary files,
// and never fail a brief: a fact it cannot find is left out.

import type { Dirent } from 'node:fs';
import { lstat, open, readdir, readFile } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { BatonError } from '../errors.js';
import { GitError, gitTry, resolveCommit, upstreamBranch } from './git.js';
import type { ContextFile, GitFacts, GitFactsProvider } from '../transcript/git-facts-types.js';
import { repoPaths, withTempIndex, type RepoPaths } from './snapshot.js';

export type { ContextFile, GitFacts, GitFactsProvider } from '../transcript/git-facts-types.js';

export interface GitFactsLimits {
  /** Most characters of diff --stat text. */
  maxDiffStatChars: number;
  /** Most files listed by diff --stat before it summarises. */
  maxDiffStatFiles: number;
  /** Most files taken from .context/. */
  maxContextFiles: number;
  /** Most characters of one .context/ file. */
  maxContextFileChars: number;
  /** Most characters of all .context/ files together. */
  maxContextTotalChars: number;
}

export const DEFAULT_GIT_FACTS_LIMITS: GitFactsLimits = {
  maxDiffStatChars: 4000,
  maxDiffStatFiles: 60,
  maxContextFiles: 32,
  maxContextFileChars: 16000,
  maxContextTotalChars: 48000,
};

export const CONTEXT_DIR = '.context';
const MAX_CONTEXT_DEPTH = 8;

/** Cuts a diff --stat to max characters by dropping whole lines from the middle, keeping the summary line. */
function truncateStat(text: string, max: number): string {
  if (text.length <= max) return text;
  const lines = text.split('\n');
  const summary = lines.pop() ?? '';
  const kept: string[] = [];
  let used = summary.length + 60;
  for (const line of lines) {
    if (used + line.length + 1 > max) break;
    kept.push(line);
    used += line.length + 1;
  }
  const note = ` [... ${lines.length - kept.length} more lines of diff --stat truncated]`;
  return [...kept, note, summary].join('\n').slice(0, max);
}

/**
 * `git diff --stat` from where this work left base (their merge base) to the working tree,
 * untracked-but-not-ignored files included: they enter a throwaway copy of the index as
 * intent-to-add (listed with their lines, never hashed into the object store), and
 * `diff --merge-base` compares the working tree with the merge base in one git start.
 */
async function diffStatFact(paths: RepoPaths, base: string, limits: GitFactsLimits): Promise<string | undefined> {
  const { root } = paths;
  const statArgs = [
    '-c',
    'core.quotePath=false',
    'diff',
    '--no-color',
    '--no-ext-diff',
    '--no-textconv',
    `--stat=120,80`,
    `--stat-count=${limits.maxDiffStatFiles}`,
  ];
  return withTempIndex(paths.index, async (env) => {
    const add = ['-c', 'core.splitIndex=false', 'add', '-A', '-N'];
    const added = await gitTry(add, { cwd: root, env });
    if (added.code !== 0) throw new GitError(add, added.code, added.stderr);
    let r = await gitTry([...statArgs, '--merge-base', '--end-of-options', base], { cwd: root, env, maxBuffer: 4 * 1024 * 1024 });
    if (r.code !== 0) {
      // No merge base (unborn HEAD, unrelated histories): measure against base itself.
      const sha = await resolveCommit(root, base);
      if (!sha) return undefined;
      r = await gitTry([...statArgs, sha], { cwd: root, env, maxBuffer: 4 * 1024 * 1024 });
      if (r.code !== 0) return undefined;
    }
    const text = r.stdout.toString('utf8').replace(/\s+$/, '');
    return text ? truncateStat(text, limits.maxDiffStatChars) : '(no changes)';
  });
}

// Where a directory's repository and index are does not change while baton runs: asked once
// per directory, it takes one git start off every later handoff.
const pathsByDir = new Map<string, Promise<RepoPaths | null>>();
function cachedRepoPaths(cwd: string): Promise<RepoPaths | null> {
  let p = pathsByDir.get(cwd);
  if (!p) {
    p = repoPaths(cwd).catch((err: unknown) => {
      pathsByDir.delete(cwd);
      if (err instanceof BatonError) return null; // not a repository: only .context/ below
      throw err;
    });
    pathsByDir.set(cwd, p);
  }
  return p;
}

/**
 * The branch HEAD names, read from the working tree's own HEAD file beside its index (a
 * linked worktree's is in its own git dir): what `git symbolic-ref --short HEAD` answers for
 * a branch, without a git start, each of which forks baton's whole process (more the more it
 * holds: at 100k transcript entries, the most of a handoff's own time). Null when HEAD is
 * detached (a commit id); undefined when the file says anything else (a reftable
 * repository's placeholder, a ref outside refs/heads, an unreadable file): ask git then.
 */
async function branchFromHeadFile(paths: RepoPaths): Promise<string | null | undefined> {
  let head: string;
  try {
    head = (await readFile(join(dirname(paths.index), 'HEAD'), 'utf8')).trim();
  } catch {
    return undefined;
  }
  if (/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(head)) return null;
  const m = /^ref: refs\/heads\/(.+)$/.exec(head);
  if (!m || m[1] === '.invalid') return undefined;
  return m[1]!;
}

/** The branch HEAD names (null: detached, or git could not say). */
async function headBranch(cwd: string, paths: RepoPaths | null): Promise<string | null> {
  const fromFile = paths ? await branchFromHeadFile(paths) : undefined;
  if (fromFile !== undefined) return fromFile;
  const r = await gitTry(['symbolic-ref', '-q', '--short', 'HEAD'], { cwd }).catch(() => null);
  return r?.code === 0 ? r.stdout.toString('utf8').trim() : null;
}

/** Reads at most maxChars characters of a file; null when it looks binary (NUL byte or not UTF-8). */
async function readText(file: string, maxChars: number): Promise<{ text: string; truncated: boolean } | null> {
  const fh = await open(file, 'r');
  try {
    const size = (await fh.stat()).size;
    // UTF-8 is at most 4 bytes a character; read a little past the limit to know it was passed.
    const want = Math.min(size, maxChars * 4 + 4);
    const buf = Buffer.alloc(want);
    const { bytesRead } = await fh.read(buf, 0, want, 0);
    const bytes = buf.subarray(0, bytesRead);
    if (bytes.includes(0)) return null;
    let text: string;
    try {
      // stream: a cut inside a multi-byte character at the end is not an error.
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: bytesRead < size });
    } catch {
      return null;
    }
    return { text, truncated: bytesRead < size || text.length > maxChars };
  } finally {
    await fh.close();
  }
}

/** Regular files under dir, relative posix paths, sorted; no symlinks followed, no .git. */
async function listFiles(dir: string, rel = '', depth = 0): Promise<string[]> {
  if (depth > MAX_CONTEXT_DEPTH) return [];
  let entries: Dirent[];
  try {
    entries = await readdir(join(dir, rel), { withFileTypes: true });
  } catch {
    return [];
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const out: string[] = [];
  for (const e of entries) {
    const p = rel ? posix.join(rel, e.name) : e.name;
    if (e.isDirectory() && e.name !== '.git') out.push(...(await listFiles(dir, p, depth + 1)));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/** The text files under <top>/.context/, bounded; binaries and symlinks skipped. */
export async function contextFiles(top: string, limits: GitFactsLimits = DEFAULT_GIT_FACTS_LIMITS): Promise<ContextFile[]> {
  const dir = join(top, CONTEXT_DIR);
  try {
    if (!(await lstat(dir)).isDirectory()) return [];
  } catch {
    return [];
  }
  const files: ContextFile[] = [];
  let total = 0;
  for (const rel of await listFiles(dir)) {
    if (files.length >= limits.maxContextFiles) break;
    const room = Math.min(limits.maxContextFileChars, limits.maxContextTotalChars - total);
    if (room < 200) break;
    let read: Awaited<ReturnType<typeof readText>>;
    try {
      read = await readText(join(dir, rel), room);
    } catch {
      continue;
    }
    if (!read) continue;
    let text = read.text;
    if (read.truncated) {
      const note = '\n[... truncated]';
      text = text.slice(0, Math.max(0, room - note.length)) + note;
    }
    total += text.length;
    files.push({ path: posix.join(CONTEXT_DIR, rel), text });
  }
  return files;
}

/**
 * The facts for the repo holding cwd. base is the branch the conversation started on; without
 * it, the branch's upstream. Outside a repo only the .context/ files (under cwd) are given.
 */
export async function gitFacts(cwd: string, base?: string, limits: GitFactsLimits = DEFAULT_GIT_FACTS_LIMITS): Promise<GitFacts> {
  const facts: GitFacts = {};
  let top = cwd;
  try {
    // Everything that can start at once does: the upstream (when no base is given) beside
    // the (cached) repository paths, then the branch, the diff stat and .context/ side by side.
    const upstreamP = base ? Promise.resolve(null) : upstreamBranch(cwd).catch(() => null);
    const paths = await cachedRepoPaths(cwd);
    if (paths) {
      top = paths.root;
      const filesP = contextFiles(top, limits);
      const branchP = headBranch(cwd, paths);
      const against = base ?? (await upstreamP) ?? undefined;
      const [branch, stat, files] = await Promise.all([branchP, against ? diffStatFact(paths, against, limits) : undefined, filesP]);
      // The brief's contract: no branch when HEAD is detached.
      if (branch) facts.branch = branch;
      if (against) facts.base = against;
      if (stat) facts.diffStat = stat;
      if (files.length) facts.contextFiles = files;
      return facts;
    }
    await upstreamP;
  } catch (err) {
    // git missing or failing: the brief goes without those facts rather than not at all.
    if (!(err instanceof BatonError)) throw err;
  }
  const files = await contextFiles(top, limits);
  if (files.length) facts.contextFiles = files;
  return facts;
}

/** A GitFactsProvider for the brief, with its own size limits. */
export function createGitFactsProvider(limits: Partial<GitFactsLimits> = {}): GitFactsProvider {
  const all = { ...DEFAULT_GIT_FACTS_LIMITS, ...limits };
  return { facts: (cwd, base) => gitFacts(cwd, base, all) };
}
