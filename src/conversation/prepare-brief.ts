// Builds the brief a target agent would receive now, from a conversation's transcript and
// metadata plus the working tree's git facts: the single place that decides between a
// fresh replay and a returning agent's delta, so `baton brief`, `baton chat`, the TUI's
// switch and the handed-over-context card all produce the same text.

import type { GitFacts, GitFactsProvider } from '../transcript/git-facts-types.js';
import { buildBrief, type Brief } from '../transcript/brief.js';
import type { Transcript } from '../transcript/transcript.js';
import type { Entry, NativeCursor, Segment } from '../transcript/types.js';

/** Has anything worth carrying been said yet (a user message or an agent's text)? */
export function hasContext(entries: readonly Entry[]): boolean {
  return entries.some((e) => e.kind === 'user_message' || e.kind === 'agent_text');
}

/** The conversation's most recent segment run by `harness` (its model, its native session). */
export function lastSegmentOf(segments: readonly Segment[], harness: string): Segment | undefined {
  for (let i = segments.length - 1; i >= 0; i--) if (segments[i]!.harness === harness) return segments[i];
  return undefined;
}

export interface BriefTarget {
  harness: string;
  model: string;
  title?: string;
  /** The driver can resume its own native session (capabilities.resume). */
  canResume: boolean;
  /**
   * The driver can fork its own native session (capabilities.fork). A cursor marked `fork`
   * (a native fork's, see fork.ts) is only used when it can: its session is another
   * conversation's, so continuing it instead would write into that conversation's history.
   */
  canFork?: boolean;
  /**
   * The baton account the target runs under (absent: the CLI's own configuration). A native
   * session lives in one account's config, so only a cursor of the same account resumes.
   */
  account?: string;
}

export interface PrepareBriefInput {
  transcript: Transcript;
  title?: string;
  cwd: string;
  baseBranch?: string;
  target: BriefTarget;
  maxChars: number;
  /** Last seq to cover (forks, cards); default the newest entry. */
  uptoSeq?: number;
  git?: GitFactsProvider;
  agentTitles?: Record<string, string>;
  previousAgentLog?: string;
}

export interface PreparedBrief {
  brief: Brief;
  /** The git facts it was built with (recorded in the handoff so the card can be regenerated). */
  git?: GitFacts;
  /** The native session to resume, when the target is a returning agent. */
  resume?: NativeCursor;
}

/**
 * A returning agent is one whose native session saw this conversation before (a cursor)
 * and whose driver can resume it, with no reset since: a reset hides entries the native
 * session still holds, so after one only a replay is faithful. A cursor marked `fork` also
 * needs a driver that can fork; the caller must then fork that session, never continue it.
 * The cursor must be of the target's account: another login's config cannot open it.
 */
export function resumableCursor(transcript: Transcript, target: BriefTarget, uptoSeq?: number): NativeCursor | undefined {
  if (!target.canResume) return undefined;
  const cursor = transcript.cursor(target.harness);
  if (!cursor) return undefined;
  if (cursor.fork && !target.canFork) return undefined;
  if (cursor.account !== target.account) return undefined;
  if (uptoSeq !== undefined && uptoSeq < cursor.deliveredSeq) return undefined;
  for (const e of transcript.since(cursor.deliveredSeq)) if (e.kind === 'reset') return undefined;
  return cursor;
}

export async function prepareBrief(input: PrepareBriefInput): Promise<PreparedBrief> {
  const { transcript, target } = input;
  const resume = resumableCursor(transcript, target, input.uptoSeq);
  const git = input.git ? await input.git.facts(input.cwd, input.baseBranch) : undefined;
  const brief = buildBrief(transcript, {
    conversationId: transcript.id,
    title: input.title,
    target: { harness: target.harness, model: target.model, title: target.title },
    agentTitles: input.agentTitles,
    mode: resume ? 'returning' : 'fresh',
    sinceSeq: resume?.deliveredSeq,
    uptoSeq: input.uptoSeq,
    git,
    previousAgentLog: input.previousAgentLog,
    maxChars: input.maxChars,
  });
  const out: PreparedBrief = { brief };
  if (git) out.git = git;
  if (resume) out.resume = resume;
  return out;
}
