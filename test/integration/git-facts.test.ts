// src/worktree/git-facts.ts on real repositories: branch, base, diff --stat from the merge
// base to the working tree (untracked included, ignored not), bounded .context/ files.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contextFiles, createGitFactsProvider, gitFacts } from '../../src/worktree/git-facts.js';

const temps: string[] = [];
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'baton-facts-'));
  temps.push(d);
  return d;
}
function sh(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}
function repo(): string {
  const d = tmp();
  sh(d, 'init', '-q', '-b', 'main');
  sh(d, 'config', 'user.name', 'Test');
  sh(d, 'config', 'user.email', 'test@example.com');
  sh(d, 'config', 'commit.gpgsign', 'false');
  writeFileSync(join(d, '.gitignore'), '*.log\n');
  writeFileSync(join(d, 'base.txt'), 'base\n');
  sh(d, 'add', '-A');
  sh(d, 'commit', '-q', '-m', 'first');
  return d;
}
function commitFile(d: string, name: string, text: string): void {
  writeFileSync(join(d, name), text);
  sh(d, 'add', name);
  sh(d, 'commit', '-q', '-m', name);
}

const t = suite('git-facts');
t.after(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

t('branch, base and a diff stat from the merge base to the working tree', async () => {
  const d = repo();
  sh(d, 'checkout', '-q', '-b', 'feature');
  commitFile(d, 'committed.txt', 'on the branch\n');
  writeFileSync(join(d, 'base.txt'), 'base\nedited, not committed\n');
  writeFileSync(join(d, 'untracked.txt'), 'new file\n');
  writeFileSync(join(d, 'noise.log'), 'ignored\n');
  // main moves on after the branch left it: that is not this branch's work.
  sh(d, 'checkout', '-q', 'main');
  commitFile(d, 'main-later.txt', 'later on main\n');
  sh(d, 'checkout', '-q', 'feature');
  const index = readFileSync(join(d, '.git', 'index'));

  const f = await gitFacts(d, 'main');
  assert.is(f.branch, 'feature');
  assert.is(f.base, 'main');
  const stat = f.diffStat ?? '';
  assert.match(stat, /committed\.txt/);
  assert.match(stat, /base\.txt/);
  assert.match(stat, /untracked\.txt/);
  assert.not.match(stat, /noise\.log/);
  assert.not.match(stat, /main-later\.txt/);
  assert.match(stat, /3 files changed/);
  assert.is(f.contextFiles, undefined);
  assert.ok(readFileSync(join(d, '.git', 'index')).equals(index), 'index untouched');
});

t('without a base given, the upstream is the base; with neither, no base and no stat', async () => {
  const d = repo();
  assert.equal(await gitFacts(d), { branch: 'main' });
  sh(d, 'checkout', '-q', '-b', 'topic');
  sh(d, 'branch', '-q', '--set-upstream-to=main');
  commitFile(d, 't.txt', 'x\n');
  const f = await gitFacts(d);
  assert.is(f.base, 'main');
  assert.match(f.diffStat ?? '', /t\.txt/);
});

t('the base being the current branch shows the uncommitted work; no changes says so', async () => {
  const d = repo();
  assert.is((await gitFacts(d, 'main')).diffStat, '(no changes)');
  writeFileSync(join(d, 'wip.txt'), 'wip\n');
  assert.match((await gitFacts(d, 'main')).diffStat ?? '', /wip\.txt \| 1 \+/);
});

t('a base that does not resolve is reported, without a stat', async () => {
  const d = repo();
  assert.equal(await gitFacts(d, 'gone-branch'), { branch: 'main', base: 'gone-branch' });
});

t('detached HEAD: no branch (the brief contract), the stat still against the base; a fresh repo names its unborn branch', async () => {
  const d = repo();
  sh(d, 'checkout', '-q', '--detach');
  writeFileSync(join(d, 'w.txt'), 'w\n');
  const f = await gitFacts(d, 'main');
  assert.is(f.branch, undefined);
  assert.is(f.base, 'main');
  assert.match(f.diffStat ?? '', /w\.txt/);
  const fresh = tmp();
  sh(fresh, 'init', '-q', '-b', 'trunk');
  writeFileSync(join(fresh, 'x.txt'), 'x');
  assert.equal(await gitFacts(fresh, 'trunk'), { branch: 'trunk', base: 'trunk' });
});

t('the branch read from HEAD agrees with git symbolic-ref: a branch with a slash, a linked worktree, detached, and a HEAD only git can read', async () => {
  const d = repo();
  const symbolic = (cwd: string) => {
    try {
      return sh(cwd, 'symbolic-ref', '-q', '--short', 'HEAD');
    } catch {
      return undefined;
    }
  };
  sh(d, 'checkout', '-q', '-b', 'feature/deep/name');
  assert.is((await gitFacts(d)).branch, symbolic(d));
  assert.is(symbolic(d), 'feature/deep/name');
  // A linked worktree has its own HEAD, in its own git dir, beside its own index.
  const wt = join(tmp(), 'wt');
  sh(d, 'worktree', 'add', '-q', '-b', 'side', wt);
  assert.is((await gitFacts(wt)).branch, 'side');
  assert.is((await gitFacts(d)).branch, 'feature/deep/name');
  sh(wt, 'checkout', '-q', '--detach');
  assert.is((await gitFacts(wt)).branch, undefined);
  assert.is(symbolic(wt), undefined);
  // HEAD pointing outside refs/heads (as `git symbolic-ref HEAD refs/remotes/...` can make it):
  // the file is not read as a branch, git is asked and answers as before.
  sh(d, 'symbolic-ref', 'HEAD', 'refs/remotes/origin/trunk');
  assert.is((await gitFacts(d)).branch, symbolic(d));
  assert.is(symbolic(d), 'origin/trunk');
});

t('the diff stat is bounded', async () => {
  const d = repo();
  for (let i = 0; i < 200; i++) writeFileSync(join(d, `file-with-a-rather-long-name-${String(i).padStart(3, '0')}.txt`), `${i}\n`);
  const f = await gitFacts(d, 'main');
  assert.ok((f.diffStat ?? '').length <= 4000, `stat is ${f.diffStat?.length} chars`);
  assert.match(f.diffStat ?? '', /200 files changed/);
  const small = await createGitFactsProvider({ maxDiffStatChars: 500 }).facts(d, 'main');
  assert.ok((small.diffStat ?? '').length <= 500);
  assert.match(small.diffStat ?? '', /more lines of diff --stat truncated\]\n 200 files changed, 200 insertions\(\+\)$/);
  assert.match(small.diffStat ?? '', /^ file-with-a-rather-long-name-000\.txt/);
});

t('.context/ text files, nested and sorted; binaries and symlinks skipped', async () => {
  const d = repo();
  const outside = join(tmp(), 'secret.txt');
  writeFileSync(outside, 'PRIVATE KEY MATERIAL');
  mkdirSync(join(d, '.context', 'notes'), { recursive: true });
  writeFileSync(join(d, '.context', 'plan.md'), '# plan\nstep 1\n');
  writeFileSync(join(d, '.context', 'notes', 'b.txt'), 'nested note\n');
  writeFileSync(join(d, '.context', 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]));
  writeFileSync(join(d, '.context', 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  symlinkSync(outside, join(d, '.context', 'link.txt'));
  symlinkSync(join(outside, '..'), join(d, '.context', 'linkdir'));
  mkdirSync(join(d, 'sub'));
  const f = await gitFacts(join(d, 'sub'), 'main');
  assert.equal(f.contextFiles, [
    { path: '.context/notes/b.txt', text: 'nested note\n' },
    { path: '.context/plan.md', text: '# plan\nstep 1\n' },
  ]);
  assert.not.match(JSON.stringify(f), /PRIVATE/);
});

t('.context/ files are bounded per file, in total and in number', async () => {
  const d = tmp();
  mkdirSync(join(d, '.context'));
  writeFileSync(join(d, '.context', 'a-big.md'), 'é'.repeat(50_000));
  for (let i = 0; i < 10; i++) writeFileSync(join(d, '.context', `n${i}.md`), 'y'.repeat(3000));
  const limits = { maxDiffStatChars: 4000, maxDiffStatFiles: 60, maxContextFiles: 5, maxContextFileChars: 4000, maxContextTotalChars: 10_000 };
  const files = await contextFiles(d, limits);
  assert.is(files[0]!.path, '.context/a-big.md');
  assert.ok(files[0]!.text.length <= 4000);
  assert.match(files[0]!.text, /^é+\n\[\.\.\. truncated\]$/);
  assert.ok(files.length <= 5);
  assert.ok(files.reduce((n, x) => n + x.text.length, 0) <= 10_000);
  assert.ok(files.length >= 3);
});

t('outside a repository: only the .context/ files, no error', async () => {
  const d = tmp();
  assert.equal(await gitFacts(d, 'main'), {});
  mkdirSync(join(d, '.context'));
  writeFileSync(join(d, '.context', 'readme.md'), 'hi\n');
  assert.equal(await gitFacts(d), { contextFiles: [{ path: '.context/readme.md', text: 'hi\n' }] });
});

t('the provider object answers like gitFacts', async () => {
  const d = repo();
  const provider = createGitFactsProvider();
  assert.equal(await provider.facts(d, 'main'), await gitFacts(d, 'main'));
});

t.run();
