// Checkpoints: the working tree (tracked and untracked, not ignored) saved as a commit
// under refs/baton/checkpoints/<conversation>/<seq> before each user message, so a reset
// can put the files back and a fork can start a worktree from that turn.
// It must never touch the user's HEAD, index, branches or stash (everything goes through a
// throwaway index, write-tree, commit-tree, update-ref), never run git through a shell,
// and never overwrite work on restore that no checkpoint holds unless told to (force).

import { lstat, rmdir, unlink } from 'node:fs/promises';
import { sep } from 'node:path';
import { EXIT, badInput, refused } from '../errors.js';
import { GitError, gitBuffer, gitLine, gitTry, git, headCommit, resolveTree, isRepo, notARepository } from './git.js';
import { cachedRepoPaths, snapshotTree, withTempIndex } from './snapshot.js';

export const CHECKPOINT_NAMESPACE = 'refs/baton/checkpoints';

export interface Checkpoint {
  conversation: string;
  seq: number;
  /** Full ref name, refs/baton/checkpoints/<conversation>/<seq>. */
  ref: string;
  /** The checkpoint commit. */
  sha: string;
  /** Its tree: the working tree as it was. */
  tree: string;
  /** When it was taken (committer date, whole seconds). */
  at: Date;
}

export interface RestoreOptions {
  /** Overwrite changes that no checkpoint holds. */
  force?: boolean;
  /**
   * Whose checkpoints count as holding the current state. Without it, a checkpoint of
   * any conversation in this repo does.
   */
  conversation?: string;
}

export interface RestoreResult {
  /** The tree the working tree now matches. */
  tree: string;
  /** Files written (created or changed back). */
  written: number;
  /** Files removed because they were not in the checkpoint. */
  removed: number;
}

// Conversation ids become one ref component: keep them to what every ref backend accepts.
const CONVERSATION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

function checkConversation(conversation: string): void {
  if (!CONVERSATION_ID.test(conversation) || conversation.includes('..') || conversation.endsWith('.lock') || conversation.endsWith('.')) {
    throw badInput(
      `"${conversation}" cannot name a checkpoint`,
      'A conversation id is letters, digits, ".", "_" or "-" (at most 128), starting with a letter or digit.',
    );
  }
}

function checkSeq(seq: number): void {
  if (!Number.isSafeInteger(seq) || seq < 0) throw badInput(`${seq} is not a transcript seq`, 'A seq is a whole number, 0 or more.');
}

/** The ref a checkpoint lives under. */
export function checkpointRef(conversation: string, seq: number): string {
  checkConversation(conversation);
  checkSeq(seq);
  return `${CHECKPOINT_NAMESPACE}/${conversation}/${seq}`;
}

async function requireRepo(dir: string): Promise<void> {
  if (!(await isRepo(dir))) throw notARepository(dir, 'A checkpoint');
}

// commit-tree needs an identity; a machine where git cannot work one out still gets checkpoints.
const FALLBACK_IDENTITY = {
  GIT_AUTHOR_NAME: 'baton',
  GIT_AUTHOR_EMAIL: 'baton@localhost',
  GIT_COMMITTER_NAME: 'baton',
  GIT_COMMITTER_EMAIL: 'baton@localhost',
};

/**
 * The checkpoint commit of tree: its parent is HEAD, which commit-tree resolves itself (one
 * git start less on every checkpoint than asking for it first). Only when that fails is
 * HEAD looked at: before the first commit the checkpoint is a root commit; a git that
 * cannot work out who is committing gets baton's fallback identity.
 */
async function commitTree(root: string, tree: string, message: string): Promise<string> {
  // --no-gpg-sign: commit.gpgSign would otherwise prompt for a passphrase on every message.
  let args = ['commit-tree', '--no-gpg-sign', '-p', 'HEAD', tree];
  let r = await gitTry(args, { cwd: root, input: message });
  if (r.code === 0) return r.stdout.toString('utf8').trim();
  if (!(await headCommit(root))) {
    args = ['commit-tree', '--no-gpg-sign', tree];
    r = await gitTry(args, { cwd: root, input: message });
    if (r.code === 0) return r.stdout.toString('utf8').trim();
  }
  const again = await gitTry(args, { cwd: root, input: message, env: FALLBACK_IDENTITY });
  if (again.code === 0) return again.stdout.toString('utf8').trim();
  throw new GitError(args, r.code, r.stderr);
}

/**
 * Saves the working tree of the repo holding dir as refs/baton/checkpoints/<conversation>/<seq>
 * and returns the commit sha. Its parent is HEAD when there is one (none before the first
 * commit); a detached HEAD or a linked worktree is fine. Taking the same seq again replaces it.
 */
export async function createCheckpoint(dir: string, conversation: string, seq: number): Promise<string> {
  const ref = checkpointRef(conversation, seq);
  const paths = await cachedRepoPaths(dir, 'A checkpoint');
  const tree = await snapshotTree(dir, paths);
  const message = `baton checkpoint ${conversation} #${seq}\n\nconversation: ${conversation}\nseq: ${seq}\n`;
  const sha = await commitTree(paths.root, tree, message);
  await gitLine(['update-ref', '-m', `baton checkpoint ${conversation} #${seq}`, ref, sha], { cwd: paths.root });
  return sha;
}

async function listUnder(root: string, pattern: string): Promise<Checkpoint[]> {
  const out = await git(['for-each-ref', '--format=%(refname)%00%(objectname)%00%(tree)%00%(committerdate:unix)', pattern], { cwd: root });
  const list: Checkpoint[] = [];
  for (const line of out.split('\n')) {
    if (!line) continue;
    const [ref, sha, tree, when] = line.split('\0');
    const m = /^refs\/baton\/checkpoints\/([^/]+)\/(\d+)$/.exec(ref ?? '');
    if (!m || !sha || !tree) continue;
    list.push({ conversation: m[1]!, seq: Number(m[2]), ref: ref!, sha, tree, at: new Date(Number(when) * 1000) });
  }
  return list.sort((a, b) => a.conversation.localeCompare(b.conversation) || a.seq - b.seq);
}

/** A conversation's checkpoints in this repo, oldest seq first. */
export async function listCheckpoints(dir: string, conversation: string): Promise<Checkpoint[]> {
  checkConversation(conversation);
  await requireRepo(dir);
  return listUnder(dir, `${CHECKPOINT_NAMESPACE}/${conversation}/`);
}

/** The checkpoint commit taken for that seq, or null. */
export async function findCheckpoint(dir: string, conversation: string, seq: number): Promise<string | null> {
  const ref = checkpointRef(conversation, seq);
  await requireRepo(dir);
  const r = await gitTry(['rev-parse', '-q', '--verify', `${ref}^{commit}`], { cwd: dir });
  return r.code === 0 ? r.stdout.toString('utf8').trim() : null;
}

/**
 * Deletes a conversation's checkpoint refs (pruning). With keepLast, the newest that many
 * seqs stay. Returns how many were deleted. The commits go when git next collects garbage.
 */
export async function deleteCheckpoints(dir: string, conversation: string, opts: { keepLast?: number } = {}): Promise<number> {
  const all = await listCheckpoints(dir, conversation);
  const keep = Math.max(0, Math.floor(opts.keepLast ?? 0));
  const doomed = keep > 0 ? all.slice(0, Math.max(0, all.length - keep)) : all;
  if (doomed.length === 0) return 0;
  // One transaction: every ref goes, or (on a race) none does.
  const input = doomed.map((c) => `delete ${c.ref} ${c.sha}\n`).join('');
  await gitBuffer(['update-ref', '--stdin'], { cwd: dir, input });
  return doomed.length;
}

interface TreeChange {
  status: string;
  newMode: string;
  path: Buffer;
}

/** `diff-tree -r -z` between two trees, file names kept as bytes. */
async function treeChanges(root: string, from: string, to: string): Promise<TreeChange[]> {
  const raw = await gitBuffer(['diff-tree', '-r', '-z', '--no-renames', '--no-ext-diff', from, to], { cwd: root });
  const changes: TreeChange[] = [];
  let at = 0;
  while (at < raw.length) {
    const metaEnd = raw.indexOf(0, at);
    const pathEnd = raw.indexOf(0, metaEnd + 1);
    if (metaEnd < 0 || pathEnd < 0) break;
    // ":100644 100644 <old> <new> M"
    const meta = raw.subarray(at, metaEnd).toString('latin1').replace(/^:/, '').split(' ');
    changes.push({ status: meta[4] ?? '', newMode: meta[1] ?? '', path: raw.subarray(metaEnd + 1, pathEnd) });
    at = pathEnd + 1;
  }
  return changes;
}

const GITLINK = '160000';

async function removeFile(root: string, rel: Buffer): Promise<boolean> {
  const base = Buffer.from(root + sep);
  try {
    const abs = Buffer.concat([base, rel]);
    if ((await lstat(abs)).isDirectory()) return false;
    await unlink(abs);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
  // Directories left empty go too (git does the same); one still holding ignored files stays.
  for (let cut = rel.lastIndexOf(0x2f); cut > 0; cut = rel.lastIndexOf(0x2f, cut - 1)) {
    try {
      await rmdir(Buffer.concat([base, rel.subarray(0, cut)]));
    } catch {
      break;
    }
  }
  return true;
}

/** Trees that hold the current state: the conversation's (or every) checkpoint, and HEAD's. */
async function heldTrees(root: string, conversation: string | undefined): Promise<Set<string>> {
  const pattern = conversation ? `${CHECKPOINT_NAMESPACE}/${conversation}/` : `${CHECKPOINT_NAMESPACE}/`;
  const trees = new Set((await listUnder(root, pattern)).map((c) => c.tree));
  // A worktree that matches HEAD has no changes at all, so nothing is lost by restoring over it.
  const head = await resolveTree(root, 'HEAD');
  if (head) trees.add(head);
  return trees;
}

/**
 * Puts the working tree of the repo holding dir back to the checkpoint `sha`: files changed
 * or deleted since are written back, files created since (and not ignored) are removed,
 * ignored files, HEAD and the index stay as they are. Refuses (exit 5) when the working
 * tree holds changes no checkpoint holds — its current snapshot tree equals no checkpoint
 * tree of the conversation and not HEAD's tree — unless force.
 */
export async function restoreCheckpoint(dir: string, sha: string, opts: RestoreOptions = {}): Promise<RestoreResult> {
  if (opts.conversation !== undefined) checkConversation(opts.conversation);
  const paths = await cachedRepoPaths(dir, 'A checkpoint');
  const { root } = paths;
  const target = await resolveTree(root, sha);
  if (!target) throw badInput(`checkpoint ${sha} is not in ${root}`, 'List the checkpoints of the conversation and pick one of those.');

  const now = await snapshotTree(root, paths);
  if (now === target) return { tree: target, written: 0, removed: 0 };
  if (!opts.force && !(await heldTrees(root, opts.conversation)).has(now)) {
    throw refused(
      `the working tree in ${root} has changes that no checkpoint holds; restoring would lose them`,
      'Commit or checkpoint them first, or restore with force to discard them.',
    );
  }

  const changes = (await treeChanges(root, now, target)).filter((c) => c.newMode !== GITLINK);
  const toRemove = changes.filter((c) => c.status === 'D');
  const toWrite = changes.filter((c) => c.status !== 'D');
  let removed = 0;
  // Removals first, so a file that becomes a directory (or back) has room.
  for (const c of toRemove) if (await removeFile(root, c.path)) removed++;
  // Type changes (file <-> symlink) are rewritten from scratch.
  for (const c of toWrite) if (c.status === 'T') await removeFile(root, c.path);

  if (toWrite.length > 0) {
    await withTempIndex(null, async (env) => {
      await gitBuffer(['read-tree', target], { cwd: root, env });
      const input = Buffer.concat(toWrite.flatMap((c) => [c.path, Buffer.from([0])]));
      const args = ['checkout-index', '-f', '-z', '--stdin'];
      const r = await gitTry(args, { cwd: root, env, input });
      if (r.code !== 0) throw new GitError(args, r.code, r.stderr, EXIT.internal);
    });
  }
  return { tree: target, written: toWrite.length, removed };
}

/** The current working tree's snapshot tree sha (what a checkpoint taken now would hold). */
export async function currentSnapshotTree(dir: string): Promise<string> {
  return snapshotTree(dir, await cachedRepoPaths(dir, 'A checkpoint'));
}
