// How long `baton fork --worktree` takes end to end (forkConversation: read the source, the
// git checks, the new conversation, `git worktree add` at the turn's checkpoint, the
// .batoninclude copies, checkpoint refs held for the fork, the fork's entries) on the
// checkpoint bench's repo of 10k files, at an earlier turn (its checkpoint exists) and at the
// last turn (a checkpoint of the working tree is taken first); against addWorktree and a bare
// `git worktree add` of the same commit in the same run. A tab fork is shown for scale.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forkConversation } from '../src/conversation/fork.js';
import { createConversation } from '../src/transcript/store.js';
import { createCheckpoint } from '../src/worktree/checkpoint.js';
import { addWorktree } from '../src/worktree/worktree.js';
import { buildBenchRepo, changeBenchRepo } from './checkpoint.bench.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;
const stats = (xs: number[]) => `median ${ms(median(xs))}, min ${ms(Math.min(...xs))}, max ${ms(Math.max(...xs))}`;
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });

const repo = buildBenchRepo();
const home = mkdtempSync(join(tmpdir(), 'baton-bench-fork-home-'));
const forks = mkdtempSync(join(tmpdir(), 'baton-bench-fork-wts-'));
const env = { ...process.env, BATON_HOME: home, BATON_WORKTREES_DIR: forks, XDG_CONFIG_HOME: join(home, 'config') };
try {
  writeFileSync(join(repo.dir, '.env'), 'TOKEN=bench\n');
  writeFileSync(join(repo.dir, '.batoninclude'), '.env\n');

  // A source conversation of three turns, each message with its checkpoint, the files
  // changing between turns as an agent's edits would.
  const user = { type: 'user' as const, name: 'bench', device: 'bench' };
  const src = await createConversation(home, { cwd: repo.dir, title: 'bench', user, baseBranch: 'main' });
  const t = src.transcript;
  t.startSegment({ harness: 'alpha', model: 'default', switchId: 'bench' });
  const turnEnds: number[] = [];
  for (let turn = 1; turn <= 3; turn++) {
    const checkpoint = await createCheckpoint(repo.dir, src.id, t.lastSeq + 1);
    t.apply({ type: 'user_text', text: `turn ${turn}`, checkpoint });
    t.apply({ type: 'agent_text', text: `did turn ${turn}` });
    t.apply({ type: 'turn_end' });
    turnEnds.push(t.lastSeq);
    changeBenchRepo(repo, turn);
  }
  await src.close();

  const runs = 5;
  const earlier: number[] = [];
  const last: number[] = [];
  const tab: number[] = [];
  const ours: number[] = [];
  const bare: number[] = [];
  let commit = '';
  for (let i = 0; i < runs; i++) {
    let t0 = performance.now();
    const a = await forkConversation(home, src.id, turnEnds[0]!, { worktree: true, name: `early-${i}`, env });
    earlier.push(performance.now() - t0);
    commit = a.worktree!.commit;
    git(repo.dir, 'worktree', 'remove', '--force', a.worktree!.path);

    t0 = performance.now();
    const b = await forkConversation(home, src.id, turnEnds[2]!, { worktree: true, name: `last-${i}`, env });
    last.push(performance.now() - t0);
    git(repo.dir, 'worktree', 'remove', '--force', b.worktree!.path);

    t0 = performance.now();
    await forkConversation(home, src.id, turnEnds[1]!, { env });
    tab.push(performance.now() - t0);

    const path = join(forks, `plain-add-${i}`);
    t0 = performance.now();
    await addWorktree(repo.dir, { commit, branch: `plain-add-${i}`, path });
    ours.push(performance.now() - t0);
    git(repo.dir, 'worktree', 'remove', '--force', path);

    const ref = join(forks, `plain-git-${i}`);
    t0 = performance.now();
    git(repo.dir, 'worktree', 'add', '-q', '-b', `plain-git-${i}`, ref, commit);
    bare.push(performance.now() - t0);
    git(repo.dir, 'worktree', 'remove', '--force', ref);
  }
  console.log(`repo: ${repo.files} files (${(repo.bytes / 1e6).toFixed(1)} MB), ${repo.changedFiles} files changed each turn; source conversation of 3 turns`);
  console.log(`fork --worktree at an earlier turn (its checkpoint exists): ${stats(earlier)} over ${runs} runs`);
  console.log(`fork --worktree at the last turn (checkpoint taken now):   ${stats(last)} over ${runs} runs`);
  console.log(`fork to a tab (no worktree):                             ${stats(tab)} over ${runs} runs`);
  console.log(`addWorktree alone (same commit):                         ${stats(ours)} over ${runs} runs`);
  console.log(`git worktree add alone (same commit):                    ${stats(bare)} over ${runs} runs`);
  console.log(`ratio fork --worktree (earlier turn) / git worktree add: ${(median(earlier) / median(bare)).toFixed(2)}x`);
  console.log(`ratio fork --worktree (last turn) / git worktree add:    ${(median(last) / median(bare)).toFixed(2)}x`);
} finally {
  rmSync(forks, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
  rmSync(repo.dir, { recursive: true, force: true });
}
