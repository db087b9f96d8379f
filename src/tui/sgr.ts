// SGR (Select Graphic Rendition) sequences for the terminal the user sits at: from an
// emulator cell's full attributes (truecolour, dim, italic, strikethrough, overline, styled
// and coloured underlines), or from one of blessed's packed attributes (scroll mode and
// history, which keep only those). What the terminal lacks (TerminalCaps) is mapped:
// truecolour to its palette by nearest colour, styled underlines to a plain one, the rest
// left out. Every sequence starts from a reset, so a cell never inherits another's looks.
// Pure; it writes nothing.

import { nearest256Packed, nearestBasic } from './color.js';
import type { TerminalCaps } from './terminal-caps.js';
import type { IBufferCell } from './xterm.js';
import { cellBgWord, cellFgWord, underlineColor, underlineStyle } from './xterm-cells.js';

/** What a cell with no attributes at all needs. */
export const SGR_RESET = '\x1b[0m';

/** xterm's colour modes in a colour word (bits 24-25). */
const CM_MASK = 0x3000000;
const CM_P256 = 0x2000000;
const CM_RGB = 0x3000000;
const HAS_EXTENDED = 1 << 28;

/**
 * The parameters for one colour: `base` 30 (foreground), 40 (background) or 58
 * (underline, which has no short forms). `mode`/`value` as xterm encodes them.
 */
function colorParams(base: 30 | 40 | 58, mode: number, value: number, caps: TerminalCaps): string {
  const ext = base === 30 ? '38' : base === 40 ? '48' : '58';
  if (mode === CM_RGB) {
    if (caps.truecolor) return `${ext};2;${(value >> 16) & 255};${(value >> 8) & 255};${value & 255}`;
    if (caps.colors !== 256) return basic(base, nearestBasic(value, true, caps.colors));
    return indexed(base, ext, nearest256Packed(value));
  }
  const index = value & 255;
  if (caps.colors !== 256 && !caps.truecolor) return basic(base, nearestBasic(index, false, caps.colors));
  return indexed(base, ext, index);
}

function indexed(base: 30 | 40 | 58, ext: string, index: number): string {
  return index < 16 && base !== 58 ? basic(base, index) : `${ext};5;${index}`;
}

function basic(base: 30 | 40 | 58, index: number): string {
  if (base === 58) return `58;5;${index}`;
  return String(index < 8 ? base + index : base + 60 + index - 8);
}

/**
 * The SGR sequence that draws like `cell` (see TerminalCaps for what is kept); `invert`
 * flips its inverse attribute (scroll mode's selection and search matches).
 */
export function cellSgr(cell: IBufferCell, caps: TerminalCaps, invert = false): string {
  let p = '0';
  if (cell.isBold()) p += ';1';
  if (cell.isDim() && caps.dim) p += ';2';
  if (cell.isItalic() && caps.italic) p += ';3';
  const ul = underlineStyle(cell);
  if (ul) p += ul > 1 && caps.styledUnderline ? `;4:${ul}` : ';4';
  if (cell.isBlink()) p += ';5';
  if (!cell.isInverse() !== !invert) p += ';7';
  if (cell.isInvisible()) p += ';8';
  if (cell.isStrikethrough() && caps.strikethrough) p += ';9';
  if (cell.isOverline() && caps.styledUnderline) p += ';53';
  const fg = cellFgWord(cell);
  const bg = cellBgWord(cell);
  if (fg & CM_MASK) p += ';' + colorParams(30, fg & CM_MASK, fg & 0xffffff, caps);
  if (bg & CM_MASK) p += ';' + colorParams(40, bg & CM_MASK, bg & 0xffffff, caps);
  if (ul && caps.styledUnderline) {
    const uc = underlineColor(cell);
    if (uc & CM_MASK) p += ';' + colorParams(58, uc & CM_MASK, uc & 0xffffff, caps);
  }
  return p === '0' ? SGR_RESET : `\x1b[${p}m`;
}

/**
 * cellSgr, remembered by the cell's attribute words: a screen has few distinct looks, and a
 * flood draws the same ones over and over. Cells with extended attributes (styled
 * underlines, links) are computed each time; they are rare.
 */
export class SgrCache {
  private readonly byWords = new Map<number, Map<number, string>>();
  private size = 0;

  constructor(readonly caps: TerminalCaps) {}

  of(cell: IBufferCell, invert = false): string {
    if (invert) return cellSgr(cell, this.caps, true);
    const fg = cellFgWord(cell);
    const bg = cellBgWord(cell);
    if (bg & HAS_EXTENDED) return cellSgr(cell, this.caps);
    let inner = this.byWords.get(fg);
    if (!inner) {
      inner = new Map();
      this.byWords.set(fg, inner);
    }
    let s = inner.get(bg);
    if (s === undefined) {
      // A truecolour gradient could grow this without bound.
      if (++this.size > 4096) {
        this.byWords.clear();
        this.size = 1;
        inner = new Map();
        this.byWords.set(fg, inner);
      }
      s = cellSgr(cell, this.caps);
      inner.set(bg, s);
    }
    return s;
  }
}

/** blessed's packed attribute (flags << 18 | fg << 9 | bg, 0x1ff = default) as SGR. */
export function blessedSgr(attr: number, caps: TerminalCaps): string {
  const flags = attr >> 18;
  const fg = (attr >> 9) & 0x1ff;
  const bg = attr & 0x1ff;
  let p = '0';
  if (flags & 1) p += ';1';
  if (flags & 2) p += ';4';
  if (flags & 4) p += ';5';
  if (flags & 8) p += ';7';
  if (flags & 16) p += ';8';
  if (fg !== 0x1ff) p += ';' + colorParams(30, CM_P256, fg, caps);
  if (bg !== 0x1ff) p += ';' + colorParams(40, CM_P256, bg, caps);
  return p === '0' ? SGR_RESET : `\x1b[${p}m`;
}
