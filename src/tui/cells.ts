// Emulator rows -> blessed-style cells, for scroll mode and the compact history (the live
// pane is drawn by row-writer.ts with every attribute). A cell is [attr, ch] with
// attr = flags << 18 | fg << 9 | bg (0x1ff = default colour; flags: 1 bold, 2 underline,
// 4 blink, 8 inverse, 16 invisible). Italic, dim and strikethrough have no flag here and
// are dropped; truecolour is reduced to the nearest xterm colour. Writes cells only; it
// must never write to a terminal.

import { nearest256Packed } from './color.js';
import type { IBufferCell, IBufferLine } from './xterm.js';

export type BlessedCell = [number, string];
export type BlessedRow = BlessedCell[] & { dirty?: boolean };

export const DEFAULT_ATTR = (0x1ff << 9) | 0x1ff;
export const INVERSE = 8;

export function cellAttr(cell: IBufferCell): number {
  let flags = 0;
  if (cell.isBold()) flags |= 1;
  if (cell.isUnderline()) flags |= 2;
  if (cell.isBlink()) flags |= 4;
  if (cell.isInverse()) flags |= 8;
  if (cell.isInvisible()) flags |= 16;
  const fg = cell.isFgDefault() ? 0x1ff : cell.isFgRGB() ? nearest256Packed(cell.getFgColor()) : cell.getFgColor() & 0xff;
  const bg = cell.isBgDefault() ? 0x1ff : cell.isBgRGB() ? nearest256Packed(cell.getBgColor()) : cell.getBgColor() & 0xff;
  return (flags << 18) | (fg << 9) | bg;
}

/**
 * Copy `width` cells of an emulator line into a blessed row starting at `x0`. Cells past the
 * line's end are blank. The second half of a wide character becomes '' so that neither
 * blessed nor the outer terminal advances for it twice. Returns whether anything changed.
 */
export function paintRow(
  line: IBufferLine | undefined,
  cell: IBufferCell,
  dest: BlessedRow,
  x0: number,
  width: number,
  invert?: { start: number; end: number },
): boolean {
  let changed = false;
  const cols = line ? line.length : 0;
  for (let x = 0; x < width; x++) {
    const d = dest[x0 + x];
    if (!d) break;
    let attr = DEFAULT_ATTR;
    let ch = ' ';
    if (x < cols && line!.getCell(x, cell)) {
      const w = cell.getWidth();
      ch = w === 0 ? '' : cell.getChars() || ' ';
      attr = cellAttr(cell);
    }
    if (invert && x >= invert.start && x < invert.end) attr ^= INVERSE << 18;
    if (d[0] !== attr || d[1] !== ch) {
      d[0] = attr;
      d[1] = ch;
      changed = true;
    }
  }
  if (changed) dest.dirty = true;
  return changed;
}
