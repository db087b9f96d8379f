// A line compacted into runs of one attribute each (history.ts keeps tens of thousands a pane):
// built straight from xterm's cell words, stored in the smallest shape that holds it, and
// unpacked again. Part of the door to @xterm/headless (xterm.ts): it reads xterm's private
// line and cell fields, and nothing outside these xterm*.ts files does.

import type { IBufferCell } from './xterm.js';
import { CELL_WORDS, HAS_EXTENDED, IS_COMBINED } from './xterm-cells.js';
import { loadHeldCell, usedCells, type HeldLine } from './xterm-lines.js';

/** Runs of [attr, text | cells, attr, text | cells, ...]. */
export type Runs = (number | string | string[])[];

/**
 * A line as runs (see history-line.ts ArchivedLine): a line that is one run in the default
 * attribute and does not continue the previous line is just its text; any other line that
 * does not continue the previous one, when its runs are all plain text, is one string of
 * its runs each as PACKED, its attribute in 3 chars (0-255 each), then its text; else its
 * runs array; only a wrapped line has the object that says so. Tens of thousands are kept
 * per pane, so each shape is the smallest that holds it: a coloured line as an array of 4
 * items and its 2 strings took ~200 bytes, packed ~110 (an object added 40).
 */
export type LineRuns = string | Runs | { wrapped: true; runs: Runs };

/** Starts each run of a packed line; a cell's text never holds it (an empty cell is a space). */
export const PACKED = '\0';

/**
 * The stored form of runs built by push(): packed when it can be, else a copy exactly as
 * long as its items (a pushed-to array keeps room for 16 or more, ~150 bytes where a
 * line's 4 items need 48).
 */
export function keptRuns(runs: Runs, wrapped: boolean): LineRuns {
  if (!wrapped && runs.length > 0) {
    // Joined, not built with +=, which would keep a rope of its pieces.
    const parts: string[] = [];
    for (let i = 0; i < runs.length; i += 2) {
      const attr = runs[i] as number;
      const text = runs[i + 1]!;
      if (typeof text !== 'string' || attr < 0 || attr > 0xffffff || text.includes(PACKED)) break;
      parts.push(PACKED, String.fromCharCode(attr >>> 16, (attr >>> 8) & 0xff, attr & 0xff), text);
    }
    if (parts.length === (runs.length / 2) * 3) return parts.join('');
  }
  const exact = runs.slice();
  return wrapped ? { wrapped: true, runs: exact } : exact;
}

/** The runs of a packed line (see LineRuns). */
export function unpackRuns(s: string): Runs {
  const runs: Runs = [];
  let i = 0;
  while (i < s.length) {
    const attr = (s.charCodeAt(i + 1) << 16) | (s.charCodeAt(i + 2) << 8) | s.charCodeAt(i + 3);
    let end = s.indexOf(PACKED, i + 4);
    if (end < 0) end = s.length;
    runs.push(attr, s.slice(i + 4, end));
    i = end;
  }
  return runs;
}

/**
 * Turn a held line into runs straight from xterm's cell words: the attribute is computed
 * only where the colour/flag words change, and plain one-column characters are gathered in
 * a scratch buffer and turned into one flat string natively. Every line a flood keeps goes
 * through here, so it allocates as little as it can: for a plain line, only its string.
 */
export function heldLineRuns(h: HeldLine, cell: IBufferCell, attrOf: (cell: IBufferCell) => number, defaultAttr: number): LineRuns {
  const l = h.line;
  const data = l._data;
  const end = usedCells(data, l.length);
  if (scratch16.length < end) {
    scratch16 = new Uint16Array(end * 2);
    scratch8 = Buffer.alloc(end * 2);
  }
  let runs: Runs | undefined;
  let fg = -1;
  let bg = -1;
  let attr = -1;
  // The current run: char codes in scratch[runStart, n) (`wide` when one is over 255), or,
  // after a wide or combined character, a list of cell strings.
  let runStart = 0;
  let n = 0;
  let wide = false;
  let cells: string[] | undefined;
  for (let x = 0; x < end; x++) {
    const i = x * CELL_WORDS;
    const content = data[i]!;
    const f = data[i + 1]!;
    const b = data[i + 2]!;
    if (f !== fg || b !== bg || b & HAS_EXTENDED) {
      loadHeldCell(cell, l, x, content, f, b);
      // Colour words of 0 are the default cell: `defaultAttr` is attrOf of such a cell.
      const a = f === 0 && b === 0 ? defaultAttr : attrOf(cell);
      fg = f;
      bg = b;
      if (a !== attr) {
        if (attr >= 0) (runs ??= []).push(attr, cells ?? runText(runStart, n, wide));
        attr = a;
        runStart = n;
        wide = false;
        cells = undefined;
      }
    }
    const width = content >>> 22;
    const cp = content & 0x1fffff;
    if (!cells && !(content & IS_COMBINED) && width === 1 && cp < 0x10000) {
      const code = cp === 0 ? 32 : cp;
      scratch16[n] = code;
      scratch8[n++] = code;
      if (code > 255) wide = true;
      continue;
    }
    if (!cells) {
      cells = [];
      for (let k = runStart; k < n; k++) cells.push(String.fromCharCode(scratch16[k]!));
    }
    cells.push(content & IS_COMBINED ? (l._combined[x] ?? ' ') : width === 0 ? '' : cp === 0 ? ' ' : String.fromCodePoint(cp));
  }
  let last: string | string[] = '';
  if (attr >= 0) {
    last = cells ?? runText(runStart, n, wide);
    // Trailing default blanks carry nothing (the trimmed length keeps written spaces).
    if (attr === defaultAttr && typeof last === 'string' && last.endsWith(' ')) last = last.replace(/ +$/, '');
  }
  if (!runs && !l.isWrapped && (attr < 0 || (attr === defaultAttr && typeof last === 'string'))) return last as string;
  runs ??= [];
  if (attr >= 0 && last.length > 0) runs.push(attr, last);
  return keptRuns(runs, l.isWrapped);
}

function runText(start: number, end: number, wide: boolean): string {
  if (!wide) return scratch8.toString('latin1', start, end);
  return String.fromCharCode.apply(null, scratch16.subarray(start, end) as unknown as number[]);
}

/** Char codes of the line being compacted (reused: one line at a time). */
let scratch16 = new Uint16Array(256);
let scratch8 = Buffer.alloc(256);
