// Markdown as an agent writes it, rendered for a terminal in baton's ACP view: headings
// (bold, coloured), bullet and numbered lists with hanging indents, block quotes, fenced code
// blocks (kept as written, one colour, never re-wrapped but cut at the width), inline
// `code`, **bold** and *italic*, and tables (rows as written, wrapped like text when wider
// than the screen). Not a full CommonMark parser: what it does not know is shown as text.
// Pure; agent text enters only through span() (control sequences stripped).

import { C, type Line, type Span, type Style, clip, span, wrap } from './acp-view-text.js';

const CODE: Style = { fg: C.cyan };
const HEADING: Style = { bold: true, fg: C.blue };

/** Inline markup of one line of text: `code`, **bold**, *italic* / _italic_. */
export function inline(text: string, base?: Style): Span[] {
  const out: Span[] = [];
  const re = /`([^`]+)`|\*\*([^*]+)\*\*|(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])|(?<![\w_])_([^_\s][^_]*)_(?![\w_])/g;
  let at = 0;
  for (const m of text.matchAll(re)) {
    if (m.index! > at) out.push(span(text.slice(at, m.index), base));
    if (m[1] !== undefined) out.push(span(m[1], { ...base, ...CODE }));
    else if (m[2] !== undefined) out.push(span(m[2], { ...base, bold: true }));
    else out.push(span(m[3] ?? m[4]!, { ...base, italic: true }));
    at = m.index! + m[0].length;
  }
  if (at < text.length) out.push(span(text.slice(at), base));
  return out;
}

/** Markdown text as view lines `width` cells wide. */
export function markdown(text: string, width: number): Line[] {
  const out: Line[] = [];
  let fence: string | undefined;
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    const fenceMark = /^\s*(```+|~~~+)/.exec(raw);
    if (fence !== undefined) {
      if (fenceMark && raw.trim().startsWith(fence)) {
        fence = undefined;
        continue;
      }
      out.push(clip([span('  '), span(raw, CODE)], width));
      continue;
    }
    if (fenceMark) {
      fence = fenceMark[1]!;
      const lang = raw.trim().slice(fence.length).trim();
      if (lang) out.push([span(`  ${lang}`, { dim: true })]);
      continue;
    }
    out.push(...block(raw, width));
  }
  return out;
}

function block(raw: string, width: number): Line[] {
  const heading = /^(#{1,6})\s+(.*)$/.exec(raw);
  if (heading) return wrap(inline(heading[2]!, { ...HEADING, underline: heading[1]!.length === 1 }), width);
  const bullet = /^(\s*)([-*+])\s+(.*)$/.exec(raw);
  if (bullet) {
    const pad = ' '.repeat(bullet[1]!.length);
    const task = /^\[([ xX])\]\s+(.*)$/.exec(bullet[3]!);
    const mark = task ? (task[1] === ' ' ? '☐ ' : '☑ ') : '• ';
    return wrap([span(pad + mark, { fg: C.yellow }), ...inline(task ? task[2]! : bullet[3]!)], width, [span(`${pad}  `)]);
  }
  const numbered = /^(\s*)(\d+[.)])\s+(.*)$/.exec(raw);
  if (numbered) {
    const lead = `${numbered[1]}${numbered[2]} `;
    return wrap([span(lead, { fg: C.yellow }), ...inline(numbered[3]!)], width, [span(' '.repeat(lead.length))]);
  }
  const quote = /^\s*>\s?(.*)$/.exec(raw);
  if (quote) return wrap([span('│ ', { dim: true }), ...inline(quote[1]!, { italic: true })], width, [span('│ ', { dim: true })]);
  if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(raw)) return [[span('─'.repeat(Math.max(4, Math.min(width, 40))), { dim: true })]];
  if (/^\s*\|.*\|\s*$/.test(raw)) {
    if (/^\s*\|[\s:|-]+\|\s*$/.test(raw)) return [];
    const cells = raw
      .trim()
      .slice(1, -1)
      .split('|')
      .map((c) => c.trim());
    const row: Span[] = [];
    cells.forEach((c, i) => {
      if (i) row.push(span(' │ ', { dim: true }));
      row.push(...inline(c));
    });
    return wrap(row, width, [span('  ')]);
  }
  return wrap(inline(raw), width);
}
