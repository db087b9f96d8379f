// PaneScreen fed with bytes, no PTY: lines numbered across history and emulator, and what
// reaches the scrollback when a program scrolls inside a scroll region, checked against
// what tmux 3.3a keeps for the same bytes (measured with `capture-pane -S -` and
// `#{history_size}`).

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PaneScreen } from '../../src/tui/pane-screen.js';

const s = suite('pane-screen');

function fed(bytes: string, cols = 20, rows = 6, scrollback = 1000): PaneScreen {
  const screen = new PaneScreen(cols, rows, scrollback);
  assert.ok(screen.parse(bytes), 'parsed synchronously');
  return screen;
}

const lines = (p: PaneScreen) => Array.from({ length: p.endLine - p.firstLine }, (_, i) => p.lineText(p.firstLine + i));
const above = (p: PaneScreen) => lines(p).slice(0, p.screenTop - p.firstLine);
const screenRows = (p: PaneScreen) => Array.from({ length: p.rows }, (_, y) => p.rowText(y).trimEnd());
const numbered = (n: number) => Array.from({ length: n }, (_, i) => `L${i + 1}`).join('\r\n');

s('lines are numbered from the oldest kept, across the compact history and the emulator', () => {
  // 1,500 lines: more than the emulator's own 200 lines of scrollback, so most went to the history.
  const p = fed(Array.from({ length: 1500 }, (_, i) => `n${i + 1}`).join('\r\n'), 20, 6, 1000);
  try {
    assert.ok(p.history.length > 0, 'the history holds lines');
    assert.is(p.endLine - p.firstLine, 1006);
    assert.is(p.lineText(p.firstLine), 'n495');
    assert.is(p.lineText(p.screenTop), 'n1495');
    assert.is(p.lineText(p.endLine - 1), 'n1500');
    for (let n = p.firstLine; n < p.endLine; n += 37) assert.is(p.lineText(n), `n${n - p.firstLine + 495}`);
    assert.not.ok(p.fullScreen);
  } finally {
    p.dispose();
  }
});

s('SU (CSI S) in a scroll region at the top row puts the scrolled-out lines in the scrollback, as tmux does', () => {
  // Region rows 1-4 of 6, cursor on row 6 (outside it), scroll up 2: tmux keeps L1 and L2.
  const p = fed(`${numbered(6)}\x1b[1;4r\x1b[6;3H\x1b[2S`);
  try {
    assert.equal(above(p), ['L1', 'L2']);
    assert.equal(screenRows(p), ['L3', 'L4', '', '', 'L5', 'L6']);
    // SU leaves the cursor where it was.
    assert.equal({ x: p.cursor().x, y: p.cursor().y }, { x: 2, y: 5 });
  } finally {
    p.dispose();
  }
});

s('SU over the whole screen keeps the lines too, and never more than the region held', () => {
  const p = fed(`${numbered(6)}\x1b[9S`);
  try {
    assert.equal(above(p), ['L1', 'L2', 'L3', 'L4', 'L5', 'L6']);
    assert.equal(screenRows(p), ['', '', '', '', '', '']);
  } finally {
    p.dispose();
  }
});

s('SU in a region below the top row and in the full-screen view keeps nothing (the screen is all there is)', () => {
  const p = fed(`${numbered(6)}\x1b[3;5r\x1b[1S\x1b[r`);
  try {
    // tmux moves L3 into its history here; xterm.js and baton drop it (no CLI was seen doing this).
    assert.equal(above(p), []);
    assert.equal(screenRows(p), ['L1', 'L2', 'L4', 'L5', '', 'L6']);
  } finally {
    p.dispose();
  }
  const q = fed(`before\r\n\x1b[?1049h${numbered(6)}\x1b[2S`);
  try {
    assert.ok(q.fullScreen);
    assert.is(q.firstLine, 0);
    assert.equal(lines(q), ['L3', 'L4', 'L5', 'L6', '', '']);
  } finally {
    q.dispose();
  }
});

s('a line feed at the bottom of a region at the top row reaches the scrollback (xterm.js does this itself)', () => {
  // How codex inserts history above its inline viewport: region 1..N, cursor at its bottom, CR LF, text.
  const p = fed(`${numbered(6)}\x1b[1;4r\x1b[4;1H\r\nnew1\r\nnew2\x1b[r`);
  try {
    assert.equal(above(p), ['L1', 'L2']);
    assert.equal(screenRows(p), ['L3', 'L4', 'new1', 'new2', 'L5', 'L6']);
  } finally {
    p.dispose();
  }
});

s('a long parse runs in pieces with `between` after each, and parses exactly as one write', () => {
  // Coloured lines (no flood shortcut), ~90 KB: several pieces.
  const bytes = Array.from({ length: 3000 }, (_, i) => `\x1b[3${i % 8}m${i} é€😀 ${'x'.repeat(i % 9)}\x1b[0m`).join('\r\n');
  const whole = fed(bytes, 40, 6, 5000);
  const pieces = new PaneScreen(40, 6, 5000);
  let calls = 0;
  assert.ok(pieces.parse(bytes, () => calls++));
  assert.ok(calls >= 5, `between called ${calls} times`);
  assert.equal(lines(pieces), lines(whole));
  assert.equal(pieces.cursor(), whole.cursor());
  for (let n = pieces.firstLine; n < pieces.endLine; n += 97) assert.equal(pieces.fullLine(n)?.translateToString(), whole.fullLine(n)?.translateToString());
  whole.dispose();
  pieces.dispose();
});

/** xterm's parse buffer, in code points (private: what shrinkParseBuffer gives back). */
const parseBufferLength = (p: PaneScreen) =>
  (p.term as unknown as { _core: { _inputHandler: { _parseBuffer: Uint32Array } } })._core._inputHandler._parseBuffer.length;

s('a long chunk grows the parse buffer; once the pane is quiet it is given back and old lines are sealed, and every line reads exactly', async () => {
  const p = new PaneScreen(100, 30, 10_000);
  try {
    // 2,000 coloured lines in one chunk of ~190k characters: xterm decodes it into 512 KB.
    const chunk = (from: number) =>
      Array.from({ length: 2000 }, (_, i) => `\x1b[32m${String(from + i).padStart(6, '0')}\x1b[0m ${'x'.repeat(80)}`).join('\r\n') + '\r\n';
    assert.ok(p.parse(chunk(0)));
    assert.is(parseBufferLength(p), 131072);
    // Quiet: compaction runs after 150 ms, then gives the buffer back.
    await new Promise((r) => setTimeout(r, 400));
    assert.is(p.history.pending + p.history.staged, 0);
    assert.is(parseBufferLength(p), 4096);
    // The older history lines went into compressed blocks meanwhile (history-blocks.ts): of
    // the 1,771 above the emulator's 229, the newest 512 stay open, 4 blocks of 256 are sealed.
    assert.is(p.history.length, 1771);
    assert.is(p.history.sealed, 1024);
    assert.ok(p.parse(chunk(2000)));
    const all = lines(p);
    assert.is(all.pop(), '', 'the cursor line after the last CR LF');
    assert.is(all.length, 4000);
    for (const [i, t] of all.entries()) assert.is(t, `${String(i).padStart(6, '0')} ${'x'.repeat(80)}`);
  } finally {
    p.dispose();
  }
});

s.run();
