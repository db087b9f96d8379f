// Fork, reset and undo of a tab's conversation, as commands of the conversation layer
// (tab-conversation.ts): the facts each dialog shows, asked for before (the entry in one line,
// how many entries a reset hides, whether a checkpoint can restore the files, why a worktree
// fork cannot be made), and the command itself, which settles the tab's agent as the history
// changed under it (a reset or its undo stops it; the next message starts it afresh).
// It must never reset or undo while the agent is busy, and never write to a fork's source.

import type { BatonError } from '../errors.js';
import type { Registry } from '../plugins/registry.js';
import { isRendered, renderEntry } from '../transcript/render-text.js';
import type { OpenConversation } from '../transcript/store.js';
import type { Transcript } from '../transcript/transcript.js';
import type { Entry } from '../transcript/types.js';
import { forkConversation, type ForkResult } from './fork.js';
import { worktreeForkBlocker } from './fork-worktree.js';
import { regenerateCard, type HandoffCard } from './handoff-card.js';
import { checkpointAfter, resetConversation, undoLastReset } from './reset.js';
import { isBusy, type TabSession } from './tab-session.js';

/** The conversation's own facts a tab shows: no content. */
export interface ConversationFacts {
  id: string;
  title: string;
  /** Where it runs (a worktree fork's worktree, or a directory in it). */
  cwd: string;
  forkedFrom?: { conversation: string; seq: number };
  /** A fork into its own git worktree: the branch baton made for it. */
  worktreeBranch?: string;
}

/** The transcript, read-only: the entries a reader sees, and the handed-over context card of a switch. */
export interface TranscriptReader {
  visible(): readonly Entry[];
  card(handoffSeq: number, titles: Record<string, string>): HandoffCard;
}

export interface ForkFacts {
  seq: number;
  /** The entry in one line, as the transcript view shows it. */
  entry: string;
  /** The agent that ran the entry (the fork continues with it unless told otherwise). */
  agent: string | undefined;
  /** Why a fork into a worktree cannot be made (not a repository, a detached HEAD, ...); the tab fork still can. */
  worktreeBlocked?: BatonError;
}

export interface ForkWhere {
  worktree: boolean;
  /** The agent the fork continues with, when not the one that ran the fork point. */
  agent?: string;
}

export type ResetFacts =
  | { refused: string }
  | {
      seq: number;
      entry: string;
      /** Entries a reader sees that the reset hides. */
      hidden: number;
      /** A checkpoint holds the files as they were after the entry. */
      canRestore: boolean;
      agentTitle?: string;
    };

export interface ResetDone {
  seq: number;
  hidden: number;
  restored: boolean;
  /** The agent the reset stopped (by title), if one ran. */
  stoppedTitle?: string;
}

export type UndoFacts = { refused: string } | { toSeq: number; back: number; runningTitle?: string };

export interface UndoDone {
  toSeq: number;
  back: number;
  stoppedTitle?: string;
}

export function conversationFacts(conv: OpenConversation): ConversationFacts {
  const m = conv.meta.data;
  return {
    id: conv.id,
    title: m.title,
    cwd: m.cwd,
    ...(m.forkedFrom ? { forkedFrom: { ...m.forkedFrom } } : {}),
    ...(m.worktreeBranch ? { worktreeBranch: m.worktreeBranch } : {}),
  };
}

export function transcriptReader(conv: OpenConversation): TranscriptReader {
  const t = conv.transcript;
  t.flush();
  return { visible: () => t.visible(), card: (seq, titles) => regenerateCard(t, seq, titles) };
}

/** One line about an entry, as the transcript view shows it. */
export function entryLine(t: Transcript, seq: number, titles: Record<string, string>): string {
  const e = t.entry(seq);
  // Without the "[seq] " the view starts each entry with: the dialog says "At #seq:" itself.
  const text = e
    ? renderEntry(e, { titles })
        .map((l) => l.trim())
        .join(' ')
        .replace(/^\[\d+\] /, '')
    : `#${seq}`;
  return text.length > 72 ? `${text.slice(0, 71)}…` : text;
}

/** The agent that ran entry seq. */
function agentAt(t: Transcript, seq: number): string | undefined {
  const e = t.entry(seq);
  return (e && t.segmentOf(e)?.harness) ?? t.currentSegment?.harness;
}

export async function forkFacts(conv: OpenConversation, seq: number, titles: Record<string, string>, env: NodeJS.ProcessEnv): Promise<ForkFacts> {
  conv.transcript.flush();
  conv.sync();
  const blocked = await worktreeForkBlocker(conv, seq, env);
  return { seq, entry: entryLine(conv.transcript, seq, titles), agent: agentAt(conv.transcript, seq), ...(blocked ? { worktreeBlocked: blocked } : {}) };
}

export function forkAt(
  conv: OpenConversation,
  seq: number,
  where: ForkWhere,
  ctx: { home: string; registry: Registry; env: NodeJS.ProcessEnv },
): Promise<ForkResult> {
  // The fork reads the source from disk: everything committed so far is written first.
  conv.transcript.flush();
  conv.sync();
  const ran = agentAt(conv.transcript, seq);
  return forkConversation(ctx.home, conv.id, seq, {
    worktree: where.worktree,
    env: ctx.env,
    registry: ctx.registry,
    ...(where.agent && where.agent !== ran ? { agent: where.agent } : {}),
  });
}

const busyRefusal = (s: TabSession, what: string) =>
  `${s.driver?.title ?? 'The agent'} is still working. Nothing was ${what} — wait for it to finish (or interrupt it) and retry.`;

/** Why the agent may not be stopped for a reset or its undo now: it works, or its input box holds a draft of the user's (lost with it). */
function stopRefusal(s: TabSession, what: string): string | undefined {
  if (isBusy(s.snapshot().status)) return busyRefusal(s, what);
  const held = s.draftHold();
  return held ? `${held} Nothing was ${what}.` : undefined;
}

export function resetFacts(s: TabSession, seq: number, titles: Record<string, string>): ResetFacts {
  const conv = s.conversation;
  const t = conv.transcript;
  const refused = stopRefusal(s, 'reset');
  if (refused) return { refused };
  // Counted as the view shows them: bookkeeping entries (cursors, sessions) draw nothing.
  const hidden = t.visible().filter((e) => e.seq > seq && isRendered(e)).length;
  if (!hidden) return { refused: `#${seq} is the last entry: a reset to it would hide nothing.` };
  const agentTitle = s.driver?.title;
  return { seq, entry: entryLine(t, seq, titles), hidden, canRestore: checkpointAfter(conv, seq) !== undefined, ...(agentTitle ? { agentTitle } : {}) };
}

/**
 * Refused (nothing changed) while the agent is busy or its input box holds a draft of the
 * user's; a BatonError from the reset itself (an entry that is not shown, a worktree the
 * checkpoint cannot be restored over) is thrown.
 */
export async function resetTo(s: TabSession, seq: number, opts: { restore?: boolean; force?: boolean }): Promise<ResetDone | { refused: string }> {
  const refused = stopRefusal(s, 'reset');
  if (refused) return { refused };
  const conv = s.conversation;
  const stoppedTitle = s.driver?.title;
  // A message typed into the CLI whose checkpoint is still being taken goes before the reset entry.
  await s.ingested();
  const hidden = conv.transcript.visible().filter((e) => e.seq > seq && isRendered(e)).length;
  const restored = !!(await resetConversation(conv, seq, opts)).restored;
  conv.sync();
  await s.stopAfterReset();
  return { seq, hidden, restored, ...(stoppedTitle ? { stoppedTitle } : {}) };
}

/** The newest reset still in force (what undoLastReset undoes), if any. */
function resetInForce(t: Transcript): (Entry & { kind: 'reset' }) | undefined {
  const undone = new Set<number>();
  for (const e of t.entries) if (e.kind === 'reset' && e.undoes !== undefined) undone.add(e.undoes);
  for (let i = t.entries.length - 1; i >= 0; i--) {
    const e = t.entries[i]!;
    if (e.kind === 'reset' && e.undoes === undefined && !undone.has(e.seq)) return e;
  }
  return undefined;
}

/** Entries a reader would see again once `reset` is undone. */
function comingBack(t: Transcript, reset: Entry & { kind: 'reset' }): number {
  const shown = new Set(t.visible().map((e) => e.seq));
  return t.entries.filter((e) => e.seq > reset.toSeq && e.seq < reset.seq && !shown.has(e.seq) && isRendered(e)).length;
}

export function undoFacts(s: TabSession): UndoFacts {
  const t = s.conversation.transcript;
  const reset = resetInForce(t);
  if (!reset) return { refused: 'No reset to undo in this conversation.' };
  const refused = stopRefusal(s, 'undone');
  if (refused) return { refused };
  const running = s.snapshot().running ? s.driver?.title : undefined;
  return { toSeq: reset.toSeq, back: comingBack(t, reset), ...(running ? { runningTitle: running } : {}) };
}

export async function undoReset(s: TabSession): Promise<UndoDone | { refused: string }> {
  const conv = s.conversation;
  const refused = stopRefusal(s, 'undone');
  if (refused) return { refused };
  await s.ingested();
  const reset = resetInForce(conv.transcript);
  if (!reset) return { refused: 'No reset to undo in this conversation.' };
  const back = comingBack(conv.transcript, reset);
  undoLastReset(conv);
  conv.sync();
  const stoppedTitle = s.driver?.title;
  await s.stopAfterReset();
  return { toSeq: reset.toSeq, back, ...(stoppedTitle ? { stoppedTitle } : {}) };
}
