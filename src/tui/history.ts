// Scrollback that has left the emulator, kept compactly. xterm stores every line at full
// width, 12 bytes a cell, blank cells included (8 tabs x 10k lines of a 100-column pane
// are ~100 MB); here a line ends up as its text in runs of one blessed attribute, trailing
// blanks dropped (history-line.ts: a line's forms, how one is compacted and read). A line
// arrives as xterm's own line object (taken, not copied: see ScrollbackTap) and is compacted
// once more than a few hundred wait or the pane goes quiet; all but the newest 512 are then
// sealed in deflated blocks of 256 (history-blocks.ts). This file is where lines are kept and
// when they change form; it never draws.

import { cellAttr, DEFAULT_ATTR } from './cells.js';
import type { IBufferCell } from './xterm.js';
import { rawLineView, type HeldLine } from './xterm-lines.js';
import { heldLineRuns } from './xterm-runs.js';
import { readBody, scan, StagingRing } from './xterm-staging.js';
import { PlainSpan } from './plain-span.js';
import { BLOCK_LINES, SealedBlock } from './history-blocks.js';
import { archiveLine, isHeld, isRaw, type ArchivedLine, type HistoryLine } from './history-line.js';

/** What a slot of the ring holds (see History.ring). */
type Slot = HistoryLine | number | PlainSpan | SealedBlock;

/** A compacted line (what a block may hold), not a reference to where one waits. */
const isArchived = (l: Slot | undefined): l is ArchivedLine =>
  typeof l === 'string' || (typeof l === 'object' && !(l instanceof PlainSpan) && !(l instanceof SealedBlock) && !('kind' in l));

/**
 * The newest lines of the history stay strings of their own, never sealed (scroll mode reads
 * them first, and a block is sealed only once whole); older ones go into SealedBlocks.
 */
const OPEN_LINES = 512;

/**
 * A bounded ring of history lines, oldest first; `dropped` counts lines that fell off its
 * start (so a line's number, dropped + index, never changes).
 */
export class History {
  /**
   * A number is the offset of a line staged during a flood (see xterm-staging.ts); a span, a
   * line of a flood never parsed (plain-span.ts; the line's number says which of the span's);
   * a block, a compacted line sealed in it (history-blocks.ts), read from it, never put back.
   */
  private ring: (Slot | undefined)[] = [];
  private head = 0;
  private count = 0;
  /** Lines at the ring's end not compacted yet. */
  private uncompacted = 0;
  dropped = 0;
  /** Where lines wait during a flood, while there are any. */
  private staging: StagingRing | undefined;
  private stagedLines = 0;
  /**
   * Lines pushed are counted as fallen off, not kept: set by flood-lines.ts while the
   * emulator lets go of lines that the plain lines it appends next push out anyway (as many
   * as the history holds, or more). Their numbers come out the same.
   */
  discarding = false;
  /** Spans with lines in the ring maybe, oldest first; and how many of the ring's lines are in one. */
  private spans: PlainSpan[] = [];
  private spanLines = 0;
  /** Number of the line after the last one sealed in a block. */
  private sealedEnd = 0;

  /**
   * `release` gets held lines back once they are compacted or evicted. At most `maxPending`
   * lines wait uncompacted (full width, 12 bytes a cell); beyond that the oldest of them is
   * compacted at once, which bounds memory during a flood.
   */
  constructor(
    public cap: number,
    private readonly release: (l: HeldLine) => void = () => {},
    public maxPending = Infinity,
    private readonly cell?: IBufferCell,
  ) {}

  get length(): number {
    return this.count;
  }

  /** Lines not compacted yet. */
  get pending(): number {
    return this.uncompacted;
  }

  /** Lines staged or kept unparsed during a flood, compacted by compact() once it has the pending ones done. */
  get staged(): number {
    return this.stagedLines + this.spanLines;
  }

  private slot(i: number): number {
    return (this.head + i) % this.cap;
  }

  push(l: HistoryLine): void {
    if (this.cap <= 0 || this.discarding) {
      if (isHeld(l)) this.release(l);
      this.dropped++;
      return;
    }
    this.add(l);
    if (typeof l === 'object' && 'kind' in l) this.uncompacted++;
    if (this.cell && this.uncompacted > this.maxPending) this.compact(this.uncompacted - this.maxPending, this.cell, true);
  }

  /**
   * Lines of plain text a flood scrolled past unseen, never parsed (flood-lines.ts): line i is
   * data[starts[i], starts[i + 1] - 2) (each was ended by CR LF). They are kept as they are, in
   * a PlainSpan (nothing is copied until a line is read or settled); those that would only
   * fall off the start again (beyond `cap`) are counted and never read. Lines waiting
   * uncompacted are staged first, so the pending ones stay the newest.
   */
  appendPlain(data: string, starts: Int32Array, from: number, to: number, cell: IBufferCell): void {
    const n = to - from;
    if (this.cap <= 0) {
      this.dropped += n;
      return;
    }
    if (n >= this.cap) {
      this.clear();
      this.dropped += n - this.cap;
      from = to - this.cap;
    } else if (this.uncompacted > 0) this.compact(this.uncompacted, cell, true);
    // Its first line's number: the line a push now would get.
    const span = new PlainSpan(data, starts.slice(from, to + 1), this.dropped + this.count);
    this.spans.push(span);
    let k = to - from;
    this.spanLines += k;
    // As add() does for each line (nothing waits uncompacted now), in one loop: a flood puts
    // most of its lines here, and the line each one lets go is mostly of the span before.
    const ring = this.ring;
    for (; k > 0 && this.count < this.cap; k--) ring[this.slot(this.count++)] = span;
    this.dropped += k;
    let head = this.head;
    let last: PlainSpan | undefined;
    for (; k > 0; k--) {
      const gone = ring[head]!;
      if (gone === last) this.spanLines--;
      else if (gone instanceof PlainSpan) {
        last = gone;
        this.spanLines--;
      } else if (typeof gone === 'number') this.stagedLines--;
      else if (isHeld(gone)) this.release(gone);
      ring[head] = span;
      if (++head === this.cap) head = 0;
    }
    this.head = head;
    // Spans whose every line has left the ring are let go.
    let gone = 0;
    while (gone < this.spans.length - 1 && this.spans[gone]!.first + this.spans[gone]!.lines <= this.dropped) gone++;
    if (gone > 0) this.spans.splice(0, gone);
  }

  /**
   * Keeps at most `n` lines from now on: the oldest beyond it go now, as add() lets them go.
   * (The pane's emulator holds more or fewer lines above its screen at times: the two together
   * keep what the scrollback setting says, see PaneScreen.)
   */
  setCap(n: number): void {
    if (n === this.cap || this.cap <= 0) return;
    for (; this.count > n; this.count--) this.replaceOldest(undefined);
    // The ring in order from its start: a slot is (head + i) % cap.
    const ring: (Slot | undefined)[] = new Array(this.count);
    for (let i = 0; i < this.count; i++) ring[i] = this.ring[this.slot(i)];
    this.ring = ring;
    this.head = 0;
    this.cap = n;
    let gone = 0;
    while (gone < this.spans.length && this.spans[gone]!.first + this.spans[gone]!.lines <= this.dropped) gone++;
    if (gone > 0) this.spans.splice(0, gone);
  }

  /** The oldest line goes (counted as dropped) and `l` takes its slot, which is the newest's in a full ring. */
  private replaceOldest(l: Slot | undefined): void {
    const gone = this.ring[this.head]!;
    if (typeof gone === 'number') this.stagedLines--;
    else if (gone instanceof PlainSpan) this.spanLines--;
    else if (isHeld(gone)) this.release(gone);
    if (this.uncompacted === this.count) this.uncompacted--;
    this.ring[this.head] = l;
    this.head = (this.head + 1) % this.cap;
    this.dropped++;
  }

  /** Puts a line (or a staged record's offset) at the end, letting the oldest go when full. */
  private add(l: Slot): void {
    if (this.count === this.cap) this.replaceOldest(l);
    else {
      this.ring[this.slot(this.count)] = l;
      this.count++;
    }
  }

  /**
   * Compact up to `max` lines, oldest first: pending ones, then (when not `flooding`) staged
   * ones; returns how many. A flood stages what it can instead (see xterm-staging.ts): most
   * of its lines fall off the end before anyone could look at them.
   */
  compact(max: number, cell: IBufferCell, flooding = false): number {
    const n = Math.min(max, this.uncompacted);
    for (let k = 0; k < n; k++) {
      const s = this.slot(this.count - this.uncompacted);
      const l = this.ring[s]!;
      if (isHeld(l)) {
        const at = flooding ? this.stage(l, cell) : undefined;
        this.ring[s] = at ?? heldLineRuns(l, cell, cellAttr, DEFAULT_ATTR);
        this.release(l);
      } else if (isRaw(l)) this.ring[s] = archiveLine(rawLineView(l), cell);
      this.uncompacted--;
    }
    if (flooding) return n;
    let settled = 0;
    while (n + settled < max && this.staging?.dropOldest()) settled++;
    if (this.staging && this.staging.records === 0) this.staging = undefined;
    if (n + settled < max) settled += this.settleSpans(max - n - settled);
    if (n + settled < max) settled += this.sealBlock();
    return n + settled;
  }

  /** Lines kept sealed in blocks. */
  get sealed(): number {
    return Math.max(0, this.sealedEnd - this.dropped);
  }

  /** Whether a block could be sealed now (compact() seals one a call, once nothing waits). */
  get sealable(): boolean {
    return this.sealFrom() !== undefined;
  }

  /** Number of the first line of the next block to seal, when its BLOCK_LINES lines are all compacted and old enough. */
  private sealFrom(): number | undefined {
    const from = Math.max(this.sealedEnd, this.dropped);
    if (from + BLOCK_LINES > this.dropped + this.count - OPEN_LINES) return undefined;
    for (let n = from; n < from + BLOCK_LINES; n++) if (!isArchived(this.ring[this.slot(n - this.dropped)])) return undefined;
    return from;
  }

  /** Seals the next block of old lines; returns how many lines went into it (0: none ready). */
  private sealBlock(): number {
    const from = this.sealFrom();
    if (from === undefined) return 0;
    const lines: ArchivedLine[] = [];
    for (let n = from; n < from + BLOCK_LINES; n++) lines.push(this.ring[this.slot(n - this.dropped)] as ArchivedLine);
    const block = SealedBlock.seal(from, lines);
    for (let n = from; n < from + BLOCK_LINES; n++) this.ring[this.slot(n - this.dropped)] = block;
    this.sealedEnd = from + BLOCK_LINES;
    return BLOCK_LINES;
  }

  /** Up to `max` lines still in a span get their own strings, oldest first; returns how many. */
  private settleSpans(max: number): number {
    let done = 0;
    while (done < max && this.spans.length > 0) {
      const span = this.spans[0]!;
      const end = span.first + span.lines;
      for (let n = Math.max(span.first + span.settled, this.dropped); n < end && done < max; n++) {
        span.settled = n + 1 - span.first;
        const s = this.slot(n - this.dropped);
        if (this.ring[s] !== span) continue;
        this.ring[s] = span.text(n);
        this.spanLines--;
        done++;
      }
      if (span.first + span.settled >= end || end <= this.dropped) this.spans.shift();
    }
    return done;
  }

  /** The staged record's offset for the line being compacted (the oldest pending), or undefined when it cannot be staged. */
  private stage(l: HeldLine, cell: IBufferCell): number | undefined {
    const body = scan(l, cell, cellAttr, DEFAULT_ATTR);
    if (body === 0) return undefined;
    this.staging ??= new StagingRing((at) => this.unstage(at));
    const at = this.staging.stage(this.dropped + this.count - this.uncompacted, body);
    if (at < 0) return undefined;
    this.stagedLines++;
    return at;
  }

  /** A staged record is written over or settled: its line, if still kept, gets its compacted form. */
  private unstage(at: number): void {
    const staging = this.staging!;
    const i = (staging.lineOf(at) - this.dropped) >>> 0;
    if (i >= this.count) return;
    const s = this.slot(i);
    if (this.ring[s] !== at) return;
    this.ring[s] = readBody(staging.buf, staging.bodyAt(at), DEFAULT_ATTR);
    this.stagedLines--;
  }

  get(i: number): HistoryLine | undefined {
    if (i < 0 || i >= this.count) return undefined;
    const s = this.slot(i);
    const l = this.ring[s];
    if (l instanceof SealedBlock) return l.line(this.dropped + i);
    if (l instanceof PlainSpan) {
      const text = l.text(this.dropped + i);
      this.ring[s] = text;
      this.spanLines--;
      return text;
    }
    if (typeof l !== 'number') return l;
    const line = readBody(this.staging!.buf, this.staging!.bodyAt(l), DEFAULT_ATTR);
    this.ring[s] = line;
    this.stagedLines--;
    return line;
  }

  clear(): void {
    // Held lines are only among the newest, the ones not compacted yet (a flood clears a
    // history of ~10k lines at each parse: looking at every line cost it ~30 ms).
    for (let i = this.count - this.uncompacted; i < this.count; i++) {
      const l = this.ring[this.slot(i)]!;
      if (isHeld(l)) this.release(l);
    }
    this.dropped += this.count;
    this.staging = undefined;
    this.stagedLines = 0;
    this.spans = [];
    this.spanLines = 0;
    this.ring = [];
    this.head = 0;
    this.count = 0;
    this.uncompacted = 0;
  }
}
