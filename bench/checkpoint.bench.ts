// How long one checkpoint takes on a repo of 10k files with 1 MB changed across files
// (target <= 200 ms), against `git status` on the same repo in the same run.
// Also exports the repo builder the worktree-fork bench uses.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createCheckpoint } from '../src/worktree/checkpoint.js';

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

/** A committed repo of `files` files in 100 directories, then ~1 MB of changes (edits and new files). */
export function buildBenchRepo(files = 10_000, changedBytes = 1024 * 1024): BenchRepo {
  const dir = mkdtempSync(join(tmpdir(), 'baton-bench-'));
  sh(dir, 'init', '-q', '-b', 'main');
  sh(dir, 'config', 'user.name', 'Bench');
  sh(dir, 'config', 'user.email', 'bench@example.com');
  sh(dir, 'config', 'commit.gpgsign', 'false');
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
  // 1 MB of work in progress: 100 edited files and 28 new ones of 8 KiB, plus ignored noise.
  const chunk = 8 * 1024;
  const n = Math.ceil(changedBytes / chunk);
  for (let k = 0; k < n; k++) {
    const p = k < 100 ? join(dir, `pkg${k % 100}`, `mod${k % 7}`, `file${k}.ts`) : join(dir, `pkg${k % 100}`, `new${k}.ts`);
    writeFileSync(p, text(100_000 + k, chunk));
  }
  mkdirSync(join(dir, 'node_modules', 'dep'), { recursive: true });
  for (let k = 0; k < 200; k++) writeFileSync(join(dir, 'node_modules', 'dep', `x${k}.js`), 'ignored');
  return { dir, files, bytes, changedFiles: n, changedBytes: n * chunk };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;

async function time(runs: number, fn: () => Promise<unknown> | unknown): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

async function main(): Promise<void> {
  const repo = buildBenchRepo();
  try {
    console.log(
      `repo: ${repo.files} files (${(repo.bytes / 1e6).toFixed(1)} MB), ` +
        `${(repo.changedBytes / 1024 / 1024).toFixed(2)} MB changed across ${repo.changedFiles} files`,
    );
    const runs = 9;
    let seq = 0;
    const ckpt = await time(runs, () => createCheckpoint(repo.dir, 'bench', ++seq));
    // The reference a user knows: a plain `git status`, as they would type it.
    const status = await time(runs, () => sh(repo.dir, 'status', '--porcelain'));
    // What starting any git process costs here; a checkpoint runs five in a row (plus one alongside).
    const start = await time(runs, () => sh(repo.dir, 'version'));
    const c = median(ckpt);
    const s = median(status);
    console.log(`checkpoint: median ${ms(c)}, min ${ms(Math.min(...ckpt))}, max ${ms(Math.max(...ckpt))} over ${runs} runs (target <= 200 ms: ${c <= 200 ? 'met' : 'MISSED'})`);
    console.log(`git status: median ${ms(s)}, min ${ms(Math.min(...status))} over ${runs} runs`);
    console.log(`git version (process start alone): median ${ms(median(start))}`);
    console.log(`ratio checkpoint / git status: ${(c / s).toFixed(2)}x`);
  } finally {
    rmSync(repo.dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
