// The conversation part of a brief: the newest entries that fit, oldest first, with the
// last user instruction pinned above them when it is older than what fits. Room is given
// in two steps. First the window: walking back from the newest entry, each entry costs its
// floor (its body abbreviated as far as it may be; floors shrink with a small budget, see
// bodyFloors, but the newest entry keeps its class's full floor or a third of the room,
// whichever is less). The first entry whose floor no longer fits is still kept, cut to
// what is left, when that shows at least MIN_BODY of it; the window ends there. So an
// entry is dropped only when it could not be kept even shortened with every kept entry at
// its floor, the newest entry is always kept when its header and MIN_BODY fit, and the
// room is used. Then the room left (when no entry had to be cut below its floor) raises
// bodies back toward their full length, class by class in EXPANSION_ORDER, each class
// water-filled (one common cap) so that long tool outputs are cut before agent texts and
// agent texts before the user's. It never reads entries older than the window needs, and
// never exceeds its budget.

import {
  BODY_FLOOR,
  bodyFloors,
  EXPANSION_ORDER,
  fullCost,
  itemCost,
  minAllot,
  minCost,
  type BodyClass,
  type Floors,
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
  /** Body characters at its floor (min(rawLength, the class's floor at this budget)), and the cost then. */
  floorAllot: number;
  floorCost: number;
  fullCost: number;
  /** Body characters granted: <= rawLength, >= floorAllot but for the oldest kept entry (>= MIN_BODY). */
  allot: number;
  cost: number;
  abbreviated: boolean;
}

export interface TailPlan {
  /** Characters for the pinned instruction and the tail together. */
  budget: number;
  /** What the window's floor costs had to fit in. */
  windowBudget: number;
  /** The body floors at this budget, by class (the newest entry's may be higher: see buildTail). */
  floors: Floors;
  /** Kept entries, oldest first. */
  items: TailItemPlan[];
  /** Floor cost, and cost cut to MIN_BODY, of the newest entry that was dropped (null when none was). */
  nextDroppedFloorCost: number | null;
  nextDroppedMinCost: number | null;
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

interface Window {
  /** Entries kept, newest first: source.at(0..n-1). */
  n: number;
  /** Their cost, with every one at its floor but a cut one. */
  used: number;
  /** Body characters of the oldest kept entry when it was cut below its floor to fit. */
  cut: number | null;
  /** The newest entry not kept, if any. */
  next: Item | undefined;
}

/** Body characters an entry keeps at most abbreviation, given its place k (0: the newest). */
type FloorOf = (it: Item, k: number) => number;

function window(source: ItemSource, budget: number, floorOf: FloorOf): Window {
  let used = 0;
  for (let k = 0; ; k++) {
    const it = source.at(k);
    if (!it) return { n: k, used, cut: null, next: undefined };
    const fc = itemCost(it, floorOf(it, k));
    if (used + fc <= budget) {
      used += fc;
      continue;
    }
    // Its floor does not fit: keep it cut to what is left, when that shows some of it.
    const body = budget - used - itemCost(it, 0) - 1;
    if (it.raw.length > 0 && body >= minAllot(it)) return { n: k + 1, used: used + itemCost(it, body), cut: body, next: source.at(k + 1) };
    return { n: k, used, cut: null, next: it };
  }
}

/** Body allotments for `items` at their `floors` given `surplus` characters beyond them. */
function expand(items: readonly Item[], floors: readonly number[], surplus: number): number[] {
  const allot = [...floors];
  let left = surplus;
  for (const cls of EXPANSION_ORDER) {
    const group: number[] = [];
    for (let i = 0; i < items.length; i++) if (items[i]!.cls === cls && items[i]!.raw.length > floors[i]!) group.push(i);
    if (!group.length) continue;
    const extra = (i: number) => items[i]!.raw.length - floors[i]!;
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
    for (const i of group) allot[i] = floors[i]! + Math.min(extra(i), cap);
    break;
  }
  return allot;
}

/** Below this, a pinned instruction would be a marker and no words: it is not pinned. */
const MIN_PIN_BODY = 60;

const pinHeading = (seq: number, who: string) => `Last user instruction (#${seq}, ${who}), older than what is shown below:`;

export function buildTail(input: TailInput): { text: string; plan: TailPlan } {
  const { source, budget, lastUser } = input;
  const floors = bodyFloors(budget);
  // The newest entry keeps its class's full floor, or a third of the room when that is less.
  const newestShare = Math.floor(budget / 3);
  const floorOf: FloorOf = (it, k) => Math.min(it.raw.length, k === 0 ? Math.min(BODY_FLOOR[it.cls], Math.max(floors[it.cls], newestShare)) : floors[it.cls]);
  const newest = source.at(0);
  // Everything fits without an omission line: no room kept for one.
  let windowBudget = budget - input.heading.length - 1;
  let win = window(source, windowBudget, floorOf);
  let pinned: TailPlan['pinned'] = null;
  let pinText = '';
  if (win.n < input.total && newest) {
    // Room for the heading and the omission line with the largest numbers it can hold here.
    const top = newest.seq;
    windowBudget = budget - input.heading.length - 1 - omissionLine(input.total, input.firstSeq, top, lastUser ? top : undefined).length - 1;
    win = window(source, windowBudget, floorOf);
    const oldestKept = win.n ? source.at(win.n - 1)!.seq : Infinity;
    if (lastUser && win.n && lastUser.seq < oldestKept) {
      // Older than the window: pin it, with room taken from the tail, never the newest entry's.
      const heading = pinHeading(lastUser.seq, label(input.lastUserAuthor, 60));
      const fixed = heading.length + 1 + 2;
      const share = Math.floor(budget / 3);
      const allot = Math.min(lastUser.raw.length, share, windowBudget - fixed - minCost(newest));
      if (allot >= Math.min(MIN_PIN_BODY, lastUser.raw.length) && allot >= 0) {
        pinned = { seq: lastUser.seq, allot, abbreviated: allot < lastUser.raw.length };
        pinText = renderItem({ ...lastUser, header: heading }, allot);
        windowBudget -= fixed + allot;
        win = window(source, windowBudget, floorOf);
      }
    }
  }
  const items: Item[] = [];
  const itemFloors: number[] = [];
  for (let k = win.n - 1; k >= 0; k--) {
    items.push(source.at(k)!);
    itemFloors.push(floorOf(source.at(k)!, k));
  }
  // A cut entry took what was left; else the room beyond the floors raises bodies back.
  const allots = win.cut !== null ? [...itemFloors] : expand(items, itemFloors, Math.max(0, windowBudget - win.used));
  if (win.cut !== null) allots[0] = win.cut;
  const plans: TailItemPlan[] = items.map((it, i) => ({
    seq: it.seq,
    kind: it.kind,
    cls: it.cls,
    rawLength: it.raw.length,
    floorAllot: itemFloors[i]!,
    floorCost: itemCost(it, itemFloors[i]!),
    fullCost: fullCost(it),
    allot: allots[i]!,
    cost: itemCost(it, allots[i]!),
    abbreviated: allots[i]! < it.raw.length,
  }));
  const count = input.total - win.n - (pinned ? 1 : 0);
  const dropped = win.next;
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
    plan: {
      budget,
      windowBudget,
      floors,
      items: plans,
      nextDroppedFloorCost: dropped ? itemCost(dropped, floorOf(dropped, win.n)) : null,
      nextDroppedMinCost: dropped ? minCost(dropped) : null,
      omitted,
      pinned,
    },
  };
}
