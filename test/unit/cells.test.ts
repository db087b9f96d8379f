import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_ATTR, paintRow, type BlessedRow } from '../../src/tui/cells.js';
import { nearest256 } from '../../src/tui/color.js';
import { createTerminal } from '../../src/tui/xterm.js';

const s = suite('cells');

async function lineOf(text: string, cols = 20) {
  const term = createTerminal(cols, 2, 0);
  await new Promise<void>((r) => term.write(text, r));
  const buf = term.buffer.active;
  return { line: buf.getLine(0)!, cell: buf.getNullCell(), term };
}

const blank = (n: number): BlessedRow => Array.from({ length: n }, () => [DEFAULT_ATTR, ' '] as [number, string]);
const attr = (flags: number, fg: number, bg: number) => (flags << 18) | (fg << 9) | bg;

s('16 and 256 colours, bold, underline, inverse become blessed attributes', async () => {
  const { line, cell } = await lineOf('\x1b[31ma\x1b[0;42mb\x1b[0;38;5;208mc\x1b[0;1;4;7md\x1b[0;95me\x1b[0mf');
  const row = blank(6);
  assert.ok(paintRow(line, cell, row, 0, 6));
  assert.equal(row.slice(0, 6), [
    [attr(0, 1, 0x1ff), 'a'],
    [attr(0, 0x1ff, 2), 'b'],
    [attr(0, 208, 0x1ff), 'c'],
    [attr(1 | 2 | 8, 0x1ff, 0x1ff), 'd'],
    [attr(0, 13, 0x1ff), 'e'],
    [DEFAULT_ATTR, 'f'],
  ]);
  assert.ok(row.dirty);
});

s('truecolour is reduced to the nearest xterm colour', async () => {
  const { line, cell } = await lineOf('\x1b[38;2;30;30;200;48;2;250;128;0mx');
  const row = blank(1);
  paintRow(line, cell, row, 0, 1);
  assert.equal(row[0], [attr(0, nearest256(30, 30, 200), nearest256(250, 128, 0)), 'x']);
});

s("a wide character's second half is '' so nothing is drawn twice; cells past the line are blank", async () => {
  const { line, cell } = await lineOf('日😀x', 5);
  const row = blank(10);
  paintRow(line, cell, row, 2, 8);
  assert.equal(
    row.map((c) => c[1]),
    [' ', ' ', '日', '', '😀', '', 'x', ' ', ' ', ' '],
  );
});

s('painting the same content again changes nothing; an inverted range flips the inverse flag', async () => {
  const { line, cell } = await lineOf('abc');
  const row = blank(3);
  paintRow(line, cell, row, 0, 3);
  row.dirty = false;
  assert.not.ok(paintRow(line, cell, row, 0, 3));
  assert.not.ok(row.dirty);
  assert.ok(paintRow(line, cell, row, 0, 3, { start: 1, end: 2 }));
  assert.is(row[1]![0], attr(8, 0x1ff, 0x1ff));
  assert.is(row[0]![0], DEFAULT_ATTR);
});

s.run();
