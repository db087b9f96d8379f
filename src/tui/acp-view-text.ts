// Styled text for baton's ACP view: a line is a list of spans (text + style), measured in
// terminal cells, wrapped to a width and turned into SGR bytes. Every text that comes from an
// agent or a tool enters through span(), which strips terminal control sequences, so nothing
// an agent writes can move the cursor or reach the outer terminal. Pure.

import { stripControls } from '../transcript/sanitize.js';

export interface Style {
  fg?: number;
  bg?: number;
  bold?: boolean;
  dim?: boolean;
  italic?: boolean;
  underline?: boolean;
  inverse?: boolean;
}

export interface Span {
  text: string;
  style?: Style;
}

export type Line = Span[];

/** 16-colour palette indices used by the view. */
export const C = { red: 1, green: 2, yellow: 3, blue: 4, magenta: 5, cyan: 6, white: 7, gray: 8, brightRed: 9, brightGreen: 10, brightYellow: 11 } as const;

/** A span of agent or tool text: control sequences removed, tabs as spaces. */
export function span(text: string, style?: Style): Span {
  const clean = stripControls(text).replace(/\t/g, '    ').replace(/\n/g, ' ');
  return style ? { text: clean, style } : { text: clean };
}

function wide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

/** Cells one character takes (0 for combining marks and joiners). */
export function charWidth(ch: string): number {
  const cp = ch.codePointAt(0)!;
  if (cp === 0x200d || (cp >= 0x300 && cp <= 0x36f) || (cp >= 0xfe00 && cp <= 0xfe0f)) return 0;
  return wide(cp) ? 2 : 1;
}

export function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += charWidth(ch);
  return w;
}

export function lineWidth(line: Line): number {
  return line.reduce((n, s) => n + textWidth(s.text), 0);
}

/** Cuts a line to at most `width` cells. */
export function clip(line: Line, width: number): Line {
  const out: Line = [];
  let left = width;
  for (const s of line) {
    if (left <= 0) break;
    let text = '';
    for (const ch of s.text) {
      const w = charWidth(ch);
      if (w > left) {
        left = 0;
        break;
      }
      text += ch;
      left -= w;
    }
    if (text) out.push(s.style ? { text, style: s.style } : { text });
  }
  return out;
}

/**
 * Wraps a line to `width` cells, at spaces where a fair part of the line is left, else
 * mid-word; continuation lines start with `indent` (a list item's hanging indent).
 */
export function wrap(line: Line, width: number, indent: Line = []): Line[] {
  const w = Math.max(4, width);
  const chars: { ch: string; style: Style | undefined }[] = [];
  for (const s of line) for (const ch of s.text) chars.push({ ch, style: s.style });
  const out: Line[] = [];
  let start = 0;
  let first = true;
  const indentW = lineWidth(indent);
  while (start < chars.length || first) {
    const room = first ? w : Math.max(4, w - indentW);
    let end = start;
    let used = 0;
    while (end < chars.length && used + charWidth(chars[end]!.ch) <= room) used += charWidth(chars[end++]!.ch);
    let next = end;
    if (end < chars.length) {
      let sp = end;
      while (sp > start && chars[sp]!.ch !== ' ') sp--;
      // At a space when that leaves a fair part of the line; the space itself is dropped.
      if (sp > start + room / 3) {
        end = sp;
        next = sp + 1;
      }
    }
    const piece = toSpans(chars.slice(start, end));
    out.push(first ? piece : [...indent, ...piece]);
    first = false;
    start = next;
  }
  return out;
}

function toSpans(chars: { ch: string; style: Style | undefined }[]): Line {
  const out: Line = [];
  for (const c of chars) {
    const last = out[out.length - 1];
    if (last && last.style === c.style) last.text += c.ch;
    else out.push(c.style ? { text: c.ch, style: c.style } : { text: c.ch });
  }
  return out;
}

function sgr(style: Style | undefined): string {
  if (!style) return '';
  const codes: number[] = [];
  if (style.bold) codes.push(1);
  if (style.dim) codes.push(2);
  if (style.italic) codes.push(3);
  if (style.underline) codes.push(4);
  if (style.inverse) codes.push(7);
  if (style.fg !== undefined) codes.push(style.fg < 8 ? 30 + style.fg : 90 + style.fg - 8);
  if (style.bg !== undefined) codes.push(style.bg < 8 ? 40 + style.bg : 100 + style.bg - 8);
  return codes.length ? `\x1b[${codes.join(';')}m` : '';
}

/** The bytes that draw a line (styles reset at its end). */
export function lineBytes(line: Line): string {
  let out = '';
  for (const s of line) {
    const on = sgr(s.style);
    out += on ? `${on}${s.text}\x1b[0m` : s.text;
  }
  return out;
}

/** The plain text of a line (for tests and status reading). */
export function lineText(line: Line): string {
  return line.map((s) => s.text).join('');
}
