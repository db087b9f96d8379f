// Worktree forks: a new git worktree on a new branch at a given commit (usually a turn's
// checkpoint), with the `.batoninclude` files copied in and an optional setup command run
// there; listing them; removing one together with its branch.
// It must never leave a half-made fork behind (a failed add or setup rolls back the branch
// and the directory), never remove a dirty worktree or a branch holding commits nothing
// else holds unless forced, never touch a locked worktree, and never run anything through
// a shell. Each bad input has its own exit code (errors.ts): not a repository 6, no commits
// 8, branch or path already there 10, a locked worktree 11.

import { spawn } from 'node:child_process';
import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { alreadyExists, badInput, noCommits, refused, worktreeLocked, type BatonError } from '../errors.js';
import { signalGroup } from '../proc/index.js';
import { GitError, branchExists, git, gitTry, headCommit, isDirty, isRepo, isValidBranchName, notARepository, repoRoot, resolveCommit } from './git.js';
import { copyIncluded, type IncludeSkip } from './worktree-include.js';

export interface AddWorktreeOptions {
  /** Where the fork starts: a checkpoint sha or any commit-ish. Default HEAD (a detached HEAD is fine). */
  commit?: string;
  /** The new branch, e.g. `baton/<name>`; must not exist yet. */
  branch: string;
  /** The new worktree's directory; must not exist yet. Relative paths are taken from the repo root. */
  path: string;
  /** Run in the new worktree once it is ready (argv, no shell); a failure undoes the fork. */
  setup?: readonly string[];
  /** Stop the setup command after this long. Default 10 minutes. */
  setupTimeoutMs?: number;
}

export interface AddWorktreeResult {
  path: string;
  branch: string;
  /** The commit the branch starts at. */
  commit: string;
  /** `.batoninclude` files copied, relative to the root. */
  copied: string[];
  skipped: IncludeSkip[];
  /** The setup command's output (stdout and stderr, the last 64 KiB). */
  setupOutput?: string;
}

export interface WorktreeInfo {
  path: string;
  /** The checked-out commit; null on an unborn branch. */
  head: string | null;
  /** Short branch name; null when detached (or bare). */
  branch: string | null;
  detached: boolean;
  bare: boolean;
  /** The main worktree (the first one git lists). */
  main: boolean;
  locked: boolean;
  lockReason?: string;
  /** Its directory is gone; `git worktree prune` would drop it. */
  prunable: boolean;
  /** Staged, unstaged or untracked changes; null when not checked (bare, missing, or dirty: false). */
  dirty: boolean | null;
}

export interface RemoveWorktreeResult {
  path: string;
  branch: string | null;
  branchDeleted: boolean;
}

const SETUP_OUTPUT_KEEP = 64 * 1024;
const ZERO_SHA = /^0+$/;

function canonical(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

function pathTaken(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

async function requireRepo(repoDir: string): Promise<string> {
  if (!(await isRepo(repoDir)))
    throw notARepository(repoDir, 'A worktree fork', 'Fork to a new tab instead (it shares this directory), or run `git init` there first.');
  return repoRoot(repoDir);
}

/** The same path, as far as can be told for one that may not exist yet (its parent canonical). */
function samePath(a: string, b: string): boolean {
  const c = (p: string) => (existsSync(p) ? canonical(p) : resolve(canonical(dirname(p)), basename(p)));
  return c(a) === c(b);
}

/**
 * Why `git worktree add` at `path` would fail though the directory is gone: git still has a
 * worktree registered there (deleted by hand). Locked (exit 11): git keeps it until it is
 * unlocked; otherwise (exit 10) a prune clears it. Undefined when none is.
 */
export function registeredAt(worktrees: readonly WorktreeInfo[], path: string): BatonError | undefined {
  const w = worktrees.find((x) => samePath(x.path, path));
  if (!w) return undefined;
  if (w.locked) {
    return worktreeLocked(
      `git still has a locked worktree registered at ${w.path}${w.lockReason ? ` (${w.lockReason})` : ''}${existsSync(w.path) ? '' : ', though its directory is gone'}`,
      `Unlock and prune it if it may go (git worktree unlock ${w.path} && git worktree prune), or use another name.`,
    );
  }
  return alreadyExists(
    `git still has a worktree registered at ${w.path}${w.branch ? ` (branch ${w.branch})` : ''}${existsSync(w.path) ? '' : ', though its directory is gone'}`,
    `Clear it with git worktree prune, or use another name.`,
  );
}

function unquote(s: string): string {
  // Lock reasons with odd characters come C-quoted.
  if (!s.startsWith('"')) return s;
  try {
    return JSON.parse(s) as string;
  } catch {
    return s;
  }
}

/** Parses `git worktree list --porcelain`. */
export function parseWorktreeList(text: string): WorktreeInfo[] {
  const list: WorktreeInfo[] = [];
  for (const block of text.split(/\n\n+/)) {
    const lines = block.split('\n').filter(Boolean);
    const first = lines[0];
    if (!first?.startsWith('worktree ')) continue;
    const w: WorktreeInfo = {
      path: first.slice('worktree '.length),
      head: null,
      branch: null,
      detached: false,
      bare: false,
      main: list.length === 0,
      locked: false,
      prunable: false,
      dirty: null,
    };
    for (const line of lines.slice(1)) {
      const space = line.indexOf(' ');
      const key = space < 0 ? line : line.slice(0, space);
      const value = space < 0 ? '' : line.slice(space + 1);
      if (key === 'HEAD') w.head = ZERO_SHA.test(value) ? null : value;
      else if (key === 'branch') w.branch = value.replace(/^refs\/heads\//, '');
      else if (key === 'detached') w.detached = true;
      else if (key === 'bare') w.bare = true;
      else if (key === 'locked') {
        w.locked = true;
        if (value) w.lockReason = unquote(value);
      } else if (key === 'prunable') w.prunable = true;
    }
    list.push(w);
  }
  return list;
}

/** Every worktree of the repo holding repoDir, the main one first; dirty is checked unless told not to. */
export async function listWorktrees(repoDir: string, opts: { dirty?: boolean } = {}): Promise<WorktreeInfo[]> {
  const root = await requireRepo(repoDir);
  const list = parseWorktreeList(await git(['worktree', 'list', '--porcelain'], { cwd: root }));
  if (opts.dirty !== false) {
    await Promise.all(
      list.map(async (w) => {
        if (!w.bare && !w.prunable && existsSync(w.path)) w.dirty = await isDirty(w.path);
      }),
    );
  }
  return list;
}

interface SetupRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
  error?: NodeJS.ErrnoException;
}

/** Runs argv in cwd in its own process group, which is ended when it exits or times out. */
function runSetup(argv: readonly string[], cwd: string, sourceRoot: string, timeoutMs: number): Promise<SetupRun> {
  return new Promise((done) => {
    const child = spawn(argv[0]!, argv.slice(1) as string[], {
      cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, BATON_WORKTREE_SOURCE: sourceRoot },
    });
    let output = '';
    const keep = (d: Buffer) => {
      output = (output + d.toString('utf8')).slice(-SETUP_OUTPUT_KEEP);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const endGroup = () => {
      if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
    };
    const timer = setTimeout(() => {
      output += `\n[baton: setup stopped after ${timeoutMs} ms]`;
      endGroup();
    }, timeoutMs);
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      done({ code: null, signal: null, output, error });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      endGroup();
      done({ code, signal, output });
    });
  });
}

/**
 * Undoes a fork: the worktree and the branch it made. The directory itself is deleted only
 * once git has made it ours (madeDir); before that, a path that appeared meanwhile is not ours.
 */
async function rollback(root: string, path: string, branch: string, madeDir: boolean): Promise<void> {
  await gitTry(['worktree', 'remove', '--force', '--force', path], { cwd: root });
  if (madeDir) await rm(path, { recursive: true, force: true });
  await gitTry(['worktree', 'prune'], { cwd: root });
  if (await branchExists(root, branch)) await gitTry(['branch', '-D', branch], { cwd: root });
}

/**
 * `git worktree add -b <branch> <path> <commit>`, then the `.batoninclude` copies and the
 * setup command. Bad input: not a repo (6), no commits yet and no commit given (8), an
 * existing branch or path, or a worktree git still has registered at the path (10; 11 when
 * that one is locked); exit 2 for a commit that does not exist, a bad branch name, a setup
 * command that fails. Whatever fails after git started leaves no branch and no directory.
 */
export async function addWorktree(repoDir: string, opts: AddWorktreeOptions): Promise<AddWorktreeResult> {
  const root = await requireRepo(repoDir);
  let commit: string | null;
  if (opts.commit === undefined) {
    commit = await headCommit(root);
    if (!commit) {
      throw noCommits(
        `${root} has no commits yet, so there is nothing to fork a worktree from`,
        "Commit once, or fork from a turn's checkpoint (checkpoints work before the first commit).",
      );
    }
  } else {
    commit = await resolveCommit(root, opts.commit);
    if (!commit) throw badInput(`${opts.commit} is not a commit in ${root}`, 'Fork from a turn that has a checkpoint, or give an existing commit.');
  }
  if (!(await isValidBranchName(root, opts.branch))) {
    throw badInput(`"${opts.branch}" is not a valid branch name`, 'Use letters, digits, "-", "_", "/" and ".", e.g. baton/fix-login.');
  }
  if (await branchExists(root, opts.branch)) {
    throw alreadyExists(`branch ${opts.branch} already exists`, `Pick another name, or delete it first: git branch -D ${opts.branch}`);
  }
  const path = resolve(root, opts.path);
  if (pathTaken(path)) throw alreadyExists(`${path} already exists`, 'Give the worktree a path that does not exist yet.');
  if (opts.setup !== undefined && (opts.setup.length === 0 || opts.setup.some((a) => typeof a !== 'string') || !opts.setup[0])) {
    throw badInput('the worktree setup command is empty', 'Give it as an argv array, e.g. ["npm", "ci"].');
  }

  const args = ['worktree', 'add', '--no-track', '-b', opts.branch, path, commit];
  const r = await gitTry(args, { cwd: root });
  if (r.code !== 0) {
    // Asked only now, off the common path: git refuses a path where it still has a worktree
    // registered (its directory deleted by hand). That registration is the user's, not ours
    // (ours, left by a failing hook, has our new branch): only the branch git made goes.
    const others = (await listWorktrees(root, { dirty: false }).catch(() => [])).filter((w) => w.branch !== opts.branch);
    const registered = registeredAt(others, path);
    if (registered) {
      if (await branchExists(root, opts.branch)) await gitTry(['branch', '-D', opts.branch], { cwd: root });
      throw registered;
    }
    await rollback(root, path, opts.branch, false);
    throw new GitError(args, r.code, r.stderr, 2, 'Nothing was created. Check the path and branch, then try again.');
  }

  try {
    const { copied, skipped } = await copyIncluded(root, path);
    const result: AddWorktreeResult = { path, branch: opts.branch, commit, copied, skipped };
    if (opts.setup) {
      const run = await runSetup(opts.setup, path, root, opts.setupTimeoutMs ?? 10 * 60_000);
      if (run.error || run.code !== 0) {
        const why = run.error
          ? run.error.code === 'ENOENT'
            ? 'was not found'
            : `could not start (${run.error.code ?? run.error.message})`
          : run.code === null
            ? `was stopped (${run.signal})`
            : `exited with ${run.code}`;
        const tail = run.output.trim().split('\n').slice(-10).join('\n');
        throw badInput(
          `the worktree setup command \`${opts.setup.join(' ')}\` ${why}; the fork was undone${tail ? `:\n${tail}` : ''}`,
          'Fix the setup command, or fork without it.',
        );
      }
      result.setupOutput = run.output;
    }
    return result;
  } catch (err) {
    await rollback(root, path, opts.branch, true);
    throw err;
  }
}

/** True when some ref other than the branch itself holds its tip (another branch, a tag, a remote, a checkpoint). */
async function tipHeldElsewhere(root: string, branch: string, tip: string): Promise<boolean> {
  const out = await git(['for-each-ref', '--contains', tip, '--format=%(refname)'], { cwd: root });
  return out.split('\n').some((ref) => ref && ref !== `refs/heads/${branch}`);
}

/**
 * Removes a worktree of the repo holding repoDir and deletes its branch. A locked worktree
 * is exit 11, even with force (a lock is the user's own explicit word). Refused (exit 5)
 * unless force: a dirty one, a branch with commits no other ref holds. Not a repo: exit 6.
 * Bad input (exit 2): a path that is no worktree of it, the main worktree.
 */
export async function removeWorktree(repoDir: string, path: string, opts: { force?: boolean } = {}): Promise<RemoveWorktreeResult> {
  const root = await requireRepo(repoDir);
  const wanted = canonical(resolve(root, path));
  const list = await listWorktrees(root, { dirty: false });
  const w = list.find((x) => canonical(x.path) === wanted);
  if (!w) throw badInput(`${wanted} is not a worktree of ${root}`, 'See the list: git worktree list');
  if (w.main) throw badInput(`${w.path} is the main worktree of the repository`, 'Only worktrees added for forks can be removed.');
  if (w.locked) {
    throw worktreeLocked(
      `the worktree ${w.path} is locked${w.lockReason ? ` (${w.lockReason})` : ''}`,
      `Unlock it first if it may go: git worktree unlock ${w.path}`,
    );
  }
  const present = !w.prunable && existsSync(w.path);
  if (!opts.force && present && (await isDirty(w.path))) {
    throw refused(`the worktree ${w.path} has uncommitted changes`, 'Commit or discard them, or remove it with force.');
  }
  if (!opts.force && w.branch && w.head && !(await tipHeldElsewhere(root, w.branch, w.head))) {
    throw refused(`branch ${w.branch} has commits that no other branch, tag or checkpoint holds`, 'Merge or push them first, or remove it with force.');
  }
  const main = list[0]!.path;
  if (present) {
    const args = ['worktree', 'remove', ...(opts.force ? ['--force'] : []), w.path];
    const r = await gitTry(args, { cwd: main });
    if (r.code !== 0) throw new GitError(args, r.code, r.stderr, 5);
  } else {
    await gitTry(['worktree', 'prune'], { cwd: main });
  }
  let branchDeleted = false;
  if (w.branch) {
    const r = await gitTry(['branch', '-D', w.branch], { cwd: main });
    branchDeleted = r.code === 0;
  }
  return { path: w.path, branch: w.branch, branchDeleted };
}
