// The git half of a worktree fork: checks everything a fork into its own worktree needs
// before any conversation, branch or directory exists (planWorktreeFork), then makes the
// worktree at the checkpoint holding the files as they were after the fork point
// (makeWorktreeFork), and takes it all back when a later step fails (undoWorktreeFork).
// worktreeForkBlocker asks the same questions for a UI, making nothing.
// It must never leave a branch, a worktree directory or a checkpoint ref of a fork that
// failed, never branch from a commit that shares no history with the repository, and never
// fork from a detached HEAD (there is no branch to measure the fork against or merge it into).

import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import { BatonError, EXIT, alreadyExists, badInput, detachedHead, noCommits, notARepository } from '../errors.js';
import type { OpenConversation } from '../transcript/store.js';
import { createCheckpoint, deleteCheckpoints } from '../worktree/checkpoint.js';
import { branchExists, currentBranch, headCommit, isRepo, isValidBranchName, repoRoot, resolveCommit } from '../worktree/git.js';
import { addWorktree, listWorktrees, registeredAt, removeWorktree, type AddWorktreeResult } from '../worktree/worktree.js';
import { checkSeq } from './reset.js';
import { worktreeSetupFromConfig } from './worktree-settings.js';

export const WORKTREES_DIR_ENV = 'BATON_WORKTREES_DIR';
export const FORK_BRANCH_PREFIX = 'baton/';

export interface WorktreePlan {
  /** The source conversation's working tree (its top). */
  root: string;
  /** Where in it the source ran ('' at the top): the fork runs at the same place in its worktree. */
  subdir: string;
  /** Where fork worktrees go: beside the main worktree, or BATON_WORKTREES_DIR. */
  parentDir: string;
  /** The main worktree's directory name: forks are `<repoName>-<name>`. */
  repoName: string;
  /** The checkpoint of the first user message after the fork point; none when it is the last turn. */
  checkpoint?: { sha: string; seq: number };
  /** What the fork is measured against: the source's branch (never detached) and its commit. */
  base: { branch: string; commit: string };
  setup?: string[];
}

export interface WorktreeFork {
  path: string;
  /** Where the fork runs: the worktree, or the same subdirectory of it the source ran in. */
  cwd: string;
  branch: string;
  /** The commit the branch starts at. */
  commit: string;
  /** Where that commit came from: the next message's checkpoint, or one taken now. */
  from: { kind: 'checkpoint'; seq: number } | { kind: 'now'; ref: string };
  base: WorktreePlan['base'];
  copied: string[];
  skipped: AddWorktreeResult['skipped'];
  setupOutput?: string;
}

/** The fork's name as a branch and directory component: no slashes, nothing git would refuse. */
export function checkForkName(name: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(name) || name.includes('..') || name.endsWith('.lock') || name.endsWith('.')) {
    throw badInput(
      `--name "${name.slice(0, 100)}" cannot name a fork`,
      'use letters, digits, ".", "_" or "-" (at most 100), starting with a letter or digit, e.g. --name try-codex',
    );
  }
}

export const forkBranch = (name: string) => `${FORK_BRANCH_PREFIX}${name}`;
export const forkPath = (plan: WorktreePlan, name: string) => join(plan.parentDir, `${plan.repoName}-${name}`);

/** The way on when a worktree fork cannot be made, in the CLI's words (the TUI says it in its own: fork-actions.ts). */
export const tabForkHint = (id: string, seq: number) => `fork into a tab instead (same directory, no git needed): baton fork ${id} --at ${seq}`;

function taken(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** Commits a checkpoint can start a branch from have a parent: one taken before the first commit has none. */
async function sharesHistory(root: string, sha: string): Promise<boolean> {
  return (await resolveCommit(root, `${sha}^`)) !== null;
}

/**
 * Everything checked before anything is made, each with its exit code (errors.ts): the
 * source's directory gone or not a git repository (6, the hint gives the tab fork), a
 * detached HEAD (7), no commits yet (8), `baton/<name>` or its directory already there (10),
 * a locked worktree git still has registered at that directory (11); exit 2 for no
 * checkpoint of the state after atSeq, a bad BATON_WORKTREES_DIR or setup setting.
 */
export async function planWorktreeFork(src: OpenConversation, atSeq: number, env: NodeJS.ProcessEnv, name?: string): Promise<WorktreePlan> {
  const cwd = src.meta.data.cwd;
  if (!cwd || !existsSync(cwd)) {
    throw notARepository(
      `conversation ${src.id}'s directory ${cwd || '(none recorded)'} no longer exists, so there is no repository to fork a worktree from`,
      tabForkHint(src.id, atSeq),
    );
  }
  if (!(await isRepo(cwd))) {
    throw notARepository(
      `${cwd} is not a git repository. A worktree fork needs git: it adds a git worktree on a new branch holding the files as they were at that turn (a checkpoint commit), and measures the fork against the branch it came from`,
      tabForkHint(src.id, atSeq),
    );
  }
  const root = await repoRoot(cwd);
  // Independent questions, asked side by side: each is a git start on the fork's critical path.
  const [head, branch, worktrees] = await Promise.all([headCommit(root), currentBranch(root), listWorktrees(root, { dirty: false })]);
  if (!head) {
    throw noCommits(
      `${root} has no commits yet, so a worktree fork has no history to branch from (its branch would share none with ${branch ?? 'the repository'} and could not be merged back)`,
      `commit once (git add -A && git commit -m start), then fork again; or ${tabForkHint(src.id, atSeq)}`,
    );
  }
  if (!branch) {
    // The fork's branch is measured against (git diff in briefs) and merged back into the
    // branch it came from; a detached HEAD is no branch, and the commit alone would leave
    // the fork's work with nowhere to go.
    throw detachedHead(
      `${root} has a detached HEAD (at commit ${head.slice(0, 12)}), so a worktree fork has no branch to start from and be merged back into`,
      `switch to a branch first — a new one at this commit: git switch -c NAME, or an existing one: git switch BRANCH — then fork again; or ${tabForkHint(src.id, atSeq)}`,
    );
  }

  const plan: WorktreePlan = { root, subdir: relative(realpathSync(root), realpathSync(cwd)), parentDir: '', repoName: '', base: { branch, commit: head } };
  const next = src.transcript.visible().find((e) => e.seq > atSeq && e.kind === 'user_message');
  if (next) {
    if (!next.checkpoint) {
      throw badInput(
        `no checkpoint holds the worktree as it was after #${atSeq}: the next message, #${next.seq}, has none (git failed when it was taken, or it was sent outside a git repository)`,
        `fork at the last turn, or at one whose next message baton sent; or ${tabForkHint(src.id, atSeq)}`,
      );
    }
    const [present, rooted] = await Promise.all([resolveCommit(root, next.checkpoint), sharesHistory(root, next.checkpoint)]);
    if (!present) {
      throw badInput(
        `the checkpoint of #${next.seq} (${next.checkpoint.slice(0, 12)}) is not in ${root} any more`,
        `fork at the last turn (a checkpoint is taken then), or ${tabForkHint(src.id, atSeq)}`,
      );
    }
    if (!rooted) {
      throw badInput(
        `the checkpoint of #${next.seq} was taken before ${root} had any commits, so a branch from it would share no history with the repository`,
        `fork at a later turn, or ${tabForkHint(src.id, atSeq)}`,
      );
    }
    plan.checkpoint = { sha: next.checkpoint, seq: next.seq };
  }

  const custom = env[WORKTREES_DIR_ENV];
  if (custom !== undefined && custom !== '' && !isAbsolute(custom)) {
    throw badInput(
      `${WORKTREES_DIR_ENV} must be an absolute path (got "${custom.slice(0, 200)}")`,
      `set it to a directory, or unset it to put forks beside the repository`,
    );
  }
  const main = worktrees[0]?.path ?? root;
  plan.repoName = basename(main);
  plan.parentDir = custom || dirname(main);
  if (name !== undefined) {
    const b = forkBranch(name);
    const [valid, exists] = await Promise.all([isValidBranchName(root, b), branchExists(root, b)]);
    if (!valid) throw badInput(`"${b}" is not a valid branch name`, 'pick another --name');
    if (exists) {
      throw alreadyExists(`branch ${b} already exists`, `pick another --name, or see it with: baton worktree list (delete it with git branch -D ${b})`);
    }
    const path = forkPath(plan, name);
    if (taken(path))
      throw alreadyExists(`${path} already exists`, `pick another --name${custom ? '' : `, or set ${WORKTREES_DIR_ENV} to put forks elsewhere`}`);
    const registered = registeredAt(worktrees, path);
    if (registered) throw registered;
  }
  const setup = worktreeSetupFromConfig(env);
  if (setup) plan.setup = setup;
  return plan;
}

/**
 * Adds the worktree for fork `forkId` on branch baton/<name> (name defaults to the id). At
 * the last turn there is no later checkpoint, so one of the source's worktree is taken now,
 * under the fork's own id. A failure leaves nothing: addWorktree undoes itself, and the
 * checkpoint taken for it is deleted.
 */
export async function makeWorktreeFork(plan: WorktreePlan, forkId: string, atSeq: number, name = forkId): Promise<WorktreeFork> {
  const branch = forkBranch(name);
  const path = forkPath(plan, name);
  let commit = plan.checkpoint?.sha;
  let from: WorktreeFork['from'];
  if (commit) from = { kind: 'checkpoint', seq: plan.checkpoint!.seq };
  else {
    // "Before message atSeq+1": the state after the fork point, as a checkpoint names it.
    commit = await createCheckpoint(plan.root, forkId, atSeq + 1);
    from = { kind: 'now', ref: `refs/baton/checkpoints/${forkId}/${atSeq + 1}` };
  }
  try {
    const added = await addWorktree(plan.root, { commit, branch, path, ...(plan.setup ? { setup: plan.setup } : {}) });
    const sub = join(added.path, plan.subdir);
    const cwd = plan.subdir && !plan.subdir.startsWith('..') && existsSync(sub) ? sub : added.path;
    const fork: WorktreeFork = { path: added.path, cwd, branch, commit, from, base: plan.base, copied: added.copied, skipped: added.skipped };
    if (added.setupOutput !== undefined) fork.setupOutput = added.setupOutput;
    return fork;
  } catch (err) {
    await deleteCheckpoints(plan.root, forkId).catch(() => undefined);
    throw err;
  }
}

/** Takes a made worktree fork back: the worktree, its branch, the fork's checkpoint refs. */
export async function undoWorktreeFork(plan: WorktreePlan, forkId: string, fork: WorktreeFork | undefined): Promise<void> {
  if (fork) await removeWorktree(plan.root, fork.path, { force: true }).catch(() => undefined);
  await deleteCheckpoints(plan.root, forkId).catch(() => undefined);
}

/**
 * Why conversation `conv` cannot be forked into a worktree at entry `atSeq` — the error
 * `baton fork --worktree` would give (its exitCode tells which: EXIT.notARepository,
 * detachedHead, noCommits, noSuchEntry, alreadyExists, worktreeLocked, badInput) — or
 * undefined when it can. For a UI deciding what to offer: it makes nothing, takes no
 * checkpoint and writes nothing. A git failure that is not bad input (a bug, a broken
 * repository) is thrown, not returned.
 */
export async function worktreeForkBlocker(
  conv: OpenConversation,
  atSeq: number,
  env: NodeJS.ProcessEnv = process.env,
  name?: string,
): Promise<BatonError | undefined> {
  try {
    checkSeq(conv, atSeq, '--at');
    if (name !== undefined) checkForkName(name);
    await planWorktreeFork(conv, atSeq, env, name);
    return undefined;
  } catch (err) {
    if (err instanceof BatonError && err.exitCode !== EXIT.internal) return err;
    throw err;
  }
}
