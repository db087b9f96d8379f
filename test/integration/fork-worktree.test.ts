// The bad input of a worktree fork (and of the reset, brief and worktree commands around
// it), run through the real CLI (dist/src/cli.js, each in its own process group) on real git
// repositories: not a git repository (the tab fork it offers works), a detached HEAD (a tab
// fork and a reset do not mind one), no commits yet, a seq out of range or hidden, a branch
// or path already there, a locked worktree — each its own exit code, a message naming the
// thing, a hint, and nothing left behind: no conversation, branch, worktree, directory or
// refs/baton ref. And worktreeForkBlocker, which asks the same questions and makes nothing.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { main } from '../../src/cli.js';
import { bufferIo } from '../../src/commands/io.js';
import { worktreeForkBlocker } from '../../src/conversation/fork-worktree.js';
import { EXIT } from '../../src/errors.js';
import { readConversation } from '../../src/transcript/store.js';
import { writeFixtureDropIn } from '../helpers/acp-fixture.js';
import type { CliEnv } from '../helpers/cli-env.js';
import { batonRefs, branches, gitRaw, initRepo as initGitRepo, TempDirs, worktreePaths } from '../helpers/git-repo.js';
import { describeRun, runCli } from '../helpers/run-cli.js';
import { builtBaton } from '../helpers/built-baton.js';

const CLI = builtBaton();

let home = '';
let repo = '';
let plugins = '';
let forks = '';
const temps = new TempDirs('baton-fwt-');

const git = (...args: string[]) => gitRaw(repo, args);
const tmp = (prefix: string) => temps.make(prefix);
const env = () => ({ ...(process.env as Record<string, string>), BATON_HOME: home, XDG_CONFIG_HOME: join(home, 'config'), BATON_WORKTREES_DIR: forks });

/** baton as a real process: node dist/src/cli.js, in its own process group, ended with it. */
async function cli(args: string[], cwd = repo) {
  const e = { bin: process.execPath, cwd, env: env() } as unknown as CliEnv;
  const r = await runCli(e, [CLI, '--plugins', plugins, ...args], { timeoutMs: 60_000 });
  assert.not.ok(r.timedOut, describeRun(r));
  return { code: r.code, out: r.stdout, err: r.stderr, run: r };
}

/** In-process, for the setup only (conversations made by baton chat with the fixture agent). */
async function chat(args: string[], cwd = repo): Promise<{ conversation: string; entries: { kind: string; seq: number; checkpoint?: string }[] }> {
  const io = bufferIo(env(), cwd);
  const code = await main(['--plugins', plugins, 'chat', '--json', ...args], io);
  assert.is(code, 0, io.stderr());
  return JSON.parse(io.stdout());
}

const initRepo = (dir: string, commit = true) => initGitRepo(dir, commit ? { files: { 'notes.txt': 'v0' }, message: 'init' } : {});

/** Two turns, the agent writing notes.txt = v1, v2. */
async function twoTurns(cwd = repo) {
  const first = await chat(['--yes', '--new', '--agent', 'alpha', `[[write ${join(cwd, 'notes.txt')} v1]]`], cwd);
  const id = first.conversation;
  await chat(['--yes', '--conversation', id, `[[write ${join(cwd, 'notes.txt')} v2]]`], cwd);
  const conv = await readConversation(home, id);
  const users = conv.transcript.entries.filter((e) => e.kind === 'user_message');
  const lastSeq = conv.transcript.lastSeq;
  await conv.close();
  return { id, users, lastSeq, endOfFirst: users[1]!.seq - 1 };
}

const conversations = () =>
  existsSync(join(home, 'conversations'))
    ? readdirSync(join(home, 'conversations'))
        .filter((n) => !n.startsWith('.'))
        .sort()
    : [];
const isRepo = (dir: string) => existsSync(join(dir, '.git'));

interface State {
  convs: string[];
  branches: string[];
  refs: string[];
  worktrees: string[];
  forks: string[];
}
const state = (dir: string): State => ({
  convs: conversations(),
  branches: isRepo(dir) ? branches(dir) : [],
  refs: isRepo(dir) ? batonRefs(dir) : [],
  worktrees: isRepo(dir) ? worktreePaths(dir) : [],
  forks: readdirSync(forks).sort(),
});

/** Runs a command that must fail with `code`, one message and a hint, and change nothing in `dir`'s repository or baton's home. */
async function failsCleanly(args: string[], code: number, message: RegExp, opts: { cwd?: string; dir?: string } = {}) {
  const dir = opts.dir ?? repo;
  const before = state(dir);
  const r = await cli(args, opts.cwd ?? dir);
  assert.is(r.code, code, `${args.join(' ')}: ${describeRun(r.run)}`);
  assert.is(r.out, '', 'nothing on stdout');
  assert.match(r.err, /^baton: /);
  assert.match(r.err, message);
  assert.match(r.err, /\n {2}hint: \S/, 'a hint');
  assert.not.match(r.err, /\n\s+at .*\.js:\d+/, 'no stack trace');
  assert.equal(state(dir), before, 'nothing made: no conversation, branch, checkpoint ref, worktree or directory');
  return r;
}

const hintOf = (err: string) => /\n {2}hint: (.*)\n/.exec(err)?.[1] ?? '';

const f = suite('worktree fork bad input');
f.before.each(() => {
  home = tmp('baton-fwt-');
  repo = tmp('baton-fwt-repo-');
  forks = tmp('baton-fwt-forks-');
  plugins = join(home, 'plugins');
  writeFixtureDropIn(plugins, { name: 'alpha', title: 'Alpha', env: { ACP_FIXTURE_HOME: join(home, 'alpha') } });
  initRepo(repo);
});
f.after.each(() => {
  temps.cleanup();
});

f('not a git repository: exit 6, says why a worktree fork needs git, the hint is the exact tab fork, which works', async () => {
  const plain = tmp('baton-fwt-plain-');
  const c = await chat(['--new', '--agent', 'alpha', 'no git here'], plain);
  const id = c.conversation;
  const r = await failsCleanly(
    ['fork', id, '--at', '1', '--worktree'],
    EXIT.notARepository,
    /is not a git repository\. A worktree fork needs git: it adds a git worktree on a new branch/,
    { dir: plain },
  );
  assert.match(r.err, new RegExp(`^baton: ${plain} is not a git repository`));
  assert.ok(hintOf(r.err).endsWith(`: baton fork ${id} --at 1`), hintOf(r.err));
  const tab = await cli(hintOf(r.err).split(': ').at(-1)!.split(' ').slice(1), plain);
  assert.is(tab.code, 0, describeRun(tab.run));
  assert.is(conversations().length, 2, 'the tab fork was made');

  // The source's directory is gone: no repository to fork from either.
  const gone = tmp('baton-fwt-gone-');
  initRepo(gone);
  const g = await chat(['--new', '--agent', 'alpha', 'soon gone'], gone);
  rmSync(gone, { recursive: true, force: true });
  const r2 = await failsCleanly(
    ['fork', g.conversation, '--at', '1', '--worktree'],
    EXIT.notARepository,
    /directory .* no longer exists, so there is no repository to fork a worktree from/,
    { dir: plain },
  );
  assert.ok(hintOf(r2.err).endsWith(`baton fork ${g.conversation} --at 1`));
});

f('detached HEAD: a worktree fork is refused (exit 7) naming the repository and the commit; a tab fork and a reset do not mind', async () => {
  const { id, lastSeq, endOfFirst } = await twoTurns();
  const head = git('rev-parse', 'HEAD').trim();
  git('checkout', '-q', '--detach');
  const r = await failsCleanly(
    ['fork', id, '--at', String(lastSeq), '--worktree', '--name', 'det'],
    EXIT.detachedHead,
    new RegExp(`${repo} has a detached HEAD \\(at commit ${head.slice(0, 12)}\\)`),
  );
  const hint = hintOf(r.err);
  assert.match(hint, /git switch -c NAME/);
  assert.match(hint, /git switch BRANCH/);
  assert.ok(hint.endsWith(`baton fork ${id} --at ${lastSeq}`), hint);
  // At an earlier turn too (a checkpoint would do for the files, but there is still no branch).
  await failsCleanly(['fork', id, '--at', String(endOfFirst), '--worktree'], EXIT.detachedHead, /has a detached HEAD/);

  const tab = await cli(['fork', id, '--at', String(endOfFirst)]);
  assert.is(tab.code, 0, describeRun(tab.run));
  const reset = await cli(['reset', id, '--to', String(endOfFirst), '--restore', '--force']);
  assert.is(reset.code, 0, describeRun(reset.run));
  assert.is(readFileSync(join(repo, 'notes.txt'), 'utf8'), 'v1', 'restored on a detached HEAD');
  assert.is(git('rev-parse', 'HEAD').trim(), head, 'HEAD untouched');
  assert.is(git('rev-parse', '--abbrev-ref', 'HEAD').trim(), 'HEAD', 'still detached');
});

f('no commits yet: exit 8, with the hint to commit once or fork into a tab', async () => {
  const fresh = tmp('baton-fwt-unborn-');
  initRepo(fresh, false);
  writeFileSync(join(fresh, 'a.txt'), 'a');
  const c = await chat(['--new', '--agent', 'alpha', 'before any commit'], fresh);
  assert.ok(c.entries.find((e) => e.kind === 'user_message')!.checkpoint, 'checkpoints work before the first commit');
  const r = await failsCleanly(['fork', c.conversation, '--at', '1', '--worktree'], EXIT.noCommits, new RegExp(`${fresh} has no commits yet`), { dir: fresh });
  assert.match(hintOf(r.err), /^commit once \(git add -A && git commit -m start\), then fork again; or fork into a tab instead/);
});

f('seq out of range or hidden: exit 9 for fork, reset and brief alike; not a number stays exit 2', async () => {
  const { id, lastSeq, endOfFirst, users } = await twoTurns();
  await failsCleanly(
    ['fork', id, '--at', String(lastSeq + 50), '--worktree'],
    EXIT.noSuchEntry,
    new RegExp(`--at ${lastSeq + 50} is not an entry of conversation ${id}`),
  );
  await failsCleanly(['fork', id, '--at', '0'], EXIT.noSuchEntry, /--at 0 is not an entry/);
  await failsCleanly(['reset', id, '--to', '999'], EXIT.noSuchEntry, /--to 999 is not an entry/);
  await failsCleanly(['brief', id, '--upto', '999'], EXIT.noSuchEntry, /--upto 999 is not an entry/);
  await failsCleanly(['fork', id, '--at', 'x'], EXIT.badInput, /--at must be a whole number/);
  await failsCleanly(['reset', id, '--to', 'x'], EXIT.badInput, /--to must be a whole number/);

  const reset = await cli(['reset', id, '--to', String(endOfFirst)]);
  assert.is(reset.code, 0, describeRun(reset.run));
  const hidden = users[1]!.seq + 1;
  for (const args of [
    ['fork', id, '--at', String(hidden), '--worktree'],
    ['fork', id, '--at', String(hidden)],
    ['reset', id, '--to', String(hidden)],
  ]) {
    const r = await failsCleanly(args, EXIT.noSuchEntry, new RegExp(`#${hidden} of conversation ${id} is hidden by a reset`));
    assert.match(hintOf(r.err), new RegExp(`baton reset ${id} --undo`));
  }
});

f('branch or path already there: exit 10; a locked worktree git still has registered at the path: exit 11', async () => {
  const { id, lastSeq } = await twoTurns();
  git('branch', 'baton/taken');
  const b = await failsCleanly(
    ['fork', id, '--at', String(lastSeq), '--worktree', '--name', 'taken'],
    EXIT.alreadyExists,
    /branch baton\/taken already exists/,
  );
  assert.match(hintOf(b.err), /pick another --name/);
  const busy = join(forks, `${basename(repo)}-busy`);
  mkdirSync(busy);
  await failsCleanly(['fork', id, '--at', String(lastSeq), '--worktree', '--name', 'busy'], EXIT.alreadyExists, new RegExp(`${busy} already exists`));

  // A fork's worktree deleted by hand while locked: git keeps it registered.
  const made = await cli(['fork', id, '--at', String(lastSeq), '--worktree', '--name', 'usb', '--json']);
  assert.is(made.code, 0, describeRun(made.run));
  const path = (JSON.parse(made.out) as { worktree: { path: string } }).worktree.path;
  git('worktree', 'lock', '--reason', 'on a usb disk', path);
  rmSync(path, { recursive: true, force: true });
  git('branch', '-m', 'baton/usb', 'baton/usb-old');
  const locked = await failsCleanly(
    ['fork', id, '--at', String(lastSeq), '--worktree', '--name', 'usb'],
    EXIT.worktreeLocked,
    new RegExp(`git still has a locked worktree registered at ${path} \\(on a usb disk\\), though its directory is gone`),
  );
  assert.match(hintOf(locked.err), new RegExp(`git worktree unlock ${path} && git worktree prune`));
  git('worktree', 'unlock', path);
  await failsCleanly(
    ['fork', id, '--at', String(lastSeq), '--worktree', '--name', 'usb'],
    EXIT.alreadyExists,
    /git still has a worktree registered at .*, though its directory is gone/,
  );
  git('worktree', 'prune');
  const again = await cli(['fork', id, '--at', String(lastSeq), '--worktree', '--name', 'usb']);
  assert.is(again.code, 0, describeRun(again.run));
});

f('a locked worktree: baton worktree remove is exit 11, with --force too, and removes nothing', async () => {
  const { id, lastSeq } = await twoTurns();
  const made = await cli(['fork', id, '--at', String(lastSeq), '--worktree', '--name', 'locked', '--json']);
  assert.is(made.code, 0, describeRun(made.run));
  const fork = JSON.parse(made.out) as { id: string; worktree: { path: string } };
  git('worktree', 'lock', '--reason', 'keep me', fork.worktree.path);
  for (const args of [
    ['worktree', 'remove', fork.id],
    ['worktree', 'remove', fork.worktree.path, '--force'],
  ]) {
    const r = await failsCleanly(args, EXIT.worktreeLocked, new RegExp(`the worktree ${fork.worktree.path} is locked \\(keep me\\)`));
    assert.match(hintOf(r.err), new RegExp(`git worktree unlock ${fork.worktree.path}`));
  }
  assert.ok(existsSync(join(fork.worktree.path, 'notes.txt')));
});

f('worktreeForkBlocker: the same error the command gives, or undefined; it makes nothing', async () => {
  const { id, lastSeq, endOfFirst } = await twoTurns();
  const conv = await readConversation(home, id);
  try {
    const before = state(repo);
    assert.is(await worktreeForkBlocker(conv, lastSeq, env()), undefined, 'can fork at the last turn');
    assert.is(await worktreeForkBlocker(conv, endOfFirst, env()), undefined);
    assert.equal(state(repo), before, 'no checkpoint taken, nothing made');
    assert.is((await worktreeForkBlocker(conv, lastSeq + 9, env()))?.exitCode, EXIT.noSuchEntry);
    git('branch', 'baton/mine');
    const taken = await worktreeForkBlocker(conv, lastSeq, env(), 'mine');
    assert.is(taken?.exitCode, EXIT.alreadyExists);
    assert.match(taken!.message, /branch baton\/mine already exists/);
    assert.is((await worktreeForkBlocker(conv, lastSeq, env(), 'a/b'))?.exitCode, EXIT.badInput);
    git('checkout', '-q', '--detach');
    const det = await worktreeForkBlocker(conv, lastSeq, env());
    assert.is(det?.exitCode, EXIT.detachedHead);
    assert.match(det!.hint ?? '', new RegExp(`baton fork ${id} --at ${lastSeq}$`));
    git('checkout', '-q', 'main');
    assert.equal({ ...state(repo), branches: before.branches }, before, 'still nothing made');
  } finally {
    await conv.close();
  }
  const plain = tmp('baton-fwt-plain-');
  const p = await chat(['--new', '--agent', 'alpha', 'no git'], plain);
  const pc = await readConversation(home, p.conversation);
  try {
    const err = await worktreeForkBlocker(pc, 1, env());
    assert.is(err?.exitCode, EXIT.notARepository);
    assert.match(err!.message, /A worktree fork needs git/);
    assert.is(err!.hint, `fork into a tab instead (same directory, no git needed): baton fork ${p.conversation} --at 1`);
  } finally {
    await pc.close();
  }
});

f.run();
