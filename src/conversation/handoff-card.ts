// The "handed-over context" card: the brief a switch sent, regenerated now from the
// transcript up to that switch with the budget, title and git facts recorded in its handoff
// entry. The brief is deterministic, so the regenerated text's hash should equal the one
// recorded when it was sent; the card says whether it does rather than assuming it.

import { buildBrief, briefHash } from '../transcript/brief.js';
import type { Transcript } from '../transcript/transcript.js';
import type { AgentRef, Entry } from '../transcript/types.js';

export const CARD_LABEL = "Regenerated from this conversation's transcript; not stored when it was sent.";

export interface HandoffCard {
  handoffSeq: number;
  from: AgentRef | null;
  to: AgentRef;
  mode: 'fresh' | 'resume';
  /** The brief as regenerated; null when none was sent (nothing to carry, or a returning agent with nothing new). */
  text: string | null;
  /** true / false: the regenerated hash equals / differs from the recorded one; null: nothing recorded to compare. */
  matches: boolean | null;
  /** The newest entry the brief includes: "jump to the last message included". */
  lastIncludedSeq: number | null;
}

export function regenerateCard(t: Transcript, handoffSeq: number, agentTitles: Record<string, string> = {}): HandoffCard {
  const h = t.entry(handoffSeq);
  if (h?.kind !== 'handoff') throw new Error(`entry #${handoffSeq} is not a handoff`);
  const base = { handoffSeq, from: h.from, to: h.to, mode: h.mode };
  if (!h.briefHash || !h.budget) return { ...base, text: null, matches: null, lastIncludedSeq: null };
  const brief = buildBrief(t, {
    conversationId: t.id,
    title: h.briefTitle,
    target: { harness: h.to.harness, model: h.to.model, title: agentTitles[h.to.harness] },
    agentTitles,
    mode: h.mode === 'resume' ? 'returning' : 'fresh',
    sinceSeq: h.sinceSeq,
    uptoSeq: h.uptoSeq,
    git: h.git,
    maxChars: h.budget,
  });
  const text = brief.text;
  return { ...base, text, matches: text === null ? false : briefHash(text) === h.briefHash, lastIncludedSeq: brief.lastIncludedSeq };
}

/** The handoff entries a reader sees as dividers (not the conversation's first start). */
export function switchDividers(entries: readonly Entry[]): Entry[] {
  return entries.filter((e) => e.kind === 'handoff' && e.from !== null);
}
