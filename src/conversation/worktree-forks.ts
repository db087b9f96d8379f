// The lifecycle of worktree forks as the user sees it: the repository's linked worktrees
// joined with the conversations that live in them (listForkWorktrees), and removing one —
// worktree and branch — named by its conversation or its path (removeForkWorktree).
// It must never remove a worktree baton did not make, never delete a branch other than the
// fork's own, never pull a worktree from under a conversation open in a running baton, and
// (through removeWorktree) never drop uncommitted work or a locked worktree unless told to.

import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { badInput, detachedHead, notARepository, refused } from '../errors.js';
import { findConversation, listConversations, openConversation, type OpenConversation } from '../transcript/store.js';
import { openMeta } from '../transcript/store-meta.js';
import { isRepo } from '../worktree/git.js';
import { listWorktrees, removeWorktree, type RemoveWorktreeResult, type WorktreeInfo } from '../worktree/worktree.js';
import { FORK_BRANCH_PREFIX } from './fork-worktree.js';
import { userAuthor } from './user.js';

export interface ForkWorktreeRow {
  path: string;
  /** Null when detached. */
  branch: string | null;
  /** The conversation living there (its cwd), if any. */
  conversation?: { id: string; title: string; worktreeBranch?: string };
  /** Uncommitted changes; null when it could not be checked (its directory is gone). */
  dirty: boolean | null;
  locked: boolean;
  /** Its directory is gone. */
  missing: boolean;
}

function canonical(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

async function worktreeMeta(home: string, id: string) {
  const { dir } = findConversation(home, id);
  const { handle } = await openMeta(dir, { id, title: '', created: '', updated: '', cwd: '' }, { write: false });
  return handle.data;
}

/** The worktree path (of these) that holds dir: the longest one it is in or under. */
function holder(paths: readonly string[], dir: string): string | undefined {
  let best: string | undefined;
  for (const p of paths) if ((dir === p || dir.startsWith(p.endsWith('/') ? p : `${p}/`)) && (!best || p.length > best.length)) best = p;
  return best;
}

/** The conversations whose directory is in one of these worktrees, by canonical worktree path. */
async function conversationsIn(home: string, paths: readonly string[]): Promise<Map<string, NonNullable<ForkWorktreeRow['conversation']>>> {
  const wanted = paths.map(canonical);
  const found = new Map<string, NonNullable<ForkWorktreeRow['conversation']>>();
  for (const c of await listConversations(home)) {
    if (!c.cwd) continue;
    const at = holder(wanted, canonical(c.cwd));
    if (!at) continue;
    const m = await worktreeMeta(home, c.id);
    const row = { id: c.id, title: c.title, ...(m.worktreeBranch ? { worktreeBranch: m.worktreeBranch } : {}) };
    // Several conversations in one worktree (tab forks of a fork): the one baton made it for wins.
    if (!found.has(at) || (m.worktreeBranch && !found.get(at)!.worktreeBranch)) found.set(at, row);
  }
  return found;
}

/** The linked worktrees of the repository holding repoDir (not its main one), with their conversations. */
export async function listForkWorktrees(home: string, repoDir: string): Promise<ForkWorktreeRow[]> {
  if (!(await isRepo(repoDir))) {
    throw notARepository(
      `${repoDir} is not a git repository, so it has no worktrees to list`,
      'run baton worktree list inside the repository whose forks you want to see',
    );
  }
  const linked = (await listWorktrees(repoDir)).filter((w) => !w.main && !w.bare);
  const byPath = await conversationsIn(
    home,
    linked.map((w) => w.path),
  );
  return linked.map((w) => {
    const row: ForkWorktreeRow = { path: w.path, branch: w.branch, dirty: w.dirty, locked: w.locked, missing: w.prunable || !existsSync(w.path) };
    const c = byPath.get(canonical(w.path));
    if (c) row.conversation = c;
    return row;
  });
}

export interface RemoveForkResult extends RemoveWorktreeResult {
  conversation?: string;
}

export interface RemoveForkOptions {
  force?: boolean;
  /** Where the command runs: the repository, when the fork's own directory is gone. */
  cwd: string;
  env: NodeJS.ProcessEnv;
}

function looksLikePath(target: string, cwd: string): boolean {
  return target.includes('/') || target === '.' || target === '..' || existsSync(resolve(cwd, target));
}

/**
 * Removes a fork's worktree and its branch, named by conversation id (or prefix) or by
 * path. Refused (exit 5): its conversation is open in a running baton, the worktree now
 * has another branch checked out than the fork's, a worktree baton did not make, and
 * without force a dirty one (removeWorktree). A detached HEAD there instead of the fork's
 * branch: exit 7; a locked worktree: exit 11 (removeWorktree); no repository: exit 6. Bad
 * input (exit 2): a conversation that was not forked into a worktree, a path that is no
 * worktree of the repository.
 * The conversation stays (and records the removal); its checkpoints stay until it is pruned.
 */
export async function removeForkWorktree(home: string, target: string, opts: RemoveForkOptions): Promise<RemoveForkResult> {
  let conv: OpenConversation | undefined;
  let path: string;
  const byPath = looksLikePath(target, opts.cwd);
  try {
    if (byPath) {
      path = canonical(isAbsolute(target) ? target : resolve(opts.cwd, target));
      const owner = (await conversationsIn(home, [path])).get(path);
      if (owner?.worktreeBranch) conv = await openConversation(home, owner.id, { write: true, user: userAuthor(opts.env) });
    } else {
      conv = await openConversation(home, target, { write: true, user: userAuthor(opts.env) });
      if (!conv.meta.data.worktreeBranch) {
        throw badInput(
          `conversation ${conv.id} was not forked into a worktree (it runs in ${conv.meta.data.cwd || 'no recorded directory'})`,
          'baton worktree remove takes the conversation of a `baton fork --worktree`, or a worktree path; see baton worktree list',
        );
      }
      path = canonical(conv.meta.data.cwd);
    }
    const expected = conv?.meta.data.worktreeBranch;
    const repoDir = existsSync(path) ? path : opts.cwd;
    if (!(await isRepo(repoDir))) {
      throw notARepository(`${path} is gone and ${opts.cwd} is not a git repository`, 'run baton worktree remove inside the repository the fork was made from');
    }
    const all = await listWorktrees(repoDir, { dirty: false });
    // A fork may run in a subdirectory of its worktree (where the source ran).
    if (!byPath) {
      const top = holder(
        all.filter((x) => !x.main).map((x) => canonical(x.path)),
        path,
      );
      if (top) path = top;
    }
    const w: WorktreeInfo | undefined = all.find((x) => canonical(x.path) === path);
    if (w && !w.main) {
      if (expected && !w.branch) {
        throw detachedHead(
          `the worktree ${w.path} has a detached HEAD${w.head ? ` (at commit ${w.head.slice(0, 12)})` : ''}, not the fork's branch ${expected}; commits made there on no branch would be lost with it`,
          `check out the fork's branch there again (git -C ${w.path} switch ${expected}) and remove it then, or remove it by hand: git worktree remove ${w.path}`,
        );
      }
      if (expected && w.branch !== expected) {
        throw refused(
          `the worktree ${w.path} has branch ${w.branch} checked out, not the fork's branch ${expected}; removing it would delete ${w.branch}`,
          `check out ${expected} there again, or remove it by hand: git worktree remove ${w.path}`,
        );
      }
      if (!expected && !w.branch?.startsWith(FORK_BRANCH_PREFIX)) {
        throw refused(
          `the worktree ${w.path} was not made by baton (its branch is ${w.branch ?? 'detached'}, not ${FORK_BRANCH_PREFIX}...)`,
          `remove it with git: git worktree remove ${w.path}`,
        );
      }
    }
    const removed = await removeWorktree(repoDir, path, { force: opts.force });
    const result: RemoveForkResult = { ...removed };
    if (conv) {
      result.conversation = conv.id;
      conv.transcript.apply({
        type: 'notice',
        text: `The worktree ${removed.path} was removed${removed.branch ? `, and its branch ${removed.branch} ${removed.branchDeleted ? 'deleted' : 'kept'}` : ''}. Its checkpoints stay until the conversation is pruned.`,
      });
    }
    return result;
  } finally {
    await conv?.close();
  }
}
