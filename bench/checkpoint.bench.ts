// How long one checkpoint takes on a repo of 10k files with 1 MB changed across files
// (target <= 200 ms), against `git status` on the same repo in the same run and the same
// git commands typed by hand (as a user would, and with the malloc setting baton gives git).
// Also exports the repo builder the worktree-fork bench uses.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createCheckpoint } from '../src/worktree/checkpoint.js';
import { objectWriterEnv } from '../src/worktree/snapshot.js';

export interface BenchRepo {
  dir: string;
  files: number;
  bytes: number;
  changedFiles: number;
  changedBytes: number;
}

function sh(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
}

function text(seed: number, size: number): string {
  let s = '';
  let x = seed * 2654435761;
  while (s.length < size) {
    x = (x * 1103515245 + 12345) >>> 0;
    s += `line ${x.toString(36)} of file ${seed}\n`;
  }
  return s.slice(0, size);
}

/** Overwrites the changed files with new content (round n), as an agent's next turn would. */
export function changeBenchRepo(repo: BenchRepo, round: number): void {
  const chunk = Math.floor(repo.changedBytes / repo.changedFiles);
  for (let k = 0; k < repo.changedFiles; k++) {
    const p = k < 100 ? join(repo.dir, `pkg${k % 100}`, `mod${k % 7}`, `file${k}.ts`) : join(repo.dir, `pkg${k % 100}`, `new${k}.ts`);
    writeFileSync(p, text(100_000 * (round + 1) + k, chunk));
  }
}

/** A committed repo of `files` files in 100 directories, then ~1 MB of changes (edits and new files). */
export function buildBenchRepo(files = 10_000, changedBytes = 1024 * 1024): BenchRepo {
  const dir = mkdtempSync(join(tmpdir(), 'baton-bench-'));
  sh(dir, 'init', '-q', '-b', 'main');
  sh(dir, 'config', 'user.name', 'Bench');
  sh(dir, 'config', 'user.email', 'bench@example.com');
  sh(dir, 'config', 'commit.gpgsign', 'false');
  // A background auto-gc would run during the timings; the repo is packed once, like a real one.
  sh(dir, 'config', 'gc.auto', '0');
  writeFileSync(join(dir, '.gitignore'), 'node_modules/\n*.log\n');
  let bytes = 0;
  // Old mtimes, so the index is not full of racily-clean entries no real repo has.
  const old = new Date(Date.now() - 3600_000);
  for (let i = 0; i < files; i++) {
    const sub = join(dir, `pkg${i % 100}`, `mod${i % 7}`);
    if (i < 700) mkdirSync(sub, { recursive: true });
    const p = join(sub, `file${i}.ts`);
    const body = text(i, 1500 + (i % 1000));
    writeFileSync(p, body);
    utimesSync(p, old, old);
    bytes += body.length;
  }
  sh(dir, 'add', '-A');
  sh(dir, 'commit', '-q', '-m', 'bench base');
  sh(dir, 'gc', '-q');
  // 1 MB of work in progress: 100 edited files and 28 new ones of 8 KiB, plus ignored noise.
  const chunk = 8 * 1024;
  const repo: BenchRepo = { dir, files, bytes, changedFiles: Math.ceil(changedBytes / chunk), changedBytes: 0 };
  repo.changedBytes = repo.changedFiles * chunk;
  changeBenchRepo(repo, 0);
  mkdirSync(join(dir, 'node_modules', 'dep'), { recursive: true });
  for (let k = 0; k < 200; k++) writeFileSync(join(dir, 'node_modules', 'dep', `x${k}.js`), 'ignored');
  return repo;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;
const stats = (xs: number[]) => `median ${ms(median(xs))}, min ${ms(Math.min(...xs))}, max ${ms(Math.max(...xs))}`;

async function timed(into: number[], fn: () => Promise<unknown> | unknown): Promise<void> {
  const t0 = performance.now();
  await fn();
  into.push(performance.now() - t0);
}

/**
 * The same git commands a checkpoint runs, typed by hand: the floor baton's own code sits on.
 * `extra` is environment for the object-writing commands (baton's malloc setting, or none).
 */
function checkpointByHand(dir: string, ref: string, extra: Record<string, string> = {}): void {
  const work = mkdtempSync(join(tmpdir(), 'baton-bench-index-'));
  try {
    const index = join(work, 'index');
    const root = sh(dir, 'rev-parse', '--show-toplevel').trim();
    copyFileSync(join(root, '.git', 'index'), index);
    const env = { ...process.env, ...extra, GIT_INDEX_FILE: index };
    execFileSync('git', ['add', '-A'], { cwd: root, env });
    const tree = execFileSync('git', ['write-tree'], { cwd: root, env, encoding: 'utf8' }).trim();
    const head = sh(root, 'rev-parse', 'HEAD').trim();
    const commit = execFileSync('git', ['commit-tree', '-p', head, tree], {
      cwd: root,
      env: { ...process.env, ...extra },
      input: 'by hand\n',
      encoding: 'utf8',
    }).trim();
    sh(root, 'update-ref', ref, commit);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const load = () =>
    loadavg()
      .map((x) => x.toFixed(2))
      .join(' ');
  const loadBefore = load();
  const repo = buildBenchRepo();
  try {
    console.log(
      `repo: ${repo.files} files (${(repo.bytes / 1e6).toFixed(1)} MB), ` +
        `${(repo.changedBytes / 1024 / 1024).toFixed(2)} MB changed across ${repo.changedFiles} files`,
    );
    const runs = 11;
    const fresh: number[] = [];
    const same: number[] = [];
    const status: number[] = [];
    const byHand: number[] = [];
    const byHandTuned: number[] = [];
    const start: number[] = [];
    for (let i = 1; i <= runs; i++) {
      // New content every turn, as in real use: its blobs and trees are new objects to write.
      changeBenchRepo(repo, i);
      await timed(fresh, () => createCheckpoint(repo.dir, 'bench', 2 * i));
      // A turn that changed nothing: every object already exists.
      await timed(same, () => createCheckpoint(repo.dir, 'bench', 2 * i + 1));
      // The reference a user knows: a plain `git status` of the same state, as they would type it.
      await timed(status, () => sh(repo.dir, 'status', '--porcelain'));
      changeBenchRepo(repo, 1000 + i);
      await timed(byHand, () => checkpointByHand(repo.dir, `refs/bench/by-hand/${i}`));
      changeBenchRepo(repo, 2000 + i);
      await timed(byHandTuned, () => checkpointByHand(repo.dir, `refs/bench/by-hand-tuned/${i}`, objectWriterEnv()));
      // What starting any git process costs on this machine.
      await timed(start, () => sh(repo.dir, 'version'));
    }
    const c = median(fresh);
    console.log(`checkpoint, 1 MB of new content each time: ${stats(fresh)} over ${runs} runs (target <= 200 ms: ${c <= 200 ? 'met' : 'MISSED'})`);
    console.log(`checkpoint, nothing changed since the last: ${stats(same)}`);
    console.log(`git status of the same state: ${stats(status)}`);
    console.log(`the same git commands by hand (new content): ${stats(byHand)}`);
    console.log(`the same git commands by hand with baton's malloc setting (${objectWriterEnv().GLIBC_TUNABLES}): ${stats(byHandTuned)}`);
    console.log(`git version (process start alone): median ${ms(median(start))}`);
    console.log(`ratio checkpoint / git status: ${(c / median(status)).toFixed(2)}x`);
    console.log(`ratio checkpoint / git commands by hand: ${(c / median(byHand)).toFixed(2)}x`);
    console.log(`ratio checkpoint / git commands by hand with the same malloc setting: ${(c / median(byHandTuned)).toFixed(2)}x`);
  } finally {
    rmSync(repo.dir, { recursive: true, force: true });
    console.log(`load average (1, 5, 15 min): ${loadBefore} before, ${load()} after`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
