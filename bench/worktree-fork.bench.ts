// How long a worktree fork takes end to end (addWorktree from a turn's checkpoint: checks,
// `git worktree add -b`, .batoninclude copies) on the checkpoint bench's repo of 10k files,
// against a bare `git worktree add` of the same commit in the same run.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCheckpoint } from '../src/worktree/checkpoint.js';
import { addWorktree } from '../src/worktree/worktree.js';
import { buildBenchRepo } from './checkpoint.bench.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });

const repo = buildBenchRepo();
const forks = mkdtempSync(join(tmpdir(), 'baton-bench-forks-'));
try {
  writeFileSync(join(repo.dir, '.env'), 'TOKEN=bench\n');
  writeFileSync(join(repo.dir, '.batoninclude'), '.env\n');
  const commit = await createCheckpoint(repo.dir, 'bench', 1);
  const runs = 5;
  const ours: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < runs; i++) {
    const path = join(forks, `fork-${i}`);
    let t0 = performance.now();
    await addWorktree(repo.dir, { commit, branch: `baton/bench-${i}`, path });
    ours.push(performance.now() - t0);
    git(repo.dir, 'worktree', 'remove', '--force', path);

    const ref = join(forks, `plain-${i}`);
    t0 = performance.now();
    git(repo.dir, 'worktree', 'add', '-q', '-b', `plain-${i}`, ref, commit);
    bare.push(performance.now() - t0);
    git(repo.dir, 'worktree', 'remove', '--force', ref);
  }
  console.log(`repo: ${repo.files} files (${(repo.bytes / 1e6).toFixed(1)} MB), forked from a checkpoint holding ${repo.changedFiles} changed files`);
  console.log(`addWorktree end to end: median ${ms(median(ours))}, min ${ms(Math.min(...ours))}, max ${ms(Math.max(...ours))} over ${runs} runs`);
  console.log(`git worktree add alone: median ${ms(median(bare))}, min ${ms(Math.min(...bare))} over ${runs} runs`);
  console.log(`ratio addWorktree / git worktree add: ${(median(ours) / median(bare)).toFixed(2)}x`);
} finally {
  rmSync(forks, { recursive: true, force: true });
  rmSync(repo.dir, { recursive: true, force: true });
}
