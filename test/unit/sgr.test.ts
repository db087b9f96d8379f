// SGR from an emulator cell's full attributes, for terminals with and without truecolour,
// styled underlines and the rest; and which cells may be drawn at another width.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { blessedSgr, cellSgr, SgrCache, SGR_RESET } from '../../src/tui/sgr.js';
import { uncertainWidth } from '../../src/tui/cell-width.js';
import type { TerminalCaps } from '../../src/tui/terminal-caps.js';
import { createTerminal } from '../../src/tui/xterm.js';

const s = suite('sgr');

const FULL: TerminalCaps = { truecolor: true, colors: 256, dim: true, italic: true, strikethrough: true, styledUnderline: true, hyperlinks: true };
const C256: TerminalCaps = { ...FULL, truecolor: false, styledUnderline: false };
const C16: TerminalCaps = { ...C256, colors: 16 };
const BARE: TerminalCaps = { ...C256, dim: false, italic: false, strikethrough: false };

/** The SGR of the first cell after `data`. */
async function sgrOf(data: string, caps: TerminalCaps): Promise<string> {
  const term = createTerminal(10, 2, 0);
  await new Promise<void>((r) => term.write(data + 'x', r));
  const cell = term.buffer.active.getLine(0)!.getCell(0)!;
  return cellSgr(cell, caps);
}

s('each attribute passes through where the terminal has it', async () => {
  assert.is(await sgrOf('', FULL), SGR_RESET);
  assert.is(await sgrOf('\x1b[1;2;3;5;7;8;9;53m', FULL), '\x1b[0;1;2;3;5;7;8;9;53m');
  assert.is(await sgrOf('\x1b[4m', FULL), '\x1b[0;4m');
  assert.is(await sgrOf('\x1b[4:3m', FULL), '\x1b[0;4:3m');
  assert.is(await sgrOf('\x1b[21m', FULL), '\x1b[0;4:2m');
  assert.is(await sgrOf('\x1b[4:3;58;5;9m', FULL), '\x1b[0;4:3;58;5;9m');
  assert.is(await sgrOf('\x1b[4;58;2;1;2;3m', FULL), '\x1b[0;4;58;2;1;2;3m');
});

s('what the terminal lacks is left out, and a styled underline drawn plain', async () => {
  assert.is(await sgrOf('\x1b[1;2;3;9;53m', BARE), '\x1b[0;1m');
  assert.is(await sgrOf('\x1b[4:3;58;5;9m', C256), '\x1b[0;4m');
});

s('colours: 16 as short codes, 256 as 38;5, truecolour kept or mapped to the nearest', async () => {
  assert.is(await sgrOf('\x1b[31;102m', FULL), '\x1b[0;31;102m');
  assert.is(await sgrOf('\x1b[38;5;208;48;5;17m', FULL), '\x1b[0;38;5;208;48;5;17m');
  assert.is(await sgrOf('\x1b[38;2;30;30;200;48;2;250;128;0m', FULL), '\x1b[0;38;2;30;30;200;48;2;250;128;0m');
  assert.is(await sgrOf('\x1b[38;2;30;30;200;48;2;250;128;0m', C256), '\x1b[0;38;5;20;48;5;208m');
  // A 16-colour terminal: the nearest of its 16 (a dark blue is blue, not black or grey).
  assert.is(await sgrOf('\x1b[38;2;30;30;200m', C16), '\x1b[0;34m');
  assert.is(await sgrOf('\x1b[38;5;196m', C16), '\x1b[0;91m');
  assert.is(await sgrOf('\x1b[38;2;30;30;200m', { ...C16, colors: 8 }), '\x1b[0;34m');
});

s("the cache answers as cellSgr does, and by the cell's attributes alone", async () => {
  const term = createTerminal(20, 2, 0);
  await new Promise<void>((r) => term.write('\x1b[1;31ma\x1b[0;3mb\x1b[0;1;31mc\x1b[0;4:3md', r));
  const cache = new SgrCache(FULL);
  const line = term.buffer.active.getLine(0)!;
  const got = [0, 1, 2, 3].map((x) => cache.of(line.getCell(x)!));
  assert.equal(got, ['\x1b[0;1;31m', '\x1b[0;3m', '\x1b[0;1;31m', '\x1b[0;4:3m']);
});

s("blessed's attributes: flags and palette colours", () => {
  const attr = (flags: number, fg: number, bg: number) => (flags << 18) | (fg << 9) | bg;
  assert.is(blessedSgr(attr(0, 0x1ff, 0x1ff), FULL), SGR_RESET);
  assert.is(blessedSgr(attr(1 | 2 | 8, 1, 0x1ff), FULL), '\x1b[0;1;4;7;31m');
  assert.is(blessedSgr(attr(0, 208, 12), FULL), '\x1b[0;38;5;208;104m');
});

s('which cells may be drawn at another width', () => {
  for (const certain of ['a', ' ', 'é', 'e\u0301', '\u65e5', '\u{1F600}', '\u2500', '\u2502', '\u0416', '\u03a9', '\u00e9', '\u2026']) {
    assert.not.ok(uncertainWidth(certain), `${JSON.stringify(certain)} is certain`);
  }
  for (const uncertain of [
    '\u{1F468}\u200D',
    '\u2764\uFE0F',
    '\u{1F3FD}',
    '\u{1F1FA}',
    '#\uFE0F\u20E3',
    '\u2192',
    '\u25CF',
    '\u2615',
    '\uE0B0',
    '\u{F0001}',
    '\uFFFD',
    '\u263A\uFE0F',
  ]) {
    assert.ok(uncertainWidth(uncertain), `${JSON.stringify(uncertain)} is uncertain`);
  }
});

s.run();
