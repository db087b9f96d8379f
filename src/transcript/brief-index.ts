// An index of an entries array that lets a brief learn what it needs about a whole slice
// (how many entries, user messages and tool calls; which are hidden by resets; the last user
// message; the last handoff and the plan calls after it) without walking the slice: running
// counts and the positions of the few kinds that matter. It is built on first use and
// extended as the array grows, since transcripts are append-only; it is kept in a WeakMap
// keyed by the array, so it goes away with the transcript. It must never change what a
// brief says, only how fast it is found: an array that was rewritten rather than appended to
// (its last indexed entry is no longer the same object) is indexed again from scratch.

import { isPlanTool } from './brief-plan.js';
import type { Entry } from './types.js';

/** Index of the last entry with seq <= `seq` (entries are in seq order), or -1. */
export function lastIndexAtOrBelow(entries: readonly Entry[], seq: number): number {
  let lo = 0;
  let hi = entries.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (entries[mid]!.seq <= seq) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Number of values in an ascending list that are <= x. */
function countAtOrBelow(list: readonly number[], x: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Entries a reader of the conversation sees; bookkeeping (turn ends, cursors, sessions) is not. */
export function isRenderable(e: Entry): boolean {
  switch (e.kind) {
    case 'turn_end':
    case 'cursor':
    case 'agent_session':
    case 'unknown':
    // A summary is not replayed as an entry: the brief shows it in a place of its own.
    case 'summary':
      return false;
    default:
      return true;
  }
}

export class EntryIndex {
  private n = 0;
  private last: Entry | undefined;
  /** Prefix counts: [i] = how many of entries[0..i) are renderable / user messages / tool calls / by an agent. */
  private shown = new Int32Array(1024);
  private users = new Int32Array(1024);
  private calls = new Int32Array(1024);
  private byAgent = new Int32Array(1024);
  /** Ascending positions of some kinds. */
  readonly userAt: number[] = [];
  readonly callAt: number[] = [];
  readonly handoffAt: number[] = [];
  readonly resetAt: number[] = [];
  readonly summaryAt: number[] = [];
  /** Tool calls of a plan/todo tool. */
  readonly planAt: number[] = [];
  private readonly planNames = new Map<string, boolean>();

  /** Whether this index still describes a prefix of `entries`. */
  fits(entries: readonly Entry[]): boolean {
    return entries.length >= this.n && (this.n === 0 || entries[this.n - 1] === this.last);
  }

  extend(entries: readonly Entry[]): void {
    const len = entries.length;
    if (len + 1 > this.shown.length) {
      const size = Math.max(len + 1, this.shown.length * 2);
      const grow = (a: Int32Array) => {
        const b = new Int32Array(size);
        b.set(a);
        return b;
      };
      this.shown = grow(this.shown);
      this.users = grow(this.users);
      this.calls = grow(this.calls);
      this.byAgent = grow(this.byAgent);
    }
    let shown = this.shown[this.n]!;
    let users = this.users[this.n]!;
    let calls = this.calls[this.n]!;
    let byAgent = this.byAgent[this.n]!;
    for (let i = this.n; i < len; i++) {
      const e = entries[i]!;
      switch (e.kind) {
        case 'user_message':
          users++;
          this.userAt.push(i);
          break;
        case 'tool_call': {
          calls++;
          this.callAt.push(i);
          let plan = this.planNames.get(e.toolName);
          if (plan === undefined) this.planNames.set(e.toolName, (plan = isPlanTool(e.toolName)));
          if (plan) this.planAt.push(i);
          break;
        }
        case 'handoff':
          this.handoffAt.push(i);
          break;
        case 'reset':
          this.resetAt.push(i);
          break;
        case 'summary':
          this.summaryAt.push(i);
          break;
      }
      if (isRenderable(e)) shown++;
      if (e.author.type === 'agent') byAgent++;
      this.shown[i + 1] = shown;
      this.users[i + 1] = users;
      this.calls[i + 1] = calls;
      this.byAgent[i + 1] = byAgent;
    }
    this.n = len;
    this.last = len ? entries[len - 1] : undefined;
  }

  /** Renderable entries, user messages and tool calls in positions a..b (inclusive). */
  counts(a: number, b: number): { shown: number; users: number; calls: number } {
    if (b < a) return { shown: 0, users: 0, calls: 0 };
    return {
      shown: this.shown[b + 1]! - this.shown[a]!,
      users: this.users[b + 1]! - this.users[a]!,
      calls: this.calls[b + 1]! - this.calls[a]!,
    };
  }

  /** Positions from `list` within lo..hi, newest first. */
  *newestFirst(list: readonly number[], lo: number, hi: number): Generator<number> {
    for (let k = countAtOrBelow(list, hi) - 1; k >= 0 && list[k]! >= lo; k--) yield list[k]!;
  }

  /** Whether any entry in positions a..b (inclusive) was written by an agent. */
  anyByAgent(a: number, b: number): boolean {
    return b >= a && this.byAgent[b + 1]! > this.byAgent[a]!;
  }

  /** Position of the last handoff at or before hi, or -1. */
  lastHandoff(hi: number): number {
    const k = countAtOrBelow(this.handoffAt, hi);
    return k ? this.handoffAt[k - 1]! : -1;
  }
}

const indexes = new WeakMap<readonly Entry[], EntryIndex>();

/** The index of `entries`, brought up to date. */
export function indexOf(entries: readonly Entry[]): EntryIndex {
  let index = indexes.get(entries);
  if (!index?.fits(entries)) {
    index = new EntryIndex();
    indexes.set(entries, index);
  }
  index.extend(entries);
  return index;
}

/**
 * Positions hidden by resets, for entries in lo..hi of a slice ending at hi (resets after
 * hi do not count: the slice is what the brief describes). As Transcript.visible(): a reset
 * hides the entries strictly between its toSeq and itself, unless a later entry undoes it;
 * a hidden reset still takes effect. Ranges are inclusive, disjoint, newest first.
 */
export class Hidden {
  readonly ranges: [number, number][] = [];

  constructor(entries: readonly Entry[], index: EntryIndex, lo: number, hi: number) {
    const undone = new Set<number>();
    let lowestTo = Infinity;
    let upper = hi;
    const close = (floor: number) => {
      if (lowestTo === Infinity || upper < floor) return;
      const start = Math.max(floor, lastIndexAtOrBelow(entries, lowestTo) + 1);
      if (start <= upper) this.ranges.push([start, upper]);
    };
    for (const r of index.newestFirst(index.resetAt, lo, hi)) {
      close(r + 1);
      const e = entries[r]!;
      if (e.kind !== 'reset') continue;
      if (e.seq > lowestTo) this.ranges.push([r, r]);
      if (e.undoes !== undefined) undone.add(e.undoes);
      else if (!undone.has(e.seq) && e.toSeq < lowestTo) lowestTo = e.toSeq;
      upper = r - 1;
    }
    close(lo);
  }

  has(i: number): boolean {
    for (const [a, b] of this.ranges) {
      if (i > b) return false;
      if (i >= a) return true;
    }
    return false;
  }

  /** The hidden range containing i, if any. */
  rangeOf(i: number): [number, number] | undefined {
    for (const range of this.ranges) {
      if (i > range[1]) return undefined;
      if (i >= range[0]) return range;
    }
    return undefined;
  }

  /** Counts over lo..hi minus the hidden positions. */
  visibleCounts(index: EntryIndex, lo: number, hi: number): { shown: number; users: number; calls: number } {
    const c = index.counts(lo, hi);
    for (const [a, b] of this.ranges) {
      const h = index.counts(Math.max(a, lo), Math.min(b, hi));
      c.shown -= h.shown;
      c.users -= h.users;
      c.calls -= h.calls;
    }
    return c;
  }
}
