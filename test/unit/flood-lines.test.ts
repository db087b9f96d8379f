// The flood shortcut (flood-lines.ts, xterm-plain.ts): a chunk of many plain lines parses only
// what the emulator can hold and sends the rest to the history as bytes. Each case feeds the
// same bytes to a PaneScreen in one chunk (the shortcut may apply) and in chunks too short for
// it (every byte parsed), and to a bare @xterm/headless terminal with the whole scrollback:
// lines, numbering, wrapping, attributes, cursor and what the history holds must agree.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_ATTR, type BlessedRow } from '../../src/tui/cells.js';
import { lineStarts, MIN_SKIP, parseFlood, plainLines } from '../../src/tui/flood-lines.js';
import { PaneScreen } from '../../src/tui/pane-screen.js';
import { createTerminal, writeSyncOf } from '../../src/tui/xterm.js';
import { plainLinesCapacity } from '../../src/tui/xterm-plain.js';

const s = suite('flood-lines');

const COLS = 40;
const ROWS = 8;
const SCROLLBACK = 1000;

/** Bytes fed in pieces of at most this many characters never take the shortcut. */
const SHORT = 4 * MIN_SKIP - 1;

/** `data` parsed in pieces of `piece` characters (the whole of it by default). */
function feed(data: string, piece = Infinity, cols = COLS, rows = ROWS, scrollback = SCROLLBACK): PaneScreen {
  const p = new PaneScreen(cols, rows, scrollback);
  for (let i = 0; i < data.length; i += piece) assert.ok(p.parse(data.slice(i, i + piece)));
  return p;
}

/** Everything a viewer can read: every kept line's text, wrap flag and painted cells, numbering, cursor. */
function view(p: PaneScreen) {
  const lines = [];
  for (let n = p.firstLine; n < p.endLine; n++) {
    const row: BlessedRow = Array.from({ length: p.cols }, () => [DEFAULT_ATTR, ' '] as [number, string]);
    p.paintLine(n, row, 0, p.cols);
    lines.push({ text: p.lineText(n), wrapped: p.isWrapped(n), cells: row.map(([a, ch]) => `${a}:${ch}`).join(' ') });
  }
  const { x, y, visible } = p.cursor();
  return { firstLine: p.firstLine, screenTop: p.screenTop, endLine: p.endLine, lines, cursor: { x, y, visible } };
}

/** Text of every line a bare xterm with the whole scrollback keeps, as lineText gives it. */
async function bare(data: string, cols = COLS, rows = ROWS, scrollback = SCROLLBACK): Promise<string[]> {
  const t = createTerminal(cols, rows, scrollback);
  await new Promise<void>((r) => t.write(data, r));
  const b = t.buffer.active;
  const out = Array.from({ length: b.length }, (_, i) => (b.getLine(i)?.translateToString(true) ?? '').replace(/\s+$/, ''));
  t.dispose();
  return out;
}

/** Asserts the shortcut and every-byte parsing agree, before and after the history settles, and agree with bare xterm. */
async function agree(data: string, label: string, opts: { cols?: number; rows?: number; scrollback?: number; piece?: number } = {}): Promise<void> {
  const { cols = COLS, rows = ROWS, scrollback = SCROLLBACK, piece } = opts;
  const fast = feed(data, piece, cols, rows, scrollback);
  const slow = feed(data, SHORT, cols, rows, scrollback);
  try {
    assert.equal(view(fast), view(slow), `${label}: while staged`);
    // Settle both histories (what the pane does once output goes quiet) and compare again.
    const cell = fast.term.buffer.normal.getNullCell();
    while (fast.history.compact(1000, cell) > 0);
    while (slow.history.compact(1000, cell) > 0);
    assert.equal(view(fast), view(slow), `${label}: settled`);
    const kept = view(fast).lines.map((l) => l.text);
    const ref = await bare(data, cols, rows, scrollback);
    assert.equal(kept, ref.slice(ref.length - kept.length), `${label}: bare xterm`);
  } finally {
    fast.dispose();
    slow.dispose();
  }
}

const lines = (from: number, to: number, f = (i: number) => String(i)) => Array.from({ length: to - from + 1 }, (_, k) => `${f(from + k)}\r\n`).join('');

s('plainLines finds complete lines of printable ASCII no longer than allowed, each ended by CR LF', () => {
  assert.is(plainLines('ab\r\n\r\nc d\r\nxyz', 0, 10), 3);
  assert.equal(Array.from(lineStarts().slice(0, 4)), [0, 4, 6, 11]);
  // A control character, a line too long, a bare LF, or a non-ASCII character ends the run.
  assert.is(plainLines('ab\r\ncd\tx\r\n', 0, 10), 1);
  assert.is(plainLines('ab\r\ncdefgh\r\n', 0, 3), 1);
  assert.is(plainLines('ab\r\ncd\nef\r\n', 0, 10), 1);
  assert.is(plainLines('ab\r\ncé\r\n', 0, 10), 1);
  assert.is(plainLines('ab\r', 0, 10), 0);
});

s('a seq flood: the shortcut stages lines unparsed, and everything readable matches parsing every byte', async () => {
  const data = `$ seq 1 5000\r\n${lines(1, 5000)}$ `;
  const p = feed(data);
  try {
    // Lines went to the staging ring as bytes: the history holds records, not parsed lines.
    assert.ok(p.history.staged > 0, 'staged');
    assert.is(p.lineText(p.endLine - 1), '$');
    assert.is(p.lineText(p.endLine - 2), '5000');
  } finally {
    p.dispose();
  }
  await agree(data, 'seq');
});

s('a flood on a screen not yet full (a fresh tab, after clear) parses a screenful, then skips the rest', async () => {
  const data = `$ seq 1 5000\r\n${lines(1, 5000)}$ `;
  const p = new PaneScreen(COLS, ROWS, SCROLLBACK);
  try {
    const write = writeSyncOf(p.term)!;
    let parsed = 0;
    const counted = (d: string) => {
      parsed += d.length;
      write(d);
    };
    assert.ok(parseFlood(data, p.term, counted, p.history, p.term.buffer.normal.getNullCell()));
    // The emulator holds ROWS + 200 lines (HOT_SCROLLBACK): about that many were parsed, not 5000.
    assert.ok(parsed < 300 * 6, `parsed ${parsed} characters of ${data.length}`);
  } finally {
    p.dispose();
  }
  await agree(data, 'fresh screen');
  await agree(`${lines(1, 3)}\x1b[H\x1b[2J${lines(1, 4000)}x`, 'after clear');
  await agree(`${lines(1, 3)}\x1b[H\x1b[2J${lines(1, 4000)}x`, 'after clear, small history', { scrollback: 300 });
});

s('more lines in one chunk than the history keeps: the oldest are counted, never read, and numbering holds', async () => {
  await agree(lines(1, 3000), 'past the history', { scrollback: 300 });
  await agree(`prompt\r\n${lines(1, 2500)}tail`, 'past the history, partial last line', { scrollback: 500 });
});

s('chunks whose unparsed lines alone fill the history: the lines the emulator lets go meanwhile are only counted, and everything agrees', async () => {
  // scrollback 400 keeps 200 lines in the emulator and 200 in the history; each chunk of
  // ~600 lines skips past both, after styled lines that are in the emulator when it comes.
  const styled = (i: number) => `\x1b[3${i % 8}mstyled ${i}\x1b[0m\r\n`;
  let data = '';
  for (let c = 0; c < 6; c++) data += styled(c) + lines(c * 1000 + 1, c * 1000 + 600) + styled(c + 10);
  await agree(data, 'skips past the history', { scrollback: 400, piece: 610 * 6 });
  await agree(lines(1, 20000), 'seq past the history', { scrollback: 400, piece: 2500 * 6 });
});

s('a flood in many chunks, each past what the emulator holds: lines kept unparsed, parsed and let go interleave in the history', async () => {
  // Pieces of ~400 lines (the emulator holds 207) through 1000 lines of scrollback: each
  // piece's unparsed lines follow the lines it scrolled out of the emulator, and the oldest
  // of both fall off the start.
  await agree(
    lines(1, 6000, (i) => `line ${i} of a long flood`),
    'chunked',
    { piece: 400 * 27 },
  );
  await agree(lines(1, 6000), 'chunked seq', { piece: 400 * 6 });
  // A line read (scroll mode) while the flood is under way gets its own string; the rest settle later.
  const p = feed(
    lines(1, 4000, (i) => `row ${i} ${'x'.repeat(20)}`),
    400 * 31,
  );
  try {
    assert.ok(p.history.staged > 0, 'kept unparsed');
    const n = p.firstLine + 10;
    const before = p.lineText(n);
    assert.match(before, /^row \d+ x{20}$/);
    const cell = p.term.buffer.normal.getNullCell();
    while (p.history.compact(1000, cell) > 0);
    assert.is(p.history.staged, 0);
    assert.is(p.lineText(n), before);
  } finally {
    p.dispose();
  }
});

s(
  "a flood sheds the emulator's full-width scrollback to the history and takes full-width lines again once quiet; every line and the count kept agree",
  async () => {
    // Coloured lines (full width in the emulator), a flood in one chunk (the shortcut: the
    // emulator holds its screen only), quiet (it holds full-width lines again), more coloured
    // lines: past the 1000 kept, so the history lets its oldest go as the emulator fills again.
    const coloured = (from: number, to: number) => lines(from, to, (i) => `\x1b[3${i % 8}mc${i}\x1b[0m tail`);
    const fast = new PaneScreen(COLS, ROWS, SCROLLBACK);
    const slow = new PaneScreen(COLS, ROWS, SCROLLBACK);
    const both = (data: string, fastPiece = Infinity) => {
      for (let i = 0; i < data.length; i += fastPiece) assert.ok(fast.parse(data.slice(i, i + fastPiece)));
      for (let i = 0; i < data.length; i += SHORT) assert.ok(slow.parse(data.slice(i, i + SHORT)));
    };
    const cell = fast.term.buffer.normal.getNullCell();
    const settle = () => {
      for (const p of [fast, slow]) while (p.history.compact(1000, cell) > 0);
    };
    try {
      both(coloured(1, 300), SHORT);
      const full = fast.term.buffer.normal.length;
      assert.ok(full > ROWS, 'full-width lines above the screen');
      both(lines(1, 3000));
      assert.is(fast.term.buffer.normal.length, ROWS, 'shed: the screen only');
      assert.equal(view(fast), view(slow), 'shed');
      // Quiet: the pane compacts, then holds full-width lines again.
      await new Promise((r) => setTimeout(r, 400));
      both(coloured(301, 600), SHORT);
      assert.is(fast.term.buffer.normal.length, full, 'full-width lines again');
      assert.equal(view(fast), view(slow), 'after');
      settle();
      assert.equal(view(fast), view(slow), 'settled');
      const data = coloured(1, 300) + lines(1, 3000) + coloured(301, 600);
      const kept = view(fast).lines.map((l) => l.text);
      const ref = await bare(data);
      assert.is(kept.length, SCROLLBACK + ROWS, 'as many lines as the setting keeps');
      assert.equal(kept, ref.slice(ref.length - kept.length), 'bare xterm');
    } finally {
      fast.dispose();
      slow.dispose();
    }
  },
);

s('plain runs among everything else: colours, wide and combined characters, wrapped lines, tabs, trailing blanks', async () => {
  const mixed = [
    lines(1, 400),
    '\x1b[31mred\x1b[0m plain \x1b[44mblue bg\x1b[0m\r\n',
    lines(401, 800, (i) => `line ${i} with trailing blanks   `),
    '日本語 wide and e\u0301 combined\r\n',
    lines(801, 1200, (i) => (i % 7 === 0 ? '' : `w${i}`)),
    `${'long '.repeat(20)}\r\n`,
    lines(1201, 1600, (i) => (i % 5 === 0 ? `tab\there ${i}` : `t${i}`)),
    `exactly ${'x'.repeat(COLS - 9)}\r\n`,
    lines(1601, 2000),
  ].join('');
  await agree(mixed, 'mixed');
});

s('states where a plain line does not print as just its text take no shortcut and still agree', async () => {
  const flood = lines(1, 1500);
  // The cursor reaches the bottom row first, where a flood's lines scroll.
  const warm = lines(1, 2 * ROWS, (i) => `warm ${i}`);
  const cases: [string, string][] = [
    ['current colour', `\x1b[32m\r\n${flood}\x1b[0m`],
    ['background colour (erase fills with it)', `\x1b[44m\r\n${flood}`],
    ['DEC line drawing in G0', `\x1b(0\r\n${lines(1, 1500, (i) => `qqq${i}x`)}\x1b(B`],
    ['shifted to G1', `\x1b)0\x0e\r\n${lines(1, 1500, (i) => `lqk${i}`)}\x0f`],
    // Insert mode changes nothing on a blank row: the shortcut may apply.
    ['insert mode', `\x1b[4h\r\n${flood}\x1b[4l`],
    ['scroll region below the top row, to the bottom', `\x1b[2;${ROWS}r\x1b[${ROWS};1H\r\n${flood}\x1b[r`],
    ['scroll region above the bottom row', `\x1b[1;${ROWS - 2}r\x1b[${ROWS - 2};1H\r\n${flood}\x1b[r`],
    ['alternate screen', `\x1b[?1049h\r\n${flood}\x1b[?1049l`],
    ['cursor not at the bottom (after clear)', `\x1b[2J\x1b[H\r\n${flood}`],
    ['cursor onto a row with text', `${lines(1, 20)}\x1b[${ROWS};1Hold text on this row\x1b[${ROWS - 1};1H\r\n${flood}`],
    ['inside an OSC string', `\x1b]0;title\r\n${flood}\x07after`],
    ['inside a DCS string', `\x1bP1$r\r\n${flood}\x1b\\after`],
    ['an OSC 8 link open', `\x1b]8;;https://example.com\x1b\\\r\n${flood}\x1b]8;;\x1b\\`],
    ['wraparound pending', `${'y'.repeat(COLS)}\r\n${flood}`],
    // REP repeats nothing after a CR LF, and the last character printed after one.
    ['REP after the flood', `${flood}${lines(1, 300, () => '')}\x1b[5b`],
    ['REP after the flood, a character printed', `${flood}z\x1b[5b`],
  ];
  for (const [label, data] of cases) await agree(warm + data, label);
});

s('plainLinesCapacity: what the emulator holds above the cursor row, only in the plain state', () => {
  const t = createTerminal(COLS, ROWS, 50);
  const w = (d: string) => (t as unknown as { _core: { writeSync(d: string): void } })._core.writeSync(d);
  try {
    w(lines(1, 100));
    assert.is(plainLinesCapacity(t), ROWS + 50 - 1);
    w('\x1b[1m');
    assert.is(plainLinesCapacity(t), 0, 'bold');
    w('\x1b[0mabc');
    assert.is(plainLinesCapacity(t), 0, 'cursor not at the start of the row');
    w('\r\n\x1b[?1049h');
    assert.is(plainLinesCapacity(t), 0, 'alternate screen');
    w('\x1b[?1049l\x1b[2J\x1b[H');
    assert.is(plainLinesCapacity(t), 0, 'cursor at the top');
    w(`\x1b[${ROWS};1H`);
    assert.is(plainLinesCapacity(t), ROWS + 50 - 1, 'blank bottom row, cursor at its start');
  } finally {
    t.dispose();
  }
});

s('parseFlood leaves a chunk without a run of plain lines to the caller, having parsed nothing', () => {
  const p = new PaneScreen(COLS, ROWS, SCROLLBACK);
  try {
    const before = p.endLine;
    const data = `\x1b[31m${'x'.repeat(600)}\x1b[0m`;
    assert.not.ok(parseFlood(data, p.term, () => assert.unreachable('parsed'), p.history, p.term.buffer.normal.getNullCell()));
    assert.is(p.endLine, before);
  } finally {
    p.dispose();
  }
});

s.run();
