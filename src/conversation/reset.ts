// Reset a conversation to an entry: later entries are hidden, not deleted (the reset is an
// entry of its own and can be undone), and optionally the worktree goes back to the
// checkpoint taken just after that entry — refused when the worktree holds changes no
// checkpoint has, unless forced. The next message to any agent is then a replay, since a
// native session still remembers what was hidden (prepare-brief.ts checks for resets).

import { badInput } from '../errors.js';
import type { OpenConversation } from '../transcript/store.js';
import type { Entry } from '../transcript/types.js';
import { restoreCheckpoint, type RestoreResult } from '../worktree/checkpoint.js';

export interface ResetResult {
  /** Entries that were visible and are now hidden. */
  hidden: number;
  restored?: RestoreResult & { checkpoint: string };
  entry: Entry;
}

export function checkSeq(conv: OpenConversation, seq: number, flag = '--to'): void {
  const t = conv.transcript;
  if (!Number.isInteger(seq) || seq < 1 || seq > t.lastSeq || !t.entry(seq)) {
    throw badInput(`${flag} ${seq} is not an entry of conversation ${conv.id}`, t.lastSeq ? `give a seq from 1 to ${t.lastSeq} (see baton transcript show ${conv.id})` : 'the conversation has no entries yet');
  }
}

/** The checkpoint holding the worktree as it was after entry `seq`: the next user message's. */
export function checkpointAfter(conv: OpenConversation, seq: number): string | undefined {
  for (const e of conv.transcript.visible()) if (e.seq > seq && e.kind === 'user_message') return e.checkpoint;
  return undefined;
}

export async function resetConversation(conv: OpenConversation, toSeq: number, opts: { restore?: boolean; force?: boolean } = {}): Promise<ResetResult> {
  checkSeq(conv, toSeq);
  const t = conv.transcript;
  const visibleAfter = t.visible().filter((e) => e.seq > toSeq).length;
  let restored: ResetResult['restored'];
  if (opts.restore) {
    const sha = checkpointAfter(conv, toSeq);
    if (!sha) {
      throw badInput(
        `no checkpoint holds the worktree as it was after #${toSeq}`,
        'checkpoints are taken before each message baton sends in a git repository; reset without --restore to keep the files as they are',
      );
    }
    restored = { ...(await restoreCheckpoint(conv.meta.data.cwd, sha, { force: opts.force, conversation: conv.id })), checkpoint: sha };
  }
  const entry = t.reset(toSeq, { restored: !!restored });
  return restored ? { hidden: visibleAfter, restored, entry } : { hidden: visibleAfter, entry };
}

/** Undoes the newest reset that is still in force. */
export function undoLastReset(conv: OpenConversation): Entry {
  const t = conv.transcript;
  const undone = new Set<number>();
  for (const e of t.entries) if (e.kind === 'reset' && e.undoes !== undefined) undone.add(e.undoes);
  for (let i = t.entries.length - 1; i >= 0; i--) {
    const e = t.entries[i]!;
    if (e.kind === 'reset' && e.undoes === undefined && !undone.has(e.seq)) return t.reset(e.toSeq, { undoes: e.seq });
  }
  throw badInput(`conversation ${conv.id} has no reset to undo`);
}
