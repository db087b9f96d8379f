// Copies checkpoint refs under another conversation's name: a fork keeps the entries (and
// their checkpoint shas) of the conversation it came from, and holding those commits under
// its own refs is what keeps them when the source is pruned (its refs deleted, its commits
// left for git's garbage collection) — so a reset --restore in the fork still works.
// It must never point a ref at something that is not a commit of this repository, never
// replace a ref that already exists, and never run git through a shell.

import { gitBuffer } from './git.js';
import { checkpointRef } from './checkpoint.js';
import { repoPaths } from './snapshot.js';

export interface CheckpointToCopy {
  seq: number;
  sha: string;
}

/**
 * Creates refs/baton/checkpoints/<conversation>/<seq> for each given commit that is in the
 * repo holding dir (the others are skipped: a checkpoint taken in another repository, or
 * collected since). Returns how many refs were made. All of them are made in one
 * transaction, and a ref that already exists fails it (`create` refuses to overwrite).
 */
export async function copyCheckpoints(dir: string, conversation: string, list: readonly CheckpointToCopy[]): Promise<number> {
  if (list.length === 0) return 0;
  const refs = list.map((c) => ({ ...c, ref: checkpointRef(conversation, c.seq) }));
  const { root } = await repoPaths(dir, 'A checkpoint');
  // One cat-file for all of them: "<sha> commit <size>" or "<sha> missing".
  const answer = (
    await gitBuffer(['cat-file', '--batch-check=%(objectname) %(objecttype)'], {
      cwd: root,
      input: refs.map((c) => `${c.sha}\n`).join(''),
    })
  )
    .toString('utf8')
    .split('\n');
  const present = refs.filter((c, i) => answer[i] === `${c.sha} commit`);
  if (present.length === 0) return 0;
  const input = present.map((c) => `create ${c.ref} ${c.sha}\n`).join('');
  await gitBuffer(['update-ref', '--stdin'], { cwd: root, input });
  return present.length;
}
