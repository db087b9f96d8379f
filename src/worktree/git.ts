// The one door through which baton runs git: argv arrays only (never a shell string), a
// cwd, env additions, optional stdin, a bounded stdout, and a GitError carrying git's
// stderr when git fails. Also the small questions every other module asks (is this a
// repo, where is its root, which branch, any commits yet).
// It must never run git through a shell, never inherit GIT_DIR / GIT_INDEX_FILE /
// GIT_WORK_TREE from baton's own environment (baton may itself run inside a git hook),
// and never take optional locks: a read-only question must not rewrite the user's index.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { BatonError, EXIT, badInput, notARepository as notARepositoryError, type ExitCode } from '../errors.js';

export interface GitRunOptions {
  /** Directory git runs in. */
  cwd: string;
  /** Added to (and overriding) the inherited environment; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  /** Written to git's stdin, which is then closed. Without it stdin is empty. */
  input?: string | Buffer;
  /** Largest stdout accepted before git is stopped and the call fails. Default 64 MiB. */
  maxBuffer?: number;
  /** Stop git after this long. Default: no limit. */
  timeoutMs?: number;
}

export interface GitResult {
  /** Exit status; null when git was ended by a signal. */
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

const DEFAULT_MAX_BUFFER = 64 * 1024 * 1024;
const STDERR_KEEP = 64 * 1024;

/** Variables that would point git at another repo, index or worktree than the cwd's. */
const REPO_LOCATING_VARS = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_COMMON_DIR',
  'GIT_PREFIX',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_NAMESPACE',
];

/** git failed: names the command, carries its exit status and stderr. */
export class GitError extends BatonError {
  readonly args: readonly string[];
  readonly code: number | null;
  readonly stderr: string;

  constructor(args: readonly string[], code: number | null, stderr: string, exitCode: ExitCode = EXIT.internal, hint?: string) {
    const detail = stderr.trim().split('\n').slice(-6).join('\n');
    super(`git ${args.join(' ')} failed (${code === null ? 'killed' : `exit ${code}`})${detail ? `: ${detail}` : ''}`, exitCode, hint);
    this.name = 'GitError';
    this.args = args;
    this.code = code;
    this.stderr = stderr;
  }
}

function gitEnv(extra: GitRunOptions['env']): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of REPO_LOCATING_VARS) delete env[name];
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_OPTIONAL_LOCKS = '0';
  for (const [k, v] of Object.entries(extra ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** Runs git and resolves with its exit status whatever it was; rejects only when git could not run. */
export function gitTry(args: readonly string[], opts: GitRunOptions): Promise<GitResult> {
  const maxBuffer = opts.maxBuffer ?? DEFAULT_MAX_BUFFER;
  return new Promise((resolvePromise, reject) => {
    const child = spawn('git', args as string[], {
      cwd: opts.cwd,
      env: gitEnv(opts.env),
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let failure: Error | null = null;
    let timer: NodeJS.Timeout | undefined;

    const stop = (err: Error) => {
      if (!failure) failure = err;
      child.kill('SIGKILL');
    };
    if (opts.timeoutMs !== undefined) {
      timer = setTimeout(() => stop(new GitError(args, null, `timed out after ${opts.timeoutMs} ms`)), opts.timeoutMs);
    }
    child.stdout.on('data', (d: Buffer) => {
      size += d.length;
      if (size > maxBuffer) stop(new GitError(args, null, `output exceeded ${maxBuffer} bytes`));
      else chunks.push(d);
    });
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < STDERR_KEEP) stderr += d.toString('utf8');
    });
    // git may exit before reading all of stdin (e.g. on a bad argument); that is its answer, not ours.
    child.stdin.on('error', () => {});
    child.on('error', (err: NodeJS.ErrnoException) => {
      if (timer) clearTimeout(timer);
      if (err.code === 'ENOENT' && !existsSync(opts.cwd)) {
        reject(badInput(`${opts.cwd} does not exist`, 'Give a directory that exists.'));
      } else if (err.code === 'ENOENT') {
        reject(badInput('git is not installed (or not on PATH)', 'Install git, e.g. `apt-get install git`.'));
      } else reject(err);
    });
    child.on('close', (code) => {
      if (timer) clearTimeout(timer);
      if (failure) reject(failure);
      else resolvePromise({ code, stdout: Buffer.concat(chunks), stderr });
    });
    if (opts.input !== undefined) child.stdin.end(opts.input);
    else child.stdin.end();
  });
}

/** Runs git; stdout as raw bytes (for -z output holding file names that may not be UTF-8). */
export async function gitBuffer(args: readonly string[], opts: GitRunOptions): Promise<Buffer> {
  const r = await gitTry(args, opts);
  if (r.code !== 0) throw new GitError(args, r.code, r.stderr);
  return r.stdout;
}

/** Runs git; stdout as UTF-8 text, exactly as printed. */
export async function git(args: readonly string[], opts: GitRunOptions): Promise<string> {
  return (await gitBuffer(args, opts)).toString('utf8');
}

/** Runs git; stdout without its trailing newline (for one-line answers such as a sha). */
export async function gitLine(args: readonly string[], opts: GitRunOptions): Promise<string> {
  return (await git(args, opts)).replace(/\n$/, '');
}

/** The error for "this needs git here and there is none" (exit 6); a worktree fork's caller gives a tab fork as the hint. */
export function notARepository(dir: string, what = 'This', hint = 'Run it inside a git repository, or `git init` there first.'): BatonError {
  return notARepositoryError(`${dir} is not a git repository. ${what} needs git.`, hint);
}

/** True when dir is inside a git working tree (false for a bare repo, a .git dir, or a missing dir). */
export async function isRepo(dir: string): Promise<boolean> {
  if (!existsSync(dir)) return false;
  const r = await gitTry(['rev-parse', '--is-inside-work-tree'], { cwd: dir });
  return r.code === 0 && r.stdout.toString('utf8').trim() === 'true';
}

/** The top of the working tree that holds dir (a linked worktree's own top, not the main one's). */
export async function repoRoot(dir: string): Promise<string> {
  if (!existsSync(dir)) throw badInput(`${dir} does not exist`, 'Give a directory that exists.');
  const r = await gitTry(['rev-parse', '--show-toplevel'], { cwd: dir });
  const root = r.stdout.toString('utf8').trim();
  if (r.code !== 0 || !root) throw notARepository(dir);
  return root;
}

/**
 * An absolute path inside the git dir, as `git rev-parse --git-path` resolves it: in a
 * linked worktree `index` and `HEAD` are that worktree's own, `refs` the shared ones.
 */
export async function gitPath(dir: string, name: string): Promise<string> {
  const p = await gitLine(['rev-parse', '--git-path', name], { cwd: dir });
  return isAbsolute(p) ? p : resolve(dir, p);
}

/** The short name of the checked-out branch; null when HEAD is detached. Works before the first commit. */
export async function currentBranch(dir: string): Promise<string | null> {
  const r = await gitTry(['symbolic-ref', '-q', '--short', 'HEAD'], { cwd: dir });
  if (r.code === 0) return r.stdout.toString('utf8').trim();
  if (r.code === 1) return null;
  throw new GitError(['symbolic-ref', '-q', '--short', 'HEAD'], r.code, r.stderr);
}

/** The full sha of a revision as a commit, or null when it names none. */
export async function resolveCommit(dir: string, rev: string): Promise<string | null> {
  // `--end-of-options` keeps a revision that starts with '-' from being read as an option.
  const r = await gitTry(['rev-parse', '-q', '--verify', '--end-of-options', `${rev}^{commit}`], { cwd: dir });
  const sha = r.stdout.toString('utf8').trim();
  return r.code === 0 && sha ? sha : null;
}

/** The sha HEAD points at, or null before the first commit. */
export function headCommit(dir: string): Promise<string | null> {
  return resolveCommit(dir, 'HEAD');
}

export async function hasCommits(dir: string): Promise<boolean> {
  return (await headCommit(dir)) !== null;
}

/** The tree sha of a revision, or null when it names none. */
export async function resolveTree(dir: string, rev: string): Promise<string | null> {
  const r = await gitTry(['rev-parse', '-q', '--verify', '--end-of-options', `${rev}^{tree}`], { cwd: dir });
  const sha = r.stdout.toString('utf8').trim();
  return r.code === 0 && sha ? sha : null;
}

/** The upstream of the current branch (e.g. `origin/main`), or null when it has none or HEAD is detached. */
export async function upstreamBranch(dir: string): Promise<string | null> {
  const r = await gitTry(['rev-parse', '--abbrev-ref', '--symbolic-full-name', '@{upstream}'], { cwd: dir });
  const name = r.stdout.toString('utf8').trim();
  return r.code === 0 && name ? name : null;
}

/** True when the worktree has staged, unstaged or untracked (not ignored) changes. */
export async function isDirty(dir: string): Promise<boolean> {
  const out = await gitBuffer(['status', '--porcelain', '-z', '--untracked-files=normal', '--ignore-submodules=none'], { cwd: dir });
  return out.length > 0;
}

/** True when `name` is a branch name git accepts (`git check-ref-format --branch`). */
export async function isValidBranchName(dir: string, name: string): Promise<boolean> {
  if (!name || name.startsWith('-')) return false;
  const r = await gitTry(['check-ref-format', '--branch', name], { cwd: dir });
  return r.code === 0;
}

/** True when refs/heads/<name> exists. */
export async function branchExists(dir: string, name: string): Promise<boolean> {
  const r = await gitTry(['show-ref', '--verify', '--quiet', `refs/heads/${name}`], { cwd: dir });
  return r.code === 0;
}
