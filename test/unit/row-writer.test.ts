// The row writer: the bytes for one pane row, replayed into a second emulator (the terminal
// the user sits at) to see what a person would see, including a terminal that joins emoji
// sequences into one glyph (as kitty or WezTerm do) and rows an overlay partly covers.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_ATTR, type BlessedRow } from '../../src/tui/cells.js';
import { openLink, RowWriter } from '../../src/tui/row-writer.js';
import type { TerminalCaps } from '../../src/tui/terminal-caps.js';
import { createTerminal, type Terminal } from '../../src/tui/xterm.js';
import { hyperlinks } from '../../src/tui/xterm-cells.js';
import { registerGraphemeWidths } from '../helpers/grapheme-width.js';

const s = suite('row-writer');

const TRUECOLOR: TerminalCaps = { truecolor: true, colors: 256, dim: true, italic: true, strikethrough: true, styledUnderline: true, hyperlinks: true };
const write = (t: Terminal, data: string) => new Promise<void>((r) => t.write(data, r));
const FAMILY = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';

/** The program's emulator after `data`, and its first line. */
async function program(data: string, cols = 30) {
  const term = createTerminal(cols, 3, 0);
  await write(term, data);
  const buf = term.buffer.active;
  return { term, line: buf.getLine(0)!, cell: buf.getNullCell() };
}

/** A terminal the user sits at: Unicode 11 like baton's emulator, or joining emoji sequences. */
function outer(cols = 30, joins = false): Terminal {
  const t = createTerminal(cols, 3, 0);
  if (joins) registerGraphemeWidths(t);
  return t;
}

const text = (t: Terminal, y = 0) => t.buffer.active.getLine(y)!.translateToString(true);
const charAt = (t: Terminal, x: number, y = 0) => t.buffer.active.getLine(y)!.getCell(x)!.getChars();

s('a plain row: a cursor move to its start, the text, the blank tail erased', async () => {
  const { line, cell } = await program('hello');
  const out = new RowWriter(TRUECOLOR).line(line, cell, { y: 4, x0: 0, width: 30, toEdge: true }).bytes;
  assert.is(out, '\x1b[5;1H\x1b[0mhello\x1b[K');
});

s('a row that does not reach the right edge writes its blanks instead of erasing', async () => {
  const { line, cell } = await program('hi');
  const out = new RowWriter(TRUECOLOR).line(line, cell, { y: 0, x0: 2, width: 5, toEdge: false }).bytes;
  assert.is(out, '\x1b[1;3H\x1b[0mhi   ');
});

for (const joins of [false, true]) {
  s(
    `a ZWJ sequence (terminal ${joins ? 'joins it into one glyph' : 'draws each emoji'}): what follows lands where the emulator has it, nothing old survives`,
    async () => {
      const { line, cell } = await program(`ZWJ:|${FAMILY}\x1b[20GX|`);
      const o = outer(30, joins);
      // What the terminal showed before: a longer row.
      await write(o, 'abcdefghijklmnopqrstuvwxyz0123');
      await write(o, new RowWriter(TRUECOLOR).line(line, cell, { y: 0, x0: 0, width: 30, toEdge: true }).bytes);
      assert.is(charAt(o, 19), 'X');
      assert.is(charAt(o, 20), '|');
      const rest = text(o).replace(/^ZWJ:\|/, '');
      assert.not.match(rest, /[a-z0-9]/, `no old character left: ${JSON.stringify(text(o))}`);
    },
  );
}

s('a presentation selector, a skin tone and a flag: the next cell is placed absolutely', async () => {
  const { line, cell } = await program('\u2764\uFE0Fa\u{1F44D}\u{1F3FD}b\u{1F1FA}\u{1F1F8}c');
  const out = new RowWriter(TRUECOLOR).line(line, cell, { y: 0, x0: 0, width: 30, toEdge: true }).bytes;
  for (const joins of [false, true]) {
    const o = outer(30, joins);
    await write(o, out);
    // Columns as baton's emulator counts them: ❤️ 1, a, 👍 2, 🏽 2, b, 🇺 1, 🇸 1, c.
    assert.is(charAt(o, 1), 'a', `joins=${joins}`);
    assert.is(charAt(o, 6), 'b', `joins=${joins}`);
    assert.is(charAt(o, 9), 'c', `joins=${joins}`);
  }
});

s('plain text costs no cursor moves; an uncertain cell costs one after it', async () => {
  const { line, cell } = await program('abc \u2192 def');
  const out = new RowWriter(TRUECOLOR).line(line, cell, { y: 0, x0: 0, width: 30, toEdge: true }).bytes;
  assert.is(out, '\x1b[1;1H\x1b[0mabc  \x1b[1;5H\u2192\x1b[1;6H def\x1b[K');
});

s('attributes and colours: runs share one SGR; a change starts from a reset', async () => {
  const { line, cell } = await program('\x1b[1;38;2;1;2;3mab\x1b[0;3mc\x1b[0md');
  const out = new RowWriter(TRUECOLOR).line(line, cell, { y: 0, x0: 0, width: 30, toEdge: true }).bytes;
  assert.is(out, '\x1b[1;1H\x1b[0;1;38;2;1;2;3mab\x1b[0;3mc\x1b[0md\x1b[K');
});

s('a coloured blank tail is written, not erased; a trailing default blank after it is erased', async () => {
  const { line, cell } = await program('a\x1b[41m  \x1b[0m');
  const out = new RowWriter(TRUECOLOR).line(line, cell, { y: 0, x0: 0, width: 10, toEdge: true }).bytes;
  assert.is(out, '\x1b[1;1H\x1b[0ma\x1b[0;41m  \x1b[0m\x1b[K');
});

s('a hyperlink is opened around its cells and closed after them, with its id', async () => {
  const { term, line, cell } = await program('\x1b]8;id=x1;https://e.com/p\x1b\\ab\x1b]8;;\x1b\\c');
  const out = new RowWriter(TRUECOLOR).line(line, cell, { y: 0, x0: 0, width: 10, toEdge: true }, hyperlinks(term)).bytes;
  assert.is(out, '\x1b[1;1H\x1b]8;id=x1;https://e.com/p\x1b\\\x1b[0mab\x1b]8;;\x1b\\c\x1b[K');
  const o = outer(10);
  await write(o, out);
  const oc = o.buffer.active.getLine(0)!.getCell(0)!;
  assert.ok(oc.isUnderline(), 'the outer xterm.js marks its link');
});

s('a terminal that would print an unknown OSC (the Linux console) gets no link', async () => {
  const { term, line, cell } = await program('\x1b]8;;https://e.com/p\x1b\\ab\x1b]8;;\x1b\\c');
  const out = new RowWriter({ ...TRUECOLOR, hyperlinks: false }).line(line, cell, { y: 0, x0: 0, width: 10, toEdge: true }, hyperlinks(term)).bytes;
  assert.is(out, '\x1b[1;1H\x1b[0mabc\x1b[K');
});

s('a link that cannot be passed on safely is left out; a bad id is dropped', () => {
  assert.is(openLink({ uri: 'https://e.com/\x07x' }), '');
  assert.is(openLink({ uri: 'https://e.com/\x1b]0;pwned' }), '');
  assert.is(openLink({ uri: 'https://e.com/\u009b31m' }), '');
  assert.is(openLink({ uri: 'https://e.com/', id: 'a;b' }), '\x1b]8;;https://e.com/\x1b\\');
  assert.is(openLink({ uri: 'https://e.com/', id: 'ok-1' }), '\x1b]8;id=ok-1;https://e.com/\x1b\\');
  assert.is(openLink(undefined), '');
});

s('covered columns are left alone; the cell after them is placed absolutely; no erase', async () => {
  const { line, cell } = await program('abcdefgh');
  const covered = new Uint8Array(10);
  covered[2] = covered[3] = 1;
  const out = new RowWriter(TRUECOLOR).line(line, cell, { y: 0, x0: 0, width: 10, toEdge: true, covered }).bytes;
  assert.is(out, '\x1b[1;1H\x1b[0mab\x1b[1;5Hefgh  ');
});

s('a wide character half under an overlay: its other half is drawn blank', async () => {
  const { line, cell } = await program('a\u65e5b');
  const covered = new Uint8Array(6);
  covered[2] = 1;
  const out = new RowWriter(TRUECOLOR).line(line, cell, { y: 0, x0: 0, width: 6, toEdge: false, covered }).bytes;
  assert.is(out, '\x1b[1;1H\x1b[0ma \x1b[1;4Hb  ');
});

s('an uncertain one-column cell in the last column is drawn blank (drawn wide it would wrap)', async () => {
  const { line, cell } = await program('abcd\u2192');
  const out = new RowWriter(TRUECOLOR).line(line, cell, { y: 0, x0: 0, width: 5, toEdge: true }).bytes;
  assert.is(out, '\x1b[1;1H\x1b[0mabcd ');
});

s('a blessed row: its attributes, wide characters once, the blank tail erased', () => {
  const attr = (flags: number, fg: number, bg: number) => (flags << 18) | (fg << 9) | bg;
  const row: BlessedRow = [
    [attr(1, 196, 0x1ff), 'a'],
    [DEFAULT_ATTR, '\u65e5'],
    [DEFAULT_ATTR, ''],
    [DEFAULT_ATTR, ' '],
    [DEFAULT_ATTR, ' '],
  ];
  const out = new RowWriter(TRUECOLOR).blessed(row, 0, { y: 1, x0: 0, width: 5, toEdge: true }).bytes;
  assert.is(out, '\x1b[2;1H\x1b[0;1;38;5;196ma\x1b[0m\u65e5\x1b[K');
});

s("scroll mode's highlight: the columns in range have their inverse flipped, blanks past the text too", async () => {
  const { line, cell } = await program('ab\x1b[7mcd\x1b[0me');
  const out = new RowWriter(TRUECOLOR).line(line, cell, { y: 0, x0: 0, width: 8, toEdge: true }, undefined, { start: 1, end: 7 }).bytes;
  assert.is(out, '\x1b[1;1H\x1b[0ma\x1b[0;7mb\x1b[0mcd\x1b[0;7me  \x1b[0m\x1b[K');
});

s('a blank row is one erase', () => {
  assert.is(new RowWriter(TRUECOLOR).line(undefined, undefined, { y: 2, x0: 0, width: 8, toEdge: true }).bytes, '\x1b[3;1H\x1b[0m\x1b[K');
});

/** The row `before`, then `after` written over it given the first's signature: the bytes, and what the terminal shows. */
async function rewrite(before: string, after: string, joins = false) {
  const writer = new RowWriter(TRUECOLOR);
  const place = { y: 0, x0: 0, width: 30, toEdge: true };
  const a = await program(before);
  const first = writer.line(a.line, a.cell, place);
  const b = await program(after);
  const second = writer.line(b.line, b.cell, place, undefined, undefined, first.signature);
  const o = outer(30, joins);
  await write(o, first.bytes + second.bytes);
  // The same row written whole on a fresh terminal: what the span must amount to.
  const whole = outer(30, joins);
  await write(whole, writer.line(b.line, b.cell, place).bytes);
  return { bytes: second.bytes, shown: text(o), expected: text(whole), o, whole };
}

s('given its last signature, only the changed span of a row is written', async () => {
  const r = await rewrite('counter: 41 items, all well', 'counter: 42 items, all well');
  assert.is(r.bytes, '\x1b[1;11H\x1b[0m2');
  assert.is(r.shown, 'counter: 42 items, all well');
});

s('nothing changed, nothing written', async () => {
  assert.is((await rewrite('same row', 'same row')).bytes, '');
});

s('a span that ends in the blank tail is written through to the erase; colours start from their own SGR', async () => {
  let r = await rewrite('abc \x1b[31mred long tail', 'abc \x1b[31mre');
  assert.is(r.bytes, '\x1b[1;7H\x1b[0m\x1b[K');
  assert.is(r.shown, r.expected);
  r = await rewrite('abc \x1b[31mred\x1b[0m x', 'abc \x1b[31mra\x1b[0mz');
  assert.is(r.bytes, '\x1b[1;6H\x1b[0;31ma\x1b[0mz\x1b[K');
  assert.is(r.shown, r.expected);
  r = await rewrite('abc \x1b[31mred\x1b[0m x', 'abc \x1b[31mrad\x1b[0m x');
  assert.is(r.bytes, '\x1b[1;6H\x1b[0;31ma\x1b[0m');
  r = await rewrite('abcdef', 'abc');
  assert.is(r.bytes, '\x1b[1;4H\x1b[0m\x1b[K');
});

for (const joins of [false, true]) {
  s(`changed spans around a ZWJ sequence (terminal ${joins ? 'joins' : 'does not join'}): the terminal shows what a whole write shows`, async () => {
    for (const [before, after] of [
      [`ZWJ:|${FAMILY}\x1b[20GX|`, `ZWJ:|${FAMILY}\x1b[20GY|`],
      [`ZWJ:|${FAMILY}\x1b[20GX|`, 'ZWJ:|plain text instead'],
      ['ZWJ:|plain text instead, long', `ZWJ:|${FAMILY}\x1b[20GX|`],
      [`a \u65e5 b`, `a \u65e6 b`],
    ]) {
      const r = await rewrite(before!, after!, joins);
      assert.is(r.shown, r.expected, JSON.stringify([before, after]));
      for (let x = 0; x < 30; x++) assert.is(charAt(r.o, x), charAt(r.whole, x), `column ${x} of ${JSON.stringify(after)}`);
    }
  });
}

s('a row reaching the edge reads no cell past its last used one, and writes what reading every cell writes', async () => {
  const rows = [
    'hello',
    '',
    '\x1b[31mred\x1b[0m plain',
    '\x1b[44mblue bg tail\x1b[K\x1b[0m',
    'text\x1b[10G\x1b[42m \x1b[0m',
    `wide at the end \u65e5\u672c`,
    '\x1b[7minverse \x1b[0m',
    '\x1b]8;;https://example.com\x1b\\link\x1b]8;;\x1b\\ after',
    'x'.repeat(30),
  ];
  for (const [i, data] of rows.entries()) {
    const { line, cell } = await program(data);
    // The same line through a view that hides xterm's own line object: every cell is read.
    const opaque = { length: line.length, isWrapped: line.isWrapped, getCell: (x: number, c?: typeof cell) => line.getCell(x, c) } as typeof line;
    const fast = new RowWriter(TRUECOLOR);
    const slow = new RowWriter(TRUECOLOR);
    for (const place of [
      { y: 1, x0: 0, width: 30, toEdge: true },
      { y: 1, x0: 2, width: 28, toEdge: true },
    ]) {
      const a = fast.line(line, cell, place);
      const b = slow.line(opaque, cell, place);
      assert.is(a.bytes, b.bytes, `${i}: ${JSON.stringify(data)}`);
      assert.equal(a.signature, b.signature, `${i}: signature`);
      // Against the row as it was, and against another row: the same changed span.
      const { line: other } = await program(rows[(i + 1) % rows.length]!);
      const before = fast.line(other, cell, place).signature;
      const beforeSlow = slow.line(other, cell, place).signature;
      assert.is(fast.line(line, cell, place, undefined, undefined, before).bytes, slow.line(opaque, cell, place, undefined, undefined, beforeSlow).bytes);
    }
  }
});

s.run();
