// The canonical, provider-neutral shapes of a conversation: entries, authors, segments,
// and the normalized events through which harnesses feed a transcript.
// Nothing here may name a provider's wire format; a tool result carries both its call id
// and its tool name so the neutral form converts to any of them.

export type UserAuthor = { type: 'user'; name: string; device: string };
export type AgentAuthor = { type: 'agent'; harness: string; model: string };
export type SystemAuthor = { type: 'system' };
export type Author = UserAuthor | AgentAuthor | SystemAuthor;

export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  cachedInputTokens?: number;
  reasoningTokens?: number;
}

/** Which agent ran a stretch of the conversation. */
export interface AgentRef {
  harness: string;
  model: string;
}

export type EntryBody =
  | { kind: 'user_message'; text: string; switchId?: string }
  | { kind: 'agent_text'; text: string }
  | { kind: 'reasoning'; text: string }
  | { kind: 'tool_call'; toolCallId: string; toolName: string; input: unknown }
  | { kind: 'tool_result'; toolCallId: string; toolName: string; output: string; isError: boolean }
  | { kind: 'approval'; toolCallId?: string; decision: string; detail?: string }
  | {
      kind: 'handoff';
      /** null when this starts the conversation's first segment. */
      from: AgentRef | null;
      to: AgentRef;
      /** The new segment this handoff opens. */
      newSegment: string;
      account?: string;
      switchId: string;
      /** 'fresh': the target got a replay brief; 'resume': its own session plus the delta. */
      mode: 'fresh' | 'resume';
      briefChars: number;
      /** sha256 of the brief as sent, so a regenerated card can be checked against it. */
      briefHash?: string;
      /** The character budget the brief was built with. */
      budget?: number;
      /** Last seq the brief covered (the handed-over context ends here). */
      uptoSeq: number;
    }
  | { kind: 'turn_end'; usage?: Usage; costUsd?: number }
  | { kind: 'notice'; text: string }
  | { kind: 'error'; text: string; code?: string }
  /** The native session id a harness reported for the current segment. */
  | { kind: 'agent_session'; harness: string; agentSession: string }
  /**
   * A native cursor move: `harness`'s own session `agentSession` has seen everything up
   * to `deliveredSeq`. agentSession null invalidates the harness's session (failed resume).
   */
  | { kind: 'cursor'; harness: string; agentSession: string | null; deliveredSeq: number }
  /** Hides entries after `toSeq` (up to this entry). `undoes` names an earlier reset's seq. */
  | { kind: 'reset'; toSeq: number; restored?: boolean; undoes?: number }
  /** An entry of a kind this version does not know, kept verbatim and shown as unknown. */
  | { kind: 'unknown'; originalKind: string; raw: Record<string, unknown> };

export type EntryKind = EntryBody['kind'];

export type Entry = EntryBody & {
  seq: number;
  /** ISO-8601 time the entry was committed. */
  at: string;
  author: Author;
  /** Id of the segment the entry belongs to. */
  segment: string;
  /** Commit holding the worktree as it was just before this user message. */
  checkpoint?: string;
};

export interface Segment {
  id: string;
  harness: string;
  model: string;
  account?: string;
  agentSession?: string;
  firstSeq: number;
}

/** A harness's own session, and how much of the canonical transcript it has seen. */
export interface NativeCursor {
  harness: string;
  agentSession: string;
  deliveredSeq: number;
}

/**
 * Normalized harness events: the only way agent activity enters a transcript.
 * Streamed text arrives as many `agent_text` / `reasoning` chunks; the transcript
 * coalesces them into one entry per message.
 */
export type TranscriptEvent =
  | { type: 'user_text'; text: string; author?: UserAuthor; checkpoint?: string; switchId?: string }
  | { type: 'agent_text'; text: string; messageId?: string }
  | { type: 'reasoning'; text: string; messageId?: string }
  | { type: 'tool_call'; toolCallId: string; toolName: string; input: unknown }
  | { type: 'tool_result'; toolCallId?: string; toolName?: string; output: string; isError?: boolean }
  | { type: 'approval'; toolCallId?: string; decision: string; detail?: string }
  | { type: 'turn_end'; usage?: Usage; costUsd?: number }
  | { type: 'notice'; text: string }
  | { type: 'error'; text: string; code?: string }
  | { type: 'session'; agentSession: string };

export const KNOWN_KINDS: ReadonlySet<string> = new Set<EntryKind>([
  'user_message',
  'agent_text',
  'reasoning',
  'tool_call',
  'tool_result',
  'approval',
  'handoff',
  'turn_end',
  'notice',
  'error',
  'agent_session',
  'cursor',
  'reset',
]);
