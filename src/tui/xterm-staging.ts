// Where history lines wait during a flood instead of being compacted: a flood of a million
// lines keeps only the last 10k, so building a string for every line (and collecting it
// again) was most of what showing the flood cost. A line made only of one-column latin-1
// characters (most output) is written here as bytes, its runs of one attribute in a small
// table; the history keeps the record's offset. Records are a ring in the order of their
// lines: writing over the oldest first turns it into its compacted form if the history still
// holds it (a flood whose kept lines outgrow the ring pays as before), and once output goes
// quiet the history turns what is left into strings and lets the ring go. Any other line is
// compacted at once, as before. It builds exactly what heldLineRuns would (a test holds the
// two together). Part of the door to @xterm/headless (xterm.ts): it reads xterm's private
// line fields, as xterm-runs.ts does.

import type { IBufferCell } from './xterm.js';
import { CELL_WORDS, HAS_EXTENDED, IS_COMBINED } from './xterm-cells.js';
import { loadHeldCell, usedCells, type HeldLine } from './xterm-lines.js';
import { keptRuns, type LineRuns, type Runs } from './xterm-runs.js';

/** Bytes of the ring: ~45k lines of `seq`, ~10k of 85-column two-colour output. */
export const STAGING_BYTES = 1 << 20;
/** Runs a staged line may have (its table counts them in a byte). */
const MAX_RUNS = 255;
/** A record: the line's number (low 32 bits) and the body's length, then the body. */
const RECORD_HEAD = 6;
/** The body: flags (1: wrapped), runs, characters (u16), then per run its attribute (3 bytes) and length (u16), then the characters. */
const BODY_HEAD = 4;
const RUN_BYTES = 5;

/** The line scanned last by scan(), waiting for write(). */
let chars = Buffer.alloc(256);
let runTable = new Int32Array(2 * 16);
let runCount = 0;
let charCount = 0;
let wrapped = false;

/**
 * Reads a held line for staging; returns the bytes its body needs, or 0 when it cannot be
 * staged (a wide, combined or non-latin-1 character, or too many runs). Same runs as
 * heldLineRuns: a run ends where the attribute changes.
 */
export function scan(h: HeldLine, cell: IBufferCell, attrOf: (cell: IBufferCell) => number, defaultAttr: number): number {
  const l = h.line;
  const data = l._data;
  const end = usedCells(data, l.length);
  if (chars.length < end) chars = Buffer.alloc(end * 2);
  let fg = -1;
  let bg = -1;
  let attr = -1;
  let runs = 0;
  let runStart = 0;
  for (let x = 0; x < end; x++) {
    const i = x * CELL_WORDS;
    const content = data[i]!;
    const cp = content & 0x1fffff;
    if (content & IS_COMBINED || content >>> 22 !== 1 || cp > 0xff) return 0;
    const f = data[i + 1]!;
    const b = data[i + 2]!;
    if (f !== fg || b !== bg || b & HAS_EXTENDED) {
      let a = defaultAttr;
      if (f !== 0 || b !== 0) {
        loadHeldCell(cell, l, x, content, f, b);
        a = attrOf(cell);
      }
      fg = f;
      bg = b;
      if (a !== attr) {
        if (attr >= 0) {
          if (runs === MAX_RUNS) return 0;
          addRun(runs++, attr, x - runStart);
        }
        attr = a;
        runStart = x;
      }
    }
    chars[x] = cp === 0 ? 32 : cp;
  }
  if (attr >= 0) {
    if (runs === MAX_RUNS) return 0;
    addRun(runs++, attr, end - runStart);
  }
  runCount = runs;
  charCount = end;
  wrapped = l.isWrapped;
  return BODY_HEAD + RUN_BYTES * runs + end;
}

function addRun(r: number, attr: number, len: number): void {
  if (runTable.length < 2 * (r + 1)) {
    const bigger = new Int32Array(runTable.length * 2);
    bigger.set(runTable);
    runTable = bigger;
  }
  runTable[2 * r] = attr;
  runTable[2 * r + 1] = len;
}

/** Writes the line scanned last as a body at `at`. */
function writeBody(buf: Buffer, at: number): void {
  buf[at] = wrapped ? 1 : 0;
  buf[at + 1] = runCount;
  buf[at + 2] = charCount & 0xff;
  buf[at + 3] = charCount >>> 8;
  let p = at + BODY_HEAD;
  for (let r = 0; r < runCount; r++) {
    const attr = runTable[2 * r]!;
    buf[p] = (attr >>> 16) & 0xff;
    buf[p + 1] = (attr >>> 8) & 0xff;
    buf[p + 2] = attr & 0xff;
    const len = runTable[2 * r + 1]!;
    buf[p + 3] = len & 0xff;
    buf[p + 4] = len >>> 8;
    p += RUN_BYTES;
  }
  // A loop, not Buffer#copy: a line is a few dozen bytes, less than the native call costs.
  for (let x = 0; x < charCount; x++) buf[p + x] = chars[x]!;
}

/** A body read back, in the shape heldLineRuns gives the same line. */
export function readBody(buf: Buffer, at: number, defaultAttr: number): LineRuns {
  const isWrapped = buf[at] === 1;
  const n = buf[at + 1]!;
  let p = at + BODY_HEAD;
  let q = p + RUN_BYTES * n;
  const runs: Runs = [];
  for (let r = 0; r < n; r++) {
    const attr = (buf[p]! << 16) | (buf[p + 1]! << 8) | buf[p + 2]!;
    const len = buf.readUInt16LE(p + 3);
    runs.push(attr, buf.toString('latin1', q, q + len));
    p += RUN_BYTES;
    q += len;
  }
  // As heldLineRuns ends a line: its last run's trailing default blanks dropped; a lone
  // default run of a line that does not continue the one above is just its text.
  let attr = -1;
  let last = '';
  if (n > 0) {
    attr = runs[runs.length - 2] as number;
    last = runs[runs.length - 1] as string;
    runs.length -= 2;
    if (attr === defaultAttr && last.endsWith(' ')) last = last.replace(/ +$/, '');
  }
  if (n <= 1 && !isWrapped && (attr < 0 || attr === defaultAttr)) return last;
  if (attr >= 0 && last.length > 0) runs.push(attr, last);
  return keptRuns(runs, isWrapped);
}

/**
 * The ring of staged records. Records occupy [tail, head) or, once the ring wrapped,
 * [tail, wrapAt) and [0, head). `evict` is told each record's offset as it is written over
 * or settled, oldest first.
 */
export class StagingRing {
  readonly buf = Buffer.alloc(STAGING_BYTES);
  private head = 0;
  private tail = 0;
  private wrapAt = STAGING_BYTES;
  private wrappedRing = false;
  /** Records in the ring. */
  records = 0;

  constructor(private readonly evict: (offset: number) => void) {}

  /** Stages the line scanned last (its body `body` bytes) as line number `n`; returns its offset, or -1 when it cannot fit. */
  stage(n: number, body: number): number {
    const size = RECORD_HEAD + body;
    if (size > STAGING_BYTES) return -1;
    const at = this.reserve(size);
    const buf = this.buf;
    // Byte by byte: Buffer's write methods check their arguments, which costs more than this.
    buf[at] = n & 0xff;
    buf[at + 1] = (n >>> 8) & 0xff;
    buf[at + 2] = (n >>> 16) & 0xff;
    buf[at + 3] = (n >>> 24) & 0xff;
    buf[at + 4] = body & 0xff;
    buf[at + 5] = body >>> 8;
    writeBody(buf, at + RECORD_HEAD);
    return at;
  }

  /** The line number (low 32 bits) of the record at `at`. */
  lineOf(at: number): number {
    const buf = this.buf;
    return (buf[at]! | (buf[at + 1]! << 8) | (buf[at + 2]! << 16) | (buf[at + 3]! << 24)) >>> 0;
  }

  bodyAt(at: number): number {
    return at + RECORD_HEAD;
  }

  /** Lets the oldest record go (telling `evict` first); false when there is none. */
  dropOldest(): boolean {
    if (this.records === 0) return false;
    const at = this.tail;
    this.evict(at);
    this.tail = at + RECORD_HEAD + (this.buf[at + 4]! | (this.buf[at + 5]! << 8));
    this.records--;
    if (this.wrappedRing && this.tail === this.wrapAt) {
      this.tail = 0;
      this.wrappedRing = false;
    }
    if (this.records === 0) {
      this.head = this.tail = 0;
      this.wrappedRing = false;
    }
    return true;
  }

  private reserve(size: number): number {
    for (;;) {
      if (!this.wrappedRing) {
        if (this.head + size <= STAGING_BYTES) break;
        // The end of the buffer is too short: go on at its start, over the oldest records.
        this.wrapAt = this.head;
        this.head = 0;
        this.wrappedRing = true;
        if (this.records === 0) {
          this.wrappedRing = false;
          break;
        }
      }
      if (this.head + size <= this.tail) break;
      this.dropOldest();
    }
    const at = this.head;
    this.head += size;
    this.records++;
    return at;
  }
}
