// Scrollback that has left the emulator, kept compactly. xterm stores every line at full
// width, 12 bytes a cell, blank cells included (8 tabs x 10k lines of a 100-column pane
// are ~100 MB); here a line is its cells' text in runs of one blessed attribute, trailing
// blanks dropped (~100-200 bytes a line). Lines are archived as xterm drops them, oldest
// first, up to a cap. Pure data: it must never touch the emulator's internals (xterm.ts
// does that) nor a screen.

import { cellAttr, DEFAULT_ATTR, type BlessedRow } from './cells.js';
import type { IBufferCell, IBufferLine } from './xterm.js';

/**
 * One archived line: [attr, text, attr, text, ...]. A run's text is a string when every cell
 * in it is one UTF-16 unit wide one column (the common case), else an array of cell strings
 * where the second half of a wide character is ''.
 */
export interface ArchivedLine {
  wrapped: boolean;
  runs: (number | string | string[])[];
}

export function archiveLine(line: IBufferLine, cell: IBufferCell): ArchivedLine {
  let end = line.length;
  // Trailing default blanks carry nothing.
  while (end > 0) {
    line.getCell(end - 1, cell);
    const c = cell.getChars();
    if ((c !== '' && c !== ' ') || cell.getWidth() !== 1 || cellAttr(cell) !== DEFAULT_ATTR) break;
    end--;
  }
  const runs: (number | string | string[])[] = [];
  let attr = -1;
  // Chars gathered in an array and joined once: `s += ch` would leave a rope of one node per
  // character (V8 cons strings, ~32 bytes each) alive in the history.
  let simple: string[] = [];
  let cells: string[] | undefined;
  const flush = () => {
    if (attr < 0) return;
    runs.push(attr, cells ?? simple.join(''));
  };
  for (let x = 0; x < end; x++) {
    line.getCell(x, cell);
    const a = cellAttr(cell);
    const w = cell.getWidth();
    const ch = w === 0 ? '' : cell.getChars() || ' ';
    if (a !== attr) {
      flush();
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
  flush();
  return { wrapped: line.isWrapped, runs };
}

/** Plain text of an archived line, trailing blanks trimmed. */
export function archivedText(l: ArchivedLine): string {
  let out = '';
  for (let i = 1; i < l.runs.length; i += 2) {
    const t = l.runs[i] as string | string[];
    out += typeof t === 'string' ? t : t.join('');
  }
  return out.replace(/\s+$/, '');
}

/** Paint an archived line into a blessed row, like paintRow does for a live one. */
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
  for (let i = 0; i < l.runs.length; i += 2) {
    const attr = l.runs[i] as number;
    const t = l.runs[i + 1] as string | string[];
    if (typeof t === 'string') for (let k = 0; k < t.length; k++) put(attr, t[k]!);
    else for (const ch of t) put(attr, ch);
  }
  while (x < width) put(DEFAULT_ATTR, ' ');
  if (changed) dest.dirty = true;
  return changed;
}

/** A bounded list of archived lines; `dropped` counts lines that fell off its start. */
export class History {
  private lines: ArchivedLine[] = [];
  private start = 0;
  dropped = 0;

  constructor(public cap: number) {}

  get length(): number {
    return this.lines.length - this.start;
  }

  push(l: ArchivedLine): void {
    if (this.cap <= 0) {
      this.dropped++;
      return;
    }
    this.lines.push(l);
    if (this.length > this.cap) {
      this.start++;
      this.dropped++;
      // Compact now and then instead of shifting the array on every line.
      if (this.start > 4096 && this.start > this.lines.length / 2) {
        this.lines = this.lines.slice(this.start);
        this.start = 0;
      }
    }
  }

  get(i: number): ArchivedLine | undefined {
    return i >= 0 && i < this.length ? this.lines[this.start + i] : undefined;
  }

  clear(): void {
    this.dropped += this.length;
    this.lines = [];
    this.start = 0;
  }
}
