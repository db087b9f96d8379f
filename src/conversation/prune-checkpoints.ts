// After conversations are pruned, their checkpoint refs go too: each pruned conversation's
// refs/baton/checkpoints/<id>/ are deleted in the repository it ran in (its cwd), so the
// commits they held become git's garbage. Best effort: a directory that is gone is a
// warning with the command to run by hand, never a failed prune.
// It must never delete any ref but the pruned conversations' own checkpoints.

import { existsSync } from 'node:fs';
import type { PrunedConversation } from '../transcript/store.js';
import { CHECKPOINT_NAMESPACE, deleteCheckpoints } from '../worktree/checkpoint.js';
import { isRepo } from '../worktree/git.js';

export interface CheckpointPruneResult {
  /** Refs deleted, over all pruned conversations. */
  deleted: number;
  /** Conversations whose refs could not be reached (warned about). */
  unreachable: string[];
}

export async function deletePrunedCheckpoints(pruned: readonly PrunedConversation[], warn: (text: string) => void): Promise<CheckpointPruneResult> {
  const result: CheckpointPruneResult = { deleted: 0, unreachable: [] };
  for (const p of pruned) {
    const byHand = `if its repository still exists, run there: git for-each-ref --format='delete %(refname)' ${CHECKPOINT_NAMESPACE}/${p.id}/ | git update-ref --stdin`;
    if (!p.cwd) continue;
    if (!existsSync(p.cwd)) {
      result.unreachable.push(p.id);
      warn(`the checkpoints of pruned conversation ${p.id} were left in place: its directory ${p.cwd} is gone (${byHand})`);
      continue;
    }
    // A directory that is no repository holds no checkpoints (baton takes none outside git).
    if (!(await isRepo(p.cwd))) continue;
    try {
      result.deleted += await deleteCheckpoints(p.cwd, p.id);
    } catch (err) {
      result.unreachable.push(p.id);
      warn(`the checkpoints of pruned conversation ${p.id} in ${p.cwd} could not be deleted: ${(err as Error).message} (${byHand})`);
    }
  }
  return result;
}
