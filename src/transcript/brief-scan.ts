// The one cheap pass a brief makes over its range before it writes anything: counts, the
// first and last visible entries, the last user message, the agent that ran last, its latest
// plan, the newest summary, and tools and files from the newest tool calls, read from the
// entry index (brief-index.ts) rather than by walking every entry, so a long transcript costs
// what the brief's budget costs.

import { Activity } from './brief-activity.js';
import { openItems, planItems, type PlanItem } from './brief-plan.js';
import { Hidden, indexOf, isRenderable, type EntryIndex } from './brief-index.js';
import type { SummaryEntry } from './brief-summary.js';
import type { AgentRef, Entry } from './types.js';

export interface Scan {
  activity: Activity;
  counts: { shown: number; users: number; calls: number };
  /** Oldest and newest visible renderable seq in the range. */
  firstSeq: number;
  lastSeq: number;
  lastUser: Entry | undefined;
  plan: { seq: number; open: PlanItem[] } | undefined;
  previous: AgentRef | null;
  hidden: Hidden;
  /** The newest visible summary entry in the range. */
  summary: SummaryEntry | undefined;
}

/**
 * Position of the handoff that started the agent that ran last, at or before hi: the last
 * handoff, unless nothing in its segment (up to hi) was written by an agent — a fork made
 * with --agent, or a switch whose agent has not answered yet. Then that agent has not run
 * and the one before it (the handoff's `from`) is the previous agent: walk back to the
 * handoff that started it, and on while those segments are empty too, stopping at the
 * first handoff of the conversation (no `from`). -1 when the agent that ran last wrote
 * before any handoff (entries without segments), for the caller to find by author.
 */
function lastRunHandoff(entries: readonly Entry[], index: EntryIndex, hi: number): number {
  const last = index.lastHandoff(hi);
  let h = last;
  let end = hi;
  while (h >= 0) {
    const e = entries[h]!;
    if (index.anyByAgent(h + 1, end) || e.kind !== 'handoff' || !e.from) return h;
    end = h - 1;
    h = index.lastHandoff(end);
  }
  return end < hi && !index.anyByAgent(0, end) ? last : -1;
}

/**
 * What the brief needs to know about the range lo..hi, from the index rather than a walk:
 * counts, the last user message, the previous segment's agent and latest plan (that segment
 * may start before lo), and tools and files from the newest tool calls.
 */
export function scan(entries: readonly Entry[], lo: number, hi: number): Scan {
  const index = indexOf(entries);
  const handoff = lastRunHandoff(entries, index, hi);
  const hidden = new Hidden(entries, index, Math.max(0, Math.min(lo, handoff)), hi);
  const counts = hidden.visibleCounts(index, lo, hi);
  let first = lo;
  while (first <= hi) {
    const r = hidden.rangeOf(first);
    if (r) first = r[1] + 1;
    else if (isRenderable(entries[first]!)) break;
    else first++;
  }
  let last = hi;
  while (last >= lo) {
    const r = hidden.rangeOf(last);
    if (r) last = r[0] - 1;
    else if (isRenderable(entries[last]!)) break;
    else last--;
  }
  let lastUser: Entry | undefined;
  for (const i of index.newestFirst(index.userAt, lo, hi)) {
    if (!hidden.has(i)) {
      lastUser = entries[i];
      break;
    }
  }
  // The agent that ran last is the one its handoff started, whether or not a reset hid it
  // (lastRunHandoff: a handoff to an agent that has not run yet does not count).
  let previous: AgentRef | null = null;
  const h = handoff >= 0 ? entries[handoff]! : undefined;
  if (h?.kind === 'handoff') previous = h.to;
  else {
    for (let i = hi; i >= 0 && !previous; i--) {
      const a = entries[i]!.author;
      if (a.type === 'agent') previous = { harness: a.harness, model: a.model };
    }
  }
  let plan: Scan['plan'];
  for (const i of index.newestFirst(index.planAt, handoff + 1, hi)) {
    const e = entries[i]!;
    if (hidden.has(i) || e.kind !== 'tool_call') continue;
    const items = planItems(e.input);
    if (items) {
      plan = { seq: e.seq, open: openItems(items) };
      break;
    }
  }
  let summary: SummaryEntry | undefined;
  for (const i of index.newestFirst(index.summaryAt, lo, hi)) {
    const e = entries[i]!;
    if (!hidden.has(i) && e.kind === 'summary') {
      summary = e;
      break;
    }
  }
  const activity = new Activity();
  activity.totalCalls = counts.calls;
  for (const i of index.newestFirst(index.callAt, lo, hi)) {
    if (!activity.wantsMore) break;
    const e = entries[i]!;
    if (!hidden.has(i) && e.kind === 'tool_call') activity.call(e.toolName, e.input);
  }
  return {
    activity,
    counts,
    firstSeq: first <= hi ? entries[first]!.seq : 0,
    lastSeq: last >= lo ? entries[last]!.seq : 0,
    lastUser,
    plan,
    previous,
    hidden,
    summary,
  };
}
