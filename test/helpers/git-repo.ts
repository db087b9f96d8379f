// Real git repositories in temp dirs, for tests: git run as argv (never through a shell)
// with its output, temp dirs that are all removed at the end, a fresh repository (branch
// main, a test identity, no signing) with a first commit of the files given, and the
// questions tests ask of one (branches, worktrees, baton's refs).
// It must never touch a repository outside the dirs a test made, nor any global git config.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface GitOptions {
  /** The whole environment for git (default: this process's). */
  env?: Record<string, string>;
}

/** git's stdout as it printed it. */
export function gitRaw(cwd: string, args: string[], opts: GitOptions = {}): string {
  return execFileSync('git', args, { cwd, env: opts.env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** git's stdout, trimmed. */
export function gitOut(cwd: string, ...args: string[]): string {
  return gitRaw(cwd, args).trim();
}

/** Temp dirs made by one test file; cleanup() removes them all. */
export class TempDirs {
  readonly #made: string[] = [];

  constructor(readonly prefix: string) {}

  /** A new empty dir, its path with symlinks resolved (git records worktree paths that way). */
  make(prefix = this.prefix): string {
    const d = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
    this.#made.push(d);
    return d;
  }

  cleanup(): void {
    for (const d of this.#made.splice(0)) rmSync(d, { recursive: true, force: true });
  }
}

export interface InitOptions extends GitOptions {
  /** The first commit's files (path -> content; dirs are made); none: no commit. */
  files?: Record<string, string>;
  message?: string;
}

/** Makes dir a repository on branch main with a test identity and no signing, and commits opts.files. Returns dir. */
export function initRepo(dir: string, opts: InitOptions = {}): string {
  const git = (...args: string[]) => gitRaw(dir, args, opts);
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Test');
  git('config', 'user.email', 'test@example.com');
  git('config', 'commit.gpgsign', 'false');
  if (opts.files) {
    for (const [path, text] of Object.entries(opts.files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    git('add', '-A');
    git('commit', '-q', '-m', opts.message ?? 'first');
  }
  return dir;
}

const lines = (text: string) => text.split('\n').filter(Boolean);

/** Local branch names, sorted. */
export const branches = (dir: string) => lines(gitOut(dir, 'for-each-ref', '--format=%(refname:short)', 'refs/heads')).sort();

/** Every refs/baton/ ref, sorted. */
export const batonRefs = (dir: string) => lines(gitOut(dir, 'for-each-ref', '--format=%(refname)', 'refs/baton/')).sort();

/** The paths of the repository's worktrees, the main one first. */
export const worktreePaths = (dir: string) =>
  lines(gitOut(dir, 'worktree', 'list', '--porcelain'))
    .filter((l) => l.startsWith('worktree '))
    .map((l) => l.slice(9));
