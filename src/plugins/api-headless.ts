// The driver contract's part for a headless turn (`baton chat`, tests): one turn of an agent
// without a PTY (ACP, stream-json, exec --json), what it is given (HeadlessTurn, with its
// permission mode), what it answers (HeadlessResult), and the one failure baton acts on
// (ResumeFailedError: the native session could not be resumed before the prompt was sent).
// Re-exported by api.ts, the module drivers are written against; it imports nothing of api.ts
// (which imports it), so the turn states the user's environment itself.

import { BatonError, EXIT } from '../errors.js';
import type { TranscriptEvent } from '../transcript/types.js';

/**
 * How far the agent may go without asking: `default` (it asks; a headless turn refuses what
 * would need asking), `accept-edits` (file edits in its directory go ahead, the rest as
 * default), `plan` (read and plan only: nothing is changed, even if a call is approved),
 * `full-access` (everything goes ahead: baton's --yes).
 */
export type PermissionMode = 'default' | 'accept-edits' | 'plan' | 'full-access';
export const PERMISSION_MODES: readonly PermissionMode[] = ['default', 'accept-edits', 'plan', 'full-access'];

export interface HeadlessTurn {
  /** The user's environment, passed through unchanged to the CLI (as api.ts's DriverEnv). */
  env: NodeJS.ProcessEnv;
  cwd: string;
  prompt: string;
  model?: string;
  account?: string;
  /** Native session to resume. */
  resume?: string;
  /**
   * With `resume`: fork that native session into a new one and run the turn there, leaving
   * the source session as it was (claude --fork-session, codex exec fork, ACP session/fork).
   * The result's agentSession is the NEW session and `resumed` says the fork was made. A
   * driver that cannot make the fork throws ResumeFailedError before the prompt is sent;
   * it never continues the source session instead. Ignored without `resume`.
   */
  fork?: boolean;
  /** Allow tool use without asking (baton's `--yes`; also set for mode `full-access`). */
  yes: boolean;
  /**
   * The permission mode of the turn (default: `default`, or `full-access` with `yes`). Only
   * a driver with capabilities.permissionModes is given `accept-edits` or `plan`; baton refuses them
   * for any other, since a driver that ignored `plan` would let the agent write.
   */
  mode?: PermissionMode;
  /** Extra arguments (config defaults, then the user's), placed where the CLI takes options. */
  args?: string[];
  /**
   * End the turn (and everything it started) after this long: BatonError exit 4, in the
   * driver's own words. baton keeps the limit too: 1 s past it, it aborts `signal`, and 3 s
   * after that it stops waiting (src/conversation/turn-guard.ts).
   */
  timeoutMs: number;
  /**
   * Aborted on a cancel (Ctrl-C, SIGTERM, a hangup; the reason is the signal's name) or at
   * baton's own deadline (reason `timeout`). Stop within 3 s: after that baton stops
   * waiting, records the turn as failed and exits; groups started with the kit's
   * `spawnGroup` are killed as it exits, and events emitted later are not recorded.
   */
  signal?: AbortSignal;
  onEvent(event: TranscriptEvent): void;
}

/**
 * Thrown by `headless()` when the CLI cannot resume the session it was asked to, BEFORE
 * the prompt reached the model. baton then forgets that session and starts the agent fresh
 * with the full brief; any other failure is just a failed turn (a timeout is not a reason
 * to replay everything).
 */
export class ResumeFailedError extends BatonError {
  readonly agentSession: string;
  constructor(agentSession: string, detail: string) {
    super(`could not resume session ${agentSession}: ${detail}`, EXIT.agentFailed);
    this.name = 'ResumeFailedError';
    this.agentSession = agentSession;
  }
}

export interface HeadlessResult {
  /** The native session the turn ran in (with `fork`: the new one). */
  agentSession?: string;
  /**
   * Whether `resume` was honoured (with `fork`: whether the new session was forked from it).
   * A driver that finds the session gone throws ResumeFailedError instead of starting fresh;
   * false here means the CLI silently began a new session after the prompt was sent.
   */
  resumed: boolean;
  /** Why the turn ended, when the CLI says (ACP: end_turn, cancelled, max_tokens, refusal, ...). */
  stopReason?: string;
}
