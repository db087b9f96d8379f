// Decides whether a fork can be native — its first turn forks the agent's own session
// (claude --resume --fork-session, codex exec fork, ACP session/fork) instead of replaying
// the conversation with a brief — and says why not when it cannot. Native needs all of:
//   - the fork keeps the agent that ran the fork point (no --agent to another one);
//   - the fork point is the end of the source: nothing a model saw (a message, a reply, a
//     tool call, a handoff) is shown after it, so the agent's session holds exactly the
//     history up to there;
//   - the source's cursor for that agent covers the fork point, and no reset happened since
//     that session began (a reset hides entries the session still holds);
//   - the driver can fork (capabilities.fork, and canFork where the agent decides), and for a
//     fork into a worktree, can carry the session there (carrySession).
// It only reads the source conversation and asks the driver; it writes nothing.

import type { HarnessDriver } from '../plugins/api.js';
import type { Registry } from '../plugins/registry.js';
import type { Transcript } from '../transcript/transcript.js';
import type { AgentRef, Entry, Segment } from '../transcript/types.js';

/** What the fork's first turn forks: `harness`'s session `agentSession`, which holds the history up to the fork point. */
export interface NativeSource {
  harness: string;
  agentSession: string;
  account?: string;
}

export type NativePlan = { native: NativeSource; driver: HarnessDriver } | { native?: undefined; reason: string };

/** Entries a model saw or produced: any of these after the fork point means the source went on. */
const SEEN: ReadonlySet<Entry['kind']> = new Set<Entry['kind']>(['user_message', 'agent_text', 'reasoning', 'tool_call', 'tool_result', 'approval', 'handoff']);

export interface NativeQuestion {
  source: Transcript;
  atSeq: number;
  /** The segment that ran the fork point (the fork's current segment). */
  current: Segment | undefined;
  /** Set when the fork continues with another agent, or under another account. */
  switchTo: (AgentRef & { account?: string }) | undefined;
  registry: Registry | undefined;
  /** The fork goes into a git worktree (another directory). */
  worktree: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** Whether the fork can be native, and from which session; or why it is a replay. */
export async function planNativeFork(q: NativeQuestion): Promise<NativePlan> {
  const { source: t, atSeq, current } = q;
  if (q.switchTo?.harness === current?.harness) {
    // The fork point's session lives in the other account's config, which this one cannot open.
    return { reason: `it continues under another account (${q.switchTo?.account ?? 'default'}) than the one that ran #${atSeq}` };
  }
  if (q.switchTo) return { reason: `it continues with another agent (${q.switchTo.harness}) than the one that ran #${atSeq}` };
  if (!current) return { reason: `no agent ran the conversation up to #${atSeq}` };
  if (!q.registry) return { reason: 'no agent drivers were loaded to ask' };
  const visible = t.visible();
  const after = visible.find((e) => e.seq > atSeq && SEEN.has(e.kind));
  if (after) {
    return { reason: `#${atSeq} is not where the conversation ends (#${after.seq} came after it), and ${current.harness}'s own session holds what came after` };
  }
  // The cursor is confirmed after the turn's end, so it covers the last thing said, not
  // the bookkeeping entries (turn end, the cursor itself) that may follow it.
  const lastSaid = visible.reduce((seq, e) => (e.seq <= atSeq && SEEN.has(e.kind) ? e.seq : seq), 0);
  const cursor = t.cursor(current.harness);
  if (!cursor || cursor.deliveredSeq < lastSaid) return { reason: `${current.harness}'s own session is not known to hold the conversation up to #${atSeq}` };
  const began = t.entries.find((e) => (e.kind === 'agent_session' || e.kind === 'cursor') && e.agentSession === cursor.agentSession);
  if (t.entries.some((e) => e.kind === 'reset' && e.seq > (began?.seq ?? 0))) {
    return { reason: `a reset happened since ${current.harness}'s session ${cursor.agentSession} began, so it holds entries the conversation no longer shows` };
  }
  let driver: HarnessDriver;
  try {
    driver = q.registry.get(current.harness);
  } catch {
    return { reason: `${current.harness} is not a known agent here` };
  }
  if (!driver.capabilities.fork) return { reason: `${driver.title} cannot fork its own session` };
  if (q.worktree && !driver.carrySession) {
    return { reason: `${driver.title} cannot carry its own session into the worktree; the replay starts it there with only the worktree in its context` };
  }
  if (driver.canFork) {
    const can = await driver.canFork({ env: q.env, cwd: q.cwd, ...(current.account ? { account: current.account } : {}) }).catch(() => false);
    if (!can) return { reason: `${driver.title} does not offer to fork a session` };
  }
  const native: NativeSource = { harness: current.harness, agentSession: cursor.agentSession };
  if (current.account) native.account = current.account;
  return { native, driver };
}
