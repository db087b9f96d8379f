// Lines kept out of xterm's own scrollback (history.ts): a copy in xterm's cell encoding
// (RawLine) or xterm's own line object taken as it was dropped (HeldLine), each read back
// through the public line interface. Part of the door to @xterm/headless (xterm.ts): it reads
// xterm's private line fields, and nothing outside these xterm*.ts files does.

import { scratchCell, type IBufferCell, type IBufferLine } from './xterm.js';
import { CELL_WORDS, HAS_EXTENDED, IS_COMBINED, type InternalCell } from './xterm-cells.js';

/** xterm's own line object; the public IBufferLine is a view over it. */
export interface InternalLine {
  readonly length: number;
  readonly isWrapped: boolean;
  _data: Uint32Array;
  _combined: Record<number, string>;
  _extendedAttrs: Record<number, unknown>;
  getNoBgTrimmedLength?(): number;
  getTrimmedLength(): number;
  clone(): InternalLine;
}

/**
 * A copy of a line in xterm's own cell encoding, cut after its last used cell: one typed
 * array copy, cheap enough to take for every line a flood pushes out.
 */
export interface RawLine {
  readonly kind: 'raw';
  readonly data: Uint32Array;
  readonly combined: Record<number, string> | undefined;
  readonly extended: Record<number, unknown> | undefined;
  readonly wrapped: boolean;
}

export function snapshotLine(l: InternalLine): RawLine {
  const used = l.getNoBgTrimmedLength ? l.getNoBgTrimmedLength() : l.getTrimmedLength();
  const combined = Object.keys(l._combined).length ? { ...l._combined } : undefined;
  const extended = Object.keys(l._extendedAttrs).length ? { ...l._extendedAttrs } : undefined;
  return { kind: 'raw', data: l._data.slice(0, used * CELL_WORDS), combined, extended, wrapped: l.isWrapped };
}

/** Read a RawLine through the public line interface (cells from getNullCell are xterm's). */
export function rawLineView(r: RawLine): IBufferLine {
  const length = r.data.length / CELL_WORDS;
  const view = {
    length,
    isWrapped: r.wrapped,
    getCell(x: number, cell?: IBufferCell) {
      if (x < 0 || x >= length || !cell) return undefined;
      const c = cell as unknown as InternalCell;
      const i = x * CELL_WORDS;
      c.content = r.data[i]!;
      c.fg = r.data[i + 1]!;
      c.bg = r.data[i + 2]!;
      if (c.content & IS_COMBINED) c.combinedData = r.combined?.[x] ?? '';
      if (c.bg & HAS_EXTENDED) {
        if (r.extended?.[x]) c.extended = r.extended[x];
        else c.bg &= ~HAS_EXTENDED;
      }
      return cell;
    },
    translateToString(trimRight?: boolean, start = 0, end = length) {
      const cell = nullCell;
      let out = '';
      for (let x = start; x < Math.min(end, length); x++) {
        view.getCell(x, cell);
        out += cell.getWidth() === 0 ? '' : cell.getChars() || ' ';
      }
      return trimRight ? out.replace(/\s+$/, '') : out;
    },
  };
  return view as unknown as IBufferLine;
}

/**
 * One of xterm's own line objects, taken out of its list as it was dropped (see
 * ScrollbackTap): no copy at all. Full width until compacted, then handed back for reuse.
 */
export interface HeldLine {
  readonly kind: 'held';
  readonly line: InternalLine;
}

export function heldLineView(h: HeldLine): IBufferLine {
  const l = h.line as InternalLine & { loadCell(x: number, c: unknown): unknown; translateToString(t?: boolean, s?: number, e?: number): string };
  return {
    length: l.length,
    isWrapped: l.isWrapped,
    getCell(x: number, cell?: IBufferCell) {
      if (x < 0 || x >= l.length || !cell) return undefined;
      l.loadCell(x, cell);
      return cell;
    },
    translateToString: (trimRight?: boolean, start?: number, end?: number) => l.translateToString(trimRight, start, end),
  } as unknown as IBufferLine;
}

/** A cell to decode raw lines into when the caller has none. */
const nullCell: IBufferCell = scratchCell();

/** A cell's character (content word; 0 when the cell is empty), and its background colour's mode (bg word). */
const CODEPOINT_MASK = 0x3fffff;
const BG_COLOR_MODE = 0x3000000;

/**
 * How many cells of a line are used: up to the last with a character or a background colour
 * (xterm's getNoBgTrimmedLength, which every line scrolled into the history pays for across
 * its blank tail), looking at four cells a step.
 */
export function usedCells(data: Uint32Array, cols: number): number {
  let e = cols - 1;
  for (; e >= 3; e -= 4) {
    const i = e * CELL_WORDS;
    if (
      ((data[i]! | data[i - 3]! | data[i - 6]! | data[i - 9]!) & CODEPOINT_MASK) |
      ((data[i + 2]! | data[i - 1]! | data[i - 4]! | data[i - 7]!) & BG_COLOR_MODE)
    )
      break;
  }
  for (; e >= 0; e--) {
    const i = e * CELL_WORDS;
    if (data[i]! & CODEPOINT_MASK || data[i + 2]! & BG_COLOR_MODE) return e + (data[i]! >> 22);
  }
  return 0;
}

/** Loads cell `x` of a held line, whose words the caller has read, into `cell` (as getCell would), for attrOf. */
export function loadHeldCell(cell: IBufferCell, l: InternalLine, x: number, content: number, fg: number, bg: number): void {
  const c = cell as unknown as InternalCell;
  c.content = content;
  c.fg = fg;
  c.bg = bg;
  if (bg & HAS_EXTENDED) {
    const ext = l._extendedAttrs[x];
    if (ext) c.extended = ext;
    else c.bg &= ~HAS_EXTENDED;
  }
}

/**
 * Cells of a screen line (the public view over xterm's own line) up to its last used one
 * (usedCells); every cell after it is blank, in the default colours, linked nowhere. The
 * line's whole length when it is not the expected shape.
 */
export function inkedLength(line: IBufferLine): number {
  const l = (line as unknown as { _line?: Partial<InternalLine> })._line;
  const data = l?._data;
  const length = line.length;
  return data instanceof Uint32Array && data.length >= length * CELL_WORDS ? usedCells(data, length) : length;
}
