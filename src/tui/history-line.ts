// One line of a pane's history, in the form it has at the time: xterm's own line object
// (held, or a raw copy) until it is compacted, then an ArchivedLine (its text in runs of one
// blessed attribute, trailing blanks dropped; a plain line is just its string). How a line
// is compacted, and how any of its forms is read as text or painted into a blessed row;
// where lines are kept, and when they are compacted or sealed, is history.ts's.
// It reads lines only through IBufferLine views and xterm-lines.ts's and xterm-runs.ts's
// helpers (they know the raw format).

import { cellAttr, DEFAULT_ATTR, paintRow, type BlessedRow } from './cells.js';
import type { IBufferCell, IBufferLine } from './xterm.js';
import { heldLineView, rawLineView, type HeldLine, type RawLine } from './xterm-lines.js';
import { keptRuns, PACKED, unpackRuns, type LineRuns, type Runs } from './xterm-runs.js';

/**
 * One compacted line: its text when it is a single default-attribute run that does not
 * continue the line above, else runs [attr, text, attr, text, ...] (packed into one string
 * when every run is plain text: see LineRuns), in an object that says `wrapped` only when it
 * continues the line above. A run's text is a string when every cell in it is one UTF-16
 * unit one column wide (the common case), else an array of cell strings where the second
 * half of a wide character is ''.
 */
export type ArchivedLine = LineRuns;

export type HistoryLine = ArchivedLine | RawLine | HeldLine;

/** Compact a line read through the public interface (raw copies; tests). */
export function archiveLine(line: IBufferLine, cell: IBufferCell): ArchivedLine {
  let end = line.length;
  while (end > 0) {
    line.getCell(end - 1, cell);
    const c = cell.getChars();
    if ((c !== '' && c !== ' ') || cell.getWidth() !== 1 || cellAttr(cell) !== DEFAULT_ATTR) break;
    end--;
  }
  const runs: Runs = [];
  let attr = -1;
  // Chars gathered in an array and joined once: `s += ch` would leave a rope of one node per
  // character (V8 cons strings, ~32 bytes each) alive in the history.
  let simple: string[] = [];
  let cells: string[] | undefined;
  for (let x = 0; x < end; x++) {
    line.getCell(x, cell);
    const a = cellAttr(cell);
    const w = cell.getWidth();
    const ch = w === 0 ? '' : cell.getChars() || ' ';
    if (a !== attr) {
      if (attr >= 0) runs.push(attr, cells ?? simple.join(''));
      attr = a;
      simple = [];
      cells = undefined;
    }
    if (cells) cells.push(ch);
    else if (ch.length === 1 && w === 1) simple.push(ch);
    else {
      cells = simple;
      cells.push(ch);
    }
  }
  if (attr >= 0) runs.push(attr, cells ?? simple.join(''));
  if (!line.isWrapped && (runs.length === 0 || (runs.length === 2 && runs[0] === DEFAULT_ATTR && typeof runs[1] === 'string'))) {
    return (runs[1] as string | undefined) ?? '';
  }
  return keptRuns(runs, line.isWrapped);
}

/** A compacted line's runs, whatever its shape. */
export const archivedRuns = (l: ArchivedLine): Runs =>
  typeof l === 'string' ? (l.startsWith(PACKED) ? unpackRuns(l) : [DEFAULT_ATTR, l]) : Array.isArray(l) ? l : l.runs;

/** Plain text of a compacted line, trailing blanks trimmed. */
export function archivedText(l: ArchivedLine): string {
  if (typeof l === 'string' && !l.startsWith(PACKED)) return l.replace(/\s+$/, '');
  const runs = archivedRuns(l);
  let out = '';
  for (let i = 1; i < runs.length; i += 2) {
    const t = runs[i] as string | string[];
    out += typeof t === 'string' ? t : t.join('');
  }
  return out.replace(/\s+$/, '');
}

/** Paint a compacted line into a blessed row, like paintRow does for a live one. */
export function paintArchived(l: ArchivedLine, dest: BlessedRow, x0: number, width: number, invert?: { start: number; end: number }): boolean {
  let changed = false;
  let x = 0;
  const put = (attr: number, ch: string) => {
    if (x >= width) return;
    const d = dest[x0 + x];
    if (!d) return;
    if (invert && x >= invert.start && x < invert.end) attr ^= 8 << 18;
    if (d[0] !== attr || d[1] !== ch) {
      d[0] = attr;
      d[1] = ch;
      changed = true;
    }
    x++;
  };
  const runs = archivedRuns(l);
  for (let i = 0; i < runs.length; i += 2) {
    const attr = runs[i] as number;
    const t = runs[i + 1] as string | string[];
    if (typeof t === 'string') for (let k = 0; k < t.length; k++) put(attr, t[k]!);
    else for (const ch of t) put(attr, ch);
  }
  while (x < width) put(DEFAULT_ATTR, ' ');
  if (changed) dest.dirty = true;
  return changed;
}

export const isRaw = (l: unknown): l is RawLine => typeof l === 'object' && l !== null && 'kind' in l && l.kind === 'raw';
export const isHeld = (l: unknown): l is HeldLine => typeof l === 'object' && l !== null && 'kind' in l && l.kind === 'held';

/** A line not compacted yet, read through the public line interface. */
export function uncompacted(l: HistoryLine): IBufferLine | undefined {
  return isRaw(l) ? rawLineView(l) : isHeld(l) ? heldLineView(l) : undefined;
}

export function historyText(l: HistoryLine): string {
  const view = uncompacted(l);
  return view ? view.translateToString(true).replace(/\s+$/, '') : archivedText(l as ArchivedLine);
}

export function paintHistory(l: HistoryLine, cell: IBufferCell, dest: BlessedRow, x0: number, width: number, invert?: { start: number; end: number }): boolean {
  const view = uncompacted(l);
  return view ? paintRow(view, cell, dest, x0, width, invert) : paintArchived(l as ArchivedLine, dest, x0, width, invert);
}

export function historyWrapped(l: HistoryLine): boolean {
  if (typeof l === 'string' || Array.isArray(l)) return false;
  return isHeld(l) ? l.line.isWrapped : l.wrapped;
}
