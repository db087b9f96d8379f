// Reset a conversation to an entry: later entries are hidden, not deleted (the reset is an
// entry of its own and can be undone), and optionally the worktree goes back to the
// checkpoint taken just after that entry — refused when the worktree holds changes no
// checkpoint has, unless forced. The next message to any agent is then a replay, since a
// native session still remembers what was hidden (prepare-brief.ts checks for resets).

import { badInput, noSuchEntry } from '../errors.js';
import type { OpenConversation } from '../transcript/store.js';
import type { Entry } from '../transcript/types.js';
import { restoreCheckpoint, type RestoreResult } from '../worktree/checkpoint.js';

export interface ResetResult {
  /** Entries that were visible and are now hidden. */
  hidden: number;
  restored?: RestoreResult & { checkpoint: string };
  entry: Entry;
}

/**
 * `seq` (given as `flag`) must be an entry a reader sees. Not a whole number: exit 2; no
 * such entry, or one hidden by a reset: exit 9 (noSuchEntry). Resetting to a hidden entry
 * would leave it hidden and take the checkpoint after it from the wrong turn.
 */
export function checkSeq(conv: Pick<OpenConversation, 'id' | 'transcript'>, seq: number, flag = '--to'): void {
  const t = conv.transcript;
  if (!Number.isSafeInteger(seq))
    throw badInput(`${flag} must be a whole number (an entry's seq), got ${String(seq)}`, `see the seqs with baton transcript show ${conv.id}`);
  const visible = t.visible();
  if (seq < 1 || seq > t.lastSeq || !t.entry(seq)) {
    throw noSuchEntry(
      `${flag} ${seq} is not an entry of conversation ${conv.id}`,
      visible.length
        ? `give a seq from ${visible[0]!.seq} to ${visible.at(-1)!.seq} (see baton transcript show ${conv.id})`
        : 'the conversation has no entries yet',
    );
  }
  if (!visible.some((e) => e.seq === seq)) {
    throw noSuchEntry(
      `#${seq} of conversation ${conv.id} is hidden by a reset`,
      `give an entry that is shown (baton transcript show ${conv.id}), or undo the reset first: baton reset ${conv.id} --undo`,
    );
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
