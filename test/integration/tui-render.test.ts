// What baton's pane renderer sends to the terminal the user sits at, read from that
// terminal's byte stream and from the screen a second emulator rebuilds from it: a row
// whose emoji sequence the terminal joins into one glyph (as kitty or WezTerm do) leaves no
// stale cell after clear, scrolling or the alternate screen; dim, italic, strikethrough,
// styled underlines and truecolour reach a truecolour terminal as the program set them and
// are mapped on a 256-colour one; an OSC 8 link keeps its target; an overlay over the pane
// leaves nothing behind; clients of one server with different terminals all get what every
// one of them can draw. baton runs for real in a PTY, with a plain shell in its tab.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtBaton, openPlainShell, startBatonTui, type BatonTui } from '../helpers/baton-tui.js';
import { TestTerminal } from '../helpers/term.js';
import type { IBufferCell } from '../../src/tui/xterm.js';
import { hyperlinks, linkIdOf, underlineColor, underlineStyle } from '../../src/tui/xterm-cells.js';

/** A printf format that prints `text`: every byte outside printable ASCII as an octal escape. */
function printfFormat(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const ch = String.fromCharCode(byte);
    if (byte < 0x20 || byte > 0x7e || ch === "'" || ch === '\\' || ch === '%') out += `\\${byte.toString(8).padStart(3, '0')}`;
    else out += ch;
  }
  return `'${out}'`;
}

const FAMILY = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
/** The row of the issue: a family emoji joined with ZWJs, then X| at column 20. */
const ZWJ_ROW = `ZWJ:|${FAMILY}\x1b[20GX|`;

const STYLED =
  '\x1b[2mDIM\x1b[0m \x1b[3mITA\x1b[0m \x1b[9mSTR\x1b[0m \x1b[38;2;30;30;200mBLUE\x1b[0m \x1b[48;2;250;128;0mORANGE\x1b[0m ' +
  '\x1b[4:3mCURLY\x1b[0m \x1b[4;58;2;255;0;0mREDUL\x1b[0m end\n';

const LINKED = '\x1b]8;id=doc1;https://example.com/a?b=1\x1b\\LINK\x1b]8;;\x1b\\ plain\n';

/** The cell of the outer terminal at screen column x, row y. */
function cellAt(t: TestTerminal, x: number, y: number): IBufferCell {
  const b = t.term.buffer.active;
  const cell = b.getLine(b.viewportY + y)!.getCell(x);
  if (!cell) throw new Error(`no cell at ${x},${y}`);
  return cell;
}

/** Row and column where `word` starts on the outer screen, in a row that starts with `rowStart`. */
function find(t: TestTerminal, rowStart: string, word: string): { x: number; y: number } {
  const rows = t.rows();
  const y = rows.findIndex((r) => r.startsWith(rowStart));
  if (y < 0) throw new Error(`no row starting with ${rowStart}:\n${rows.join('\n')}`);
  const x = rows[y]!.indexOf(word);
  if (x < 0) throw new Error(`no ${word} in row ${y}: ${rows[y]}`);
  return { x, y };
}

async function settle(t: TestTerminal): Promise<void> {
  // A frame is at most 1/60 s after the change; wait until the stream has been quiet a while.
  let last = -1;
  while (t.output.length !== last) {
    last = t.output.length;
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Clear the screen and wait for the prompt alone (keys typed before it would be echoed, then cleared). */
async function clearScreen(t: TestTerminal): Promise<void> {
  t.type('clear\r');
  await t.waitFor(() => paneInk(t).join('\n') === '$', 10_000, 'a clear screen');
}

/** Pane rows (between the tab bar and the compose bar) that are not blank. */
function paneInk(t: TestTerminal): string[] {
  return t
    .rows()
    .slice(1, -2)
    .filter((r) => r.trim() !== '');
}

// ---- a truecolour terminal that joins emoji sequences, known from its terminfo (Tc, Smulx) ----

const tc = suite<{ b: BatonTui; dir: string }>('tui render: truecolour terminal that joins emoji');

tc.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'baton-terminfo-'));
  // The terminal's own terminfo entry says what it has; COLORTERM is not set.
  const src = join(ctx.dir, 'entry.src');
  writeFileSync(src, 'baton-test-rgb|terminal with truecolour and styled underlines,\n\tuse=xterm-256color, Tc, Smulx=\\E[4:%p1%dm,\n');
  execFileSync('tic', ['-x', '-o', ctx.dir, src], { stdio: 'ignore' });
  ctx.b = startBatonTui({ graphemes: true, env: { TERM: 'baton-test-rgb', TERMINFO: ctx.dir } });
  await openPlainShell(ctx.b);
});

tc.after(async (ctx) => {
  await ctx.b.cleanup();
  rmSync(ctx.dir, { recursive: true, force: true });
});

tc('a ZWJ family emoji: what follows lands where the program put it, and clear leaves no stale cell', async ({ b }) => {
  const t = b.t;
  t.type(`clear; printf ${printfFormat(ZWJ_ROW + '\n')}\r`);
  await t.waitFor(/X\|/);
  await settle(t);
  const { y } = find(t, 'ZWJ:|', 'ZWJ');
  assert.is(cellAt(t, 19, y).getChars(), 'X', `X at column 20 as the program put it; row: ${t.rows()[y]}`);
  assert.is(cellAt(t, 20, y).getChars(), '|');
  t.type('clear\r');
  await t.waitForGone('ZWJ');
  await settle(t);
  assert.equal(paneInk(t), ['$'], 'nothing but the prompt is left on the screen');
});

tc('a ZWJ row scrolled away and an alternate screen with one leave nothing behind', async ({ b }) => {
  const t = b.t;
  t.type(`clear; printf ${printfFormat(ZWJ_ROW + '\n')}; seq 1 60\r`);
  await t.waitFor(/^60$/m);
  await settle(t);
  for (const row of paneInk(t)) assert.match(row, /^(\d+|\$)$/, `only numbers and the prompt on the screen, got ${JSON.stringify(row)}`);
  t.type(`clear; printf ${printfFormat('\x1b[?1049h\x1b[H' + ZWJ_ROW + '\x1b[5;1H' + ZWJ_ROW)}; sleep 1; printf ${printfFormat('\x1b[?1049l')}; echo back\r`);
  await t.waitFor(/X\|/);
  await t.waitFor(/^back$/m);
  await settle(t);
  const ink = paneInk(t);
  assert.is(ink.at(-1), '$');
  assert.is(ink.at(-2), 'back');
  assert.not.ok(t.screenText().includes('X|'), `no cell of the alternate screen is left:\n${t.screenText()}`);
});

tc('dim, italic, strikethrough, styled underlines and truecolour reach the terminal as the program set them', async ({ b }) => {
  const t = b.t;
  await clearScreen(t);
  t.output = '';
  t.type(`printf ${printfFormat(STYLED)}\r`);
  await t.waitFor(/^DIM ITA STR BLUE ORANGE CURLY REDUL end$/m);
  await settle(t);
  for (const sgr of [
    '\x1b[0;2mDIM',
    '\x1b[0;3mITA',
    '\x1b[0;9mSTR',
    '\x1b[0;38;2;30;30;200mBLUE',
    '\x1b[0;48;2;250;128;0mORANGE',
    '\x1b[0;4:3mCURLY',
    '\x1b[0;4;58;2;255;0;0mREDUL',
  ]) {
    assert.ok(t.output.includes(sgr), `the stream has ${JSON.stringify(sgr)}`);
  }
  const at = (w: string) => {
    const p = find(t, 'DIM ITA', w);
    return cellAt(t, p.x, p.y);
  };
  assert.ok(at('DIM').isDim());
  assert.ok(at('ITA').isItalic());
  assert.ok(at('STR').isStrikethrough());
  assert.ok(at('BLUE').isFgRGB());
  assert.is(at('BLUE').getFgColor(), 0x1e1ec8);
  assert.ok(at('ORANGE').isBgRGB());
  assert.is(at('ORANGE').getBgColor(), 0xfa8000);
  assert.is(underlineStyle(at('CURLY')), 3);
  assert.is(underlineColor(at('REDUL')) & 0xffffff, 0xff0000);
  assert.not.ok(at('end').isDim() || at('end').isItalic() || at('end').isStrikethrough() || underlineStyle(at('end')), 'the reset after them holds');
});

tc('an OSC 8 hyperlink keeps its target and id, and gains no underline', async ({ b }) => {
  const t = b.t;
  t.output = '';
  t.type(`printf ${printfFormat(LINKED)}\r`);
  await t.waitFor(/^LINK plain$/m);
  await settle(t);
  assert.ok(t.output.includes('\x1b]8;id=doc1;https://example.com/a?b=1\x1b\\'), 'the link is opened with its target');
  assert.match(t.output, /LINK\x1b\]8;;\x1b\\/, 'and closed after its text');
  const p = find(t, 'LINK plain', 'LINK');
  const links = hyperlinks(t.term);
  for (let x = p.x; x < p.x + 4; x++) {
    const cell = cellAt(t, x, p.y);
    assert.equal(links(linkIdOf(cell)), { uri: 'https://example.com/a?b=1', id: 'doc1' }, `column ${x}`);
    assert.is(underlineStyle(cell), 0, 'not underlined');
  }
  assert.is(linkIdOf(cellAt(t, p.x + 5, p.y)), 0, 'plain text after it is no link');
});

tc('scroll mode shows earlier lines with their attributes and truecolour too', async ({ b }) => {
  const t = b.t;
  await clearScreen(t);
  t.type(`printf ${printfFormat('\x1b[3;38;2;30;30;200mOLD-ITALIC-BLUE\x1b[0m\n')}; seq 1 60\r`);
  await t.waitFor(/^60$/m);
  t.press('C-b', '[');
  await t.waitFor('[scroll]');
  t.press('PageUp', 'PageUp', 'PageUp');
  await t.waitFor(/^OLD-ITALIC-BLUE$/m);
  await settle(t);
  const p = find(t, 'OLD-ITALIC-BLUE', 'OLD');
  const c = cellAt(t, p.x, p.y);
  assert.ok(c.isItalic(), 'italic');
  assert.is(c.isFgRGB() ? c.getFgColor() : -1, 0x1e1ec8, 'its own blue');
  t.type('q');
  await t.waitForGone('[scroll]');
});

tc.run();

// ---- a 256-colour terminal (COLORTERM unset, xterm-256color) that draws emoji one by one ----

const c256 = suite<{ b: BatonTui }>('tui render: 256-colour terminal');

c256.before(async (ctx) => {
  ctx.b = startBatonTui({ env: { TERM: 'xterm-256color' } });
  await openPlainShell(ctx.b);
});

c256.after(async (ctx) => {
  await ctx.b.cleanup();
});

c256('truecolour is mapped to the nearest colour of 256 (a dark blue stays blue); dim, italic, strikethrough stay', async ({ b }) => {
  const t = b.t;
  t.output = '';
  t.type(`printf ${printfFormat(STYLED)}\r`);
  await t.waitFor(/^DIM ITA STR BLUE ORANGE CURLY REDUL end$/m);
  await settle(t);
  for (const sgr of ['\x1b[0;2mDIM', '\x1b[0;3mITA', '\x1b[0;9mSTR', '\x1b[0;38;5;20mBLUE', '\x1b[0;48;5;208mORANGE', '\x1b[0;4mCURLY', '\x1b[0;4mREDUL']) {
    assert.ok(t.output.includes(sgr), `the stream has ${JSON.stringify(sgr)}`);
  }
  assert.not.match(t.output, /\x1b\[[0-9;:]*(38;2;|48;2;|58;|4:3)/, 'nothing the terminal lacks is sent');
  const at = (w: string) => {
    const p = find(t, 'DIM ITA', w);
    return cellAt(t, p.x, p.y);
  };
  assert.ok(at('BLUE').isFgPalette());
  assert.is(at('BLUE').getFgColor(), 20, 'rgb(30,30,200) is xterm colour 20 (0,0,215)');
  assert.is(at('ORANGE').getBgColor(), 208);
  assert.ok(at('DIM').isDim() && at('ITA').isItalic() && at('STR').isStrikethrough());
  assert.is(underlineStyle(at('CURLY')), 1, 'a curly underline is drawn plain');
});

c256('a ZWJ row on a terminal that draws each emoji apart: X where the program put it, and clear leaves no stale cell', async ({ b }) => {
  const t = b.t;
  t.type(`clear; printf ${printfFormat(ZWJ_ROW + '\n')}\r`);
  await t.waitFor(/X\|/);
  await settle(t);
  const { y } = find(t, 'ZWJ:|', 'ZWJ');
  assert.is(cellAt(t, 19, y).getChars(), 'X');
  t.type('clear\r');
  await t.waitForGone('ZWJ');
  await settle(t);
  assert.equal(paneInk(t), ['$']);
});

c256('an overlay over the pane leaves nothing behind once closed, and the pane under it is whole again', async ({ b }) => {
  const t = b.t;
  t.type(`clear; for i in $(seq 1 20); do echo "row-$i-${'x'.repeat(60)}"; done\r`);
  await t.waitFor(/^row-20-x+$/m);
  await settle(t);
  const before = t.rows();
  t.press('C-b', '?');
  await t.waitFor('baton keys');
  await settle(t);
  t.type('q');
  await t.waitForGone('baton keys');
  await settle(t);
  assert.equal(t.rows().slice(1, -2), before.slice(1, -2));
});

c256.run();

// ---- one server, two clients: the bytes go to both, so both terminals' abilities count ----

const two = suite<{ b: BatonTui; other?: TestTerminal }>('tui render: two clients of one server');

two.before(async (ctx) => {
  ctx.b = startBatonTui({ env: { TERM: 'xterm-256color', COLORTERM: 'truecolor' } });
  await openPlainShell(ctx.b);
});

two.after(async (ctx) => {
  await ctx.other?.kill();
  await ctx.b.cleanup();
});

two('truecolour while only truecolour terminals are attached; the nearest of 256 while a 256-colour one is', async (ctx) => {
  const t = ctx.b.t;
  t.type(`clear; printf ${printfFormat('\x1b[38;2;30;30;200mBLUE\x1b[0m\n')}\r`);
  await t.waitFor(/^BLUE$/m);
  await settle(t);
  const blueIn = (term: TestTerminal) => {
    const p = find(term, 'BLUE', 'BLUE');
    const c = cellAt(term, p.x, p.y);
    return c.isFgRGB() ? `rgb ${c.getFgColor().toString(16)}` : `palette ${c.getFgColor()}`;
  };
  assert.is(blueIn(t), 'rgb 1e1ec8');
  // A second client whose terminal has 256 colours (no COLORTERM) attaches: both are drawn for it.
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(ctx.b.env)) if (v !== undefined && k !== 'COLORTERM') env[k] = v;
  const other = (ctx.other = new TestTerminal([process.execPath, builtBaton(), 'attach'], { cols: 100, rows: 30, cwd: ctx.b.work, env }));
  await other.waitFor(/^BLUE$/m, 15_000, 'the second client shows the screen');
  await settle(other);
  await settle(t);
  assert.is(blueIn(other), 'palette 20');
  assert.is(blueIn(t), 'palette 20', 'the first client gets the same bytes');
  // It detaches: truecolour again for the one left.
  other.press('C-b', 'd');
  await other.exited;
  await t.waitFor(() => blueIn(t) === 'rgb 1e1ec8', 10_000, 'truecolour again');
});

two.run();
