// The conversation part of a brief: the newest entries that fit, oldest first, with the
// last user instruction pinned above them when it is older than what fits. Room is given
// in two steps. First the window: walking back from the newest entry, each entry costs its
// floor (its body abbreviated as far as it may be); the window ends at the first entry
// whose floor no longer fits, so an entry is dropped only when it could not be kept even
// with every kept entry at its floor. Then the room left raises bodies back toward their
// full length, class by class in EXPANSION_ORDER, each class water-filled (one common cap)
// so that long tool outputs are cut before agent texts and agent texts before the user's.
// It never reads entries older than the window needs, and never exceeds its budget.

import {
  BODY_FLOOR,
  EXPANSION_ORDER,
  floorAllot,
  floorCost,
  fullCost,
  itemCost,
  type BodyClass,
  type Item,
  renderItem,
  label,
} from './brief-render.js';
import type { EntryKind } from './types.js';

/** Newest-first access to the renderable entries of the range, built lazily. */
export interface ItemSource {
  at(k: number): Item | undefined;
}

export interface TailItemPlan {
  seq: number;
  kind: EntryKind;
  cls: BodyClass;
  rawLength: number;
  floorCost: number;
  fullCost: number;
  /** Body characters granted (>= its floor allotment, <= rawLength). */
  allot: number;
  cost: number;
  abbreviated: boolean;
}

export interface TailPlan {
  /** Characters for the pinned instruction and the tail together. */
  budget: number;
  /** What the window's floor costs had to fit in. */
  windowBudget: number;
  /** Kept entries, oldest first. */
  items: TailItemPlan[];
  /** Floor cost of the newest entry that did not fit (null when none was dropped). */
  nextDroppedFloorCost: number | null;
  /** Renderable entries neither kept nor pinned. */
  omitted: { count: number; fromSeq: number; toSeq: number } | null;
  pinned: { seq: number; allot: number; abbreviated: boolean } | null;
}

export interface TailInput {
  source: ItemSource;
  /** Renderable entries in the range, and the oldest one's seq (for the omission line). */
  total: number;
  firstSeq: number;
  /** The last user message of the range, if any. */
  lastUser: Item | undefined;
  lastUserAuthor: string;
  heading: string;
  budget: number;
}

const omissionLine = (count: number, from: number, to: number, pinned?: number) =>
  `[${count} earlier ${count === 1 ? 'entry' : 'entries'} omitted: #${from}..#${to}${
    pinned !== undefined && pinned >= from && pinned <= to ? `, except #${pinned} above` : ''
  }]`;
// Room kept for the heading and an omission line with the largest numbers it can hold.
const omissionReserve = (heading: string) => heading.length + 1 + omissionLine(1e10, 1e10, 1e10, 1e10).length + 1;

interface Window {
  n: number;
  used: number;
  nextFloor: number | null;
}

function window(source: ItemSource, budget: number): Window {
  let used = 0;
  for (let k = 0; ; k++) {
    const it = source.at(k);
    if (!it) return { n: k, used, nextFloor: null };
    const fc = floorCost(it);
    if (used + fc > budget) return { n: k, used, nextFloor: fc };
    used += fc;
  }
}

/** Body allotments for `items` given `surplus` characters beyond their floors. */
function expand(items: readonly Item[], surplus: number): number[] {
  const allot = items.map(floorAllot);
  let left = surplus;
  for (const cls of EXPANSION_ORDER) {
    const floor = BODY_FLOOR[cls];
    const group: number[] = [];
    for (let i = 0; i < items.length; i++) if (items[i]!.cls === cls && items[i]!.raw.length > floor) group.push(i);
    if (!group.length) continue;
    const extra = (i: number) => items[i]!.raw.length - floor;
    const need = group.reduce((s, i) => s + extra(i), 0);
    if (need <= left) {
      for (const i of group) allot[i] = items[i]!.raw.length;
      left -= need;
      continue;
    }
    // Water-fill: the largest common cap on extra characters that fits in what is left.
    const sorted = group.map(extra).sort((a, b) => a - b);
    let acc = 0;
    let cap = 0;
    for (let j = 0; j < sorted.length; j++) {
      const remaining = sorted.length - j;
      if (acc + remaining * sorted[j]! > left) {
        cap = Math.floor((left - acc) / remaining);
        break;
      }
      acc += sorted[j]!;
    }
    for (const i of group) allot[i] = floor + Math.min(extra(i), cap);
    break;
  }
  return allot;
}

/** Below this, a pinned instruction would be a marker and no words: it is not pinned. */
const MIN_PIN_BODY = 60;

const pinHeading = (seq: number, who: string) => `Last user instruction (#${seq}, ${who}), older than what is shown below:`;

export function buildTail(input: TailInput): { text: string; plan: TailPlan } {
  const { source, budget, lastUser } = input;
  const reserve = omissionReserve(input.heading);
  let win = window(source, budget - reserve);
  let windowBudget = budget - reserve;
  let pinned: TailPlan['pinned'] = null;
  let pinText = '';
  const oldestKept = win.n ? source.at(win.n - 1)!.seq : Infinity;
  if (lastUser && lastUser.seq < oldestKept) {
    // Older than the window: pin it, with room taken from the tail.
    const heading = pinHeading(lastUser.seq, label(input.lastUserAuthor, 60));
    const fixed = heading.length + 1 + 2;
    // A third of the room, at least the user floor, but never more than half a small room.
    const share = Math.max(Math.min(BODY_FLOOR.user, Math.floor(budget / 2)), Math.floor(budget / 3));
    const allot = Math.min(lastUser.raw.length, share, budget - reserve - fixed);
    if (allot >= Math.min(MIN_PIN_BODY, lastUser.raw.length) && allot >= 0) {
      pinned = { seq: lastUser.seq, allot, abbreviated: allot < lastUser.raw.length };
      pinText = renderItem({ ...lastUser, header: heading }, allot);
      windowBudget = budget - reserve - fixed - allot;
      win = window(source, windowBudget);
    }
  }
  const items: Item[] = [];
  for (let k = 0; k < win.n; k++) items.push(source.at(k)!);
  items.reverse();
  const allots = expand(items, Math.max(0, windowBudget - win.used));
  const plans: TailItemPlan[] = items.map((it, i) => ({
    seq: it.seq,
    kind: it.kind,
    cls: it.cls,
    rawLength: it.raw.length,
    floorCost: floorCost(it),
    fullCost: fullCost(it),
    allot: allots[i]!,
    cost: itemCost(it, allots[i]!),
    abbreviated: allots[i]! < it.raw.length,
  }));
  const count = input.total - win.n - (pinned ? 1 : 0);
  const dropped = source.at(win.n);
  const omitted = count > 0 && dropped ? { count, fromSeq: input.firstSeq, toSeq: dropped.seq } : null;
  const parts: string[] = [];
  if (items.length || omitted) {
    const lines = [input.heading];
    if (omitted) lines.push(omissionLine(omitted.count, omitted.fromSeq, omitted.toSeq, pinned?.seq));
    parts.push(lines.join('\n'));
  }
  const body = items.map((it, i) => renderItem(it, allots[i]!)).join('\n\n');
  const tail = body ? `${parts.join('')}\n${body}` : parts.join('');
  const text = [pinText, tail].filter((s) => s !== '').join('\n\n');
  return {
    text,
    plan: { budget, windowBudget, items: plans, nextDroppedFloorCost: win.nextFloor, omitted, pinned },
  };
}
