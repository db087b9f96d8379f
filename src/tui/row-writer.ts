// The bytes that draw one row of a pane on the terminal the user sits at: an absolute cursor
// move to the row's start, then each cell with its full attributes (sgr.ts) and its OSC 8
// hyperlink, and the blank tail erased (EL). A cell the terminal may draw at another width
// than the emulator counts (cell-width.ts) is drawn over blanks it first lays across its
// columns, and the cell after it is placed with an absolute move, so nothing that follows
// lands anywhere but where the emulator has it and no old character survives beside it.
// Columns another view covers (an overlay) are skipped. Given what the row looked like when
// it was last written (its signature), only the span from the first to the last changed
// column is written, as blessed's diff did. It builds strings; it writes nothing.

import { DEFAULT_ATTR, type BlessedRow } from './cells.js';
import { uncertainWidth } from './cell-width.js';
import { blessedSgr, SgrCache, SGR_RESET } from './sgr.js';
import type { TerminalCaps } from './terminal-caps.js';
import type { IBufferCell, IBufferLine } from './xterm.js';
import { cellBgWord, cellFgWord, linkIdOf, type Hyperlink } from './xterm-cells.js';
import { inkedLength } from './xterm-lines.js';

/**
 * What a row looked like when written, per column: the characters of the cell starting
 * there (a mark for the second half of a wide one), and numbers standing for its SGR and
 * its link (numbers never reused by one writer, so two equal ones mean the same look).
 */
export interface RowSignature {
  chars: string[];
  sgr: Int32Array;
  link: Int32Array;
}

/** A row's bytes: the whole row, or only its changed span when the last signature was given ('' if nothing changed). */
export interface RowBytes {
  bytes: string;
  signature: RowSignature;
}

const WIDE_HALF = '\u0001';

export interface RowPlace {
  /** Screen row and the pane's first column, 0-based. */
  y: number;
  x0: number;
  width: number;
  /** The row reaches the terminal's right edge, so its blank tail can be erased with EL. */
  toEdge: boolean;
  /** Columns (from x0) that another view draws over: left alone. */
  covered?: Uint8Array;
}

const OSC8_CLOSE = '\x1b]8;;\x1b\\';
const EL = '\x1b[K';
const HAS_EXTENDED = 1 << 28;

const INVERSE = '\x1b[0;7m';
const cup = (y: number, x: number) => `\x1b[${y + 1};${x + 1}H`;

/** No control character may reach the terminal inside a link (it would end the sequence early). */
const UNSAFE_URI = /[\u0000-\u001f\u007f-\u009f]/;
const SAFE_ID = /^[\u0021-\u0039\u003c-\u007e]{1,250}$/;
const MAX_URI = 8192;

/** The OSC 8 sequence that opens a link, or '' for one that cannot be passed on safely. */
export function openLink(link: Hyperlink | undefined): string {
  if (!link?.uri || link.uri.length > MAX_URI || UNSAFE_URI.test(link.uri)) return '';
  const params = link.id !== undefined && SAFE_ID.test(link.id) ? `id=${link.id}` : '';
  return `\x1b]8;${params};${link.uri}\x1b\\`;
}

export class RowWriter {
  private readonly sgr: SgrCache;
  private readonly blessedSgrs = new Map<number, string>();
  // The row under construction.
  private out = '';
  private place!: RowPlace;
  private curSgr = '';
  private curLink = '';
  /** The terminal's cursor is not known to be where the next cell goes. */
  private lost = false;
  /** Output length, column and state after the last cell that is not a plain blank. */
  private inkLen = 0;
  private inkX = 0;
  private inkLost = false;
  private inkLink = '';
  private inkSgr = '';
  /** Per column of the row under construction: where its characters start and end in `out`, its SGR and link. */
  private charsStart: number[] = [];
  private cellEnd: number[] = [];
  private cellSgrs: string[] = [];
  private cellLinks: string[] = [];
  private signature: RowSignature = { chars: [], sgr: new Int32Array(0), link: new Int32Array(0) };
  /** Numbers for SGR and link strings (see RowSignature); the last one asked, remembered. */
  private readonly sgrIds = new Map<string, number>();
  private readonly linkIds = new Map<string, number>([['', 0]]);
  private nextId = 1;
  private lastSgr = '';
  private lastSgrId = 0;
  private lastLink = '';
  private lastLinkId = 0;

  constructor(readonly caps: TerminalCaps) {
    this.sgr = new SgrCache(caps);
  }

  /**
   * Row bytes for an emulator line (undefined: a blank row). `links` turns xterm's link
   * numbers into links; without it links are left out. Columns in `invert` are drawn with
   * their inverse attribute flipped (scroll mode's highlights).
   */
  line(
    line: IBufferLine | undefined,
    cell: IBufferCell | undefined,
    place: RowPlace,
    links?: (id: number) => Hyperlink | undefined,
    invert?: { start: number; end: number },
    last?: RowSignature,
  ): RowBytes {
    this.begin(place);
    if (!this.caps.hyperlinks) links = undefined;
    const width = place.width;
    // A row reaching the terminal's edge has its blank tail erased (end()), so past its last
    // used cell only the signature is filled: a flood's rows are mostly blank tail, and
    // reading and writing each of those cells was most of what drawing a frame cost.
    const tailErased = place.toEdge && !place.covered && !invert;
    const n = line ? Math.min(tailErased ? inkedLength(line) : line.length, width) : 0;
    let fg = -1;
    let bg = -1;
    let sgr = SGR_RESET;
    let linkId = 0;
    let link = '';
    let linkCache: Map<number, string> | undefined;
    let wasInverted = false;
    let x = 0;
    while (x < width) {
      if (x >= n && tailErased) {
        this.blankTail(x);
        break;
      }
      if (x >= n || !cell || !line!.getCell(x, cell)) {
        if (invert && x >= invert.start && x < invert.end) this.put(x, 1, ' ', INVERSE, '', false);
        else this.put(x, 1, ' ', SGR_RESET, '', true);
        x++;
        continue;
      }
      let w = cell.getWidth();
      if (w === 0) {
        // The second half of a wide character whose first half was not drawn (cut off).
        this.put(x, 1, ' ', sgr, link, false);
        x++;
        continue;
      }
      const f = cellFgWord(cell);
      const b = cellBgWord(cell);
      const inverted = invert !== undefined && x >= invert.start && x < invert.end;
      if (f !== fg || b !== bg || b & HAS_EXTENDED || inverted || wasInverted) {
        fg = f;
        bg = b;
        wasInverted = inverted;
        sgr = this.sgr.of(cell, inverted);
        const id = links ? linkIdOf(cell) : 0;
        if (id !== linkId) {
          linkId = id;
          if (!id) link = '';
          else {
            linkCache ??= new Map();
            let s = linkCache.get(id);
            if (s === undefined) linkCache.set(id, (s = openLink(links!(id))));
            link = s;
          }
        }
      }
      let chars = cell.getChars() || ' ';
      if (x + w > width) {
        // A wide character the row cannot hold whole.
        chars = ' ';
        w = 1;
      }
      this.put(x, w, chars, sgr, link, chars === ' ' && sgr === SGR_RESET && link === '');
      x += w;
    }
    return this.end(last);
  }

  /** Columns from x on are blank, in the default look: their signature, and no bytes (end() erases them). */
  private blankTail(x: number): void {
    const sig = this.signature;
    if (this.lastSgr !== SGR_RESET) {
      this.lastSgr = SGR_RESET;
      this.lastSgrId = this.idOf(this.sgrIds, SGR_RESET);
    }
    const reset = this.lastSgrId;
    for (; x < this.place.width; x++) {
      sig.chars[x] = ' ';
      sig.sgr[x] = reset;
      sig.link[x] = 0;
    }
  }

  /** Row bytes for a row of blessed cells (scroll mode, notices): its limited attributes only. */
  blessed(row: BlessedRow, x0: number, place: RowPlace, last?: RowSignature): RowBytes {
    this.begin(place);
    const width = place.width;
    let x = 0;
    while (x < width) {
      const c = row[x0 + x];
      if (!c) {
        this.put(x, 1, ' ', SGR_RESET, '', true);
        x++;
        continue;
      }
      const attr = c[0];
      let sgr = this.blessedSgrs.get(attr);
      if (sgr === undefined) this.blessedSgrs.set(attr, (sgr = blessedSgr(attr, this.caps)));
      const ch = c[1] || ' ';
      const w = c[1] !== '' && x + 1 < width && row[x0 + x + 1]?.[1] === '' ? 2 : 1;
      this.put(x, w, ch, sgr, '', ch === ' ' && attr === DEFAULT_ATTR);
      x += w;
    }
    return this.end(last);
  }

  private begin(place: RowPlace): void {
    this.place = place;
    this.out = cup(place.y, place.x0);
    this.curSgr = '';
    this.curLink = '';
    this.lost = false;
    this.inkLen = this.out.length;
    this.inkX = 0;
    this.inkLost = false;
    this.inkLink = '';
    this.inkSgr = '';
    // Built in the writer's own arrays; handed out (copied into the last one) at the end.
    if (this.signature.chars.length !== place.width) this.signature = newSignature(place.width);
  }

  /** One cell of `w` columns at column x (from the pane's left). */
  private put(x: number, w: number, chars: string, sgr: string, link: string, blank: boolean): void {
    const p = this.place;
    const covered = p.covered;
    if (covered && (covered[x] || (w === 2 && covered[x + 1]))) {
      // Half a wide character beside an overlay: its other half is drawn blank.
      if (w === 2 && !covered[x]) this.put(x, 1, ' ', sgr, link, false);
      else if (w === 2 && !covered[x + 1]) {
        this.lost = true;
        this.put(x + 1, 1, ' ', sgr, link, false);
      }
      this.lost = true;
      return;
    }
    if (this.lost) {
      this.out += cup(p.y, p.x0 + x);
      this.lost = false;
    }
    if (link !== this.curLink) {
      if (this.curLink) this.out += OSC8_CLOSE;
      if (link) this.out += link;
      this.curLink = link;
    }
    if (sgr !== this.curSgr) {
      this.out += sgr;
      this.curSgr = sgr;
    }
    this.charsStart[x] = this.out.length;
    this.cellSgrs[x] = sgr;
    this.cellLinks[x] = link;
    const sig = this.signature;
    sig.chars[x] = chars;
    if (sgr !== this.lastSgr) {
      this.lastSgr = sgr;
      this.lastSgrId = this.idOf(this.sgrIds, sgr);
    }
    if (link !== this.lastLink) {
      this.lastLink = link;
      this.lastLinkId = this.idOf(this.linkIds, link);
    }
    sig.sgr[x] = this.lastSgrId;
    sig.link[x] = this.lastLinkId;
    if (w === 2) sig.chars[x + 1] = WIDE_HALF;
    if (w === 1 && chars.length === 1 && chars.charCodeAt(0) < 0x2100) {
      this.out += chars;
    } else if (!uncertainWidth(chars)) {
      this.out += chars;
    } else if (w === 1 && p.toEdge && x + 1 >= p.width) {
      // Drawn two columns wide in the last column, it would wrap onto the next row.
      this.out += ' ';
    } else {
      this.out += (w === 2 ? '  ' : ' ') + cup(p.y, p.x0 + x) + chars;
      this.lost = true;
    }
    this.cellEnd[x] = this.out.length;
    if (!blank) {
      this.inkLen = this.out.length;
      this.inkX = x + w;
      this.inkLost = this.lost;
      this.inkLink = this.curLink;
      this.inkSgr = this.curSgr;
    }
  }

  private end(last: RowSignature | undefined): RowBytes {
    const p = this.place;
    const reuse = last && last.chars.length === p.width ? last : undefined;
    if (reuse) {
      // Beside an overlay, a changed row is written whole (its columns are not all drawn here).
      const bytes = !p.covered ? this.changedSpan(reuse) : sameSignature(this.signature, reuse) ? '' : undefined;
      if (bytes !== undefined) {
        this.out = '';
        return { bytes, signature: this.handOut(reuse) };
      }
    }
    const signature = this.handOut(reuse ?? newSignature(p.width));
    let out = this.out;
    if (p.toEdge && !p.covered) {
      // The blank tail is erased rather than written.
      out = out.slice(0, this.inkLen);
      if (this.inkLink) out += OSC8_CLOSE;
      if (this.inkSgr !== SGR_RESET) out += SGR_RESET;
      if (this.inkX < p.width) {
        if (this.inkLost) out += cup(p.y, p.x0 + this.inkX);
        out += EL;
      }
    } else {
      if (this.curLink) out += OSC8_CLOSE;
      if (this.curSgr !== SGR_RESET) out += SGR_RESET;
    }
    this.out = '';
    return { bytes: out, signature };
  }

  /** The row's signature copied into `into` (a caller's, no longer needed as it was). */
  private handOut(into: RowSignature): RowSignature {
    const sig = this.signature;
    for (let x = 0; x < sig.chars.length; x++) into.chars[x] = sig.chars[x]!;
    into.sgr.set(sig.sgr);
    into.link.set(sig.link);
    return into;
  }

  private idOf(ids: Map<string, number>, s: string): number {
    let id = ids.get(s);
    if (id === undefined) {
      // Bounded (a truecolour gradient makes new SGRs without end); numbers keep growing, so
      // a number forgotten here is never given to another look.
      if (ids.size > 8192) ids.clear();
      ids.set(s, (id = this.nextId++));
    }
    return id;
  }

  /** The bytes for the columns that differ from `last`, from the first to the last of them. */
  private changedSpan(last: RowSignature): string {
    const p = this.place;
    const sig = this.signature;
    let first = 0;
    while (first < p.width && sameCell(sig, last, first)) first++;
    if (first === p.width) return '';
    let end = p.width - 1;
    while (end > first && sameCell(sig, last, end)) end--;
    // The span starts where a cell starts, never on the second half of a wide one.
    while (first > 0 && sig.chars[first] === WIDE_HALF) first--;
    if (sig.chars[end] === WIDE_HALF) end--;
    let out = cup(p.y, p.x0 + first);
    if (p.toEdge && end >= this.inkX) {
      // The change reaches the blank tail: written through to the erase.
      if (first < this.inkX) {
        out += this.cellLinks[first]! + this.cellSgrs[first]! + this.out.slice(this.charsStart[first], this.inkLen);
        if (this.inkLink) out += OSC8_CLOSE;
        if (this.inkSgr !== SGR_RESET) out += SGR_RESET;
        if (this.inkX < p.width) out += (this.inkLost ? cup(p.y, p.x0 + this.inkX) : '') + EL;
      } else {
        out += SGR_RESET + EL;
      }
      return out;
    }
    out += this.cellLinks[first]! + this.cellSgrs[first]! + this.out.slice(this.charsStart[first], this.cellEnd[end]);
    if (this.cellLinks[end]) out += OSC8_CLOSE;
    if (this.cellSgrs[end] !== SGR_RESET) out += SGR_RESET;
    return out;
  }
}

function newSignature(width: number): RowSignature {
  return { chars: new Array<string>(width).fill(''), sgr: new Int32Array(width), link: new Int32Array(width) };
}

function sameCell(a: RowSignature, b: RowSignature, x: number): boolean {
  return a.chars[x] === b.chars[x] && a.sgr[x] === b.sgr[x] && a.link[x] === b.link[x];
}

function sameSignature(a: RowSignature, b: RowSignature): boolean {
  for (let x = 0; x < a.chars.length; x++) if (!sameCell(a, b, x)) return false;
  return true;
}
