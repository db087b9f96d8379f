import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cellAttr, DEFAULT_ATTR, paintRow, type BlessedRow } from '../../src/tui/cells.js';
import { History } from '../../src/tui/history.js';
import { readBody, scan, StagingRing } from '../../src/tui/xterm-staging.js';
import { PaneScreen } from '../../src/tui/pane-screen.js';
import { createTerminal, type Terminal } from '../../src/tui/xterm.js';
import { usedCells, type HeldLine, type InternalLine } from '../../src/tui/xterm-lines.js';
import { heldLineRuns } from '../../src/tui/xterm-runs.js';

const s = suite('xterm-staging');

const internalLine = (term: Terminal, y: number) =>
  (
    term as unknown as { _core: { _bufferService: { buffers: { normal: { lines: { get(i: number): InternalLine } } } } } }
  )._core._bufferService.buffers.normal.lines.get(y);
const write = (term: Terminal, data: string) => new Promise<void>((r) => term.write(data, r));
const blank = (n: number): BlessedRow => Array.from({ length: n }, () => [DEFAULT_ATTR, ' '] as [number, string]);

/** Lines a flood may carry: latin-1 text in colours and attributes, and some that cannot be staged. */
const LINES = [
  'plain ascii text',
  '\x1b[1;31mbold red\x1b[0m then \x1b[4;38;5;208munderlined 208\x1b[0m',
  '\x1b[38;2;30;30;200mtruecolour\x1b[0m \x1b[7minverse\x1b[0m \x1b[2;3;9mdim italic struck\x1b[0m',
  '\x1b[44m   spaces on blue   \x1b[0m',
  'trailing default blanks      ',
  '\x1b[32mtrailing green blanks    \x1b[0m',
  '\x1b[4:3;58;5;196mcurly red underline\x1b[0m and \x1b]8;;https://example.com\x1b\\a link\x1b]8;;\x1b\\',
  'café, naïve, ñ: latin-1',
  '',
  '\x1b[41m\x1b[K',
  `${'x'.repeat(30)}wrapped onto the next line`,
  // Not stageable: wide, combined, beyond latin-1.
  '日本語 wide',
  'e\u0301 combined',
  'Ωmega',
];

s('usedCells is xterm’s used length (characters and background colours), wherever the last one is', async () => {
  const term = createTerminal(37, 2, 0);
  const samples = ['', 'a', 'abc', `${'y'.repeat(36)}z`, 'x\x1b[20G\x1b[45m \x1b[0m', '\x1b[36G日', 'a\x1b[3Gb\x1b[4;7Hc', '\x1b[42m\x1b[K'];
  for (const text of samples) {
    await write(term, `\x1b[H\x1b[2J${text}`);
    const line = internalLine(term, 0) as InternalLine & { getNoBgTrimmedLength(): number };
    assert.is(usedCells(line._data, line.length), line.getNoBgTrimmedLength(), JSON.stringify(text));
  }
  term.dispose();
});

s('a staged line reads back exactly as heldLineRuns builds it; lines that cannot be staged are refused', async () => {
  const term = createTerminal(40, 3, 0);
  for (const text of LINES) {
    await write(term, `\x1b[H\x1b[2J${text}`);
    for (const y of [0, 1]) {
      const held = { kind: 'held', line: internalLine(term, y) } as HeldLine;
      const cell = term.buffer.active.getNullCell();
      const expected = heldLineRuns(held, cell, cellAttr, DEFAULT_ATTR);
      const body = scan(held, cell, cellAttr, DEFAULT_ATTR);
      // (The second row is blank, or latin-1 text wrapped there.)
      const stageable = y === 1 || (!/[^\x00-\xff]/.test(text) && !text.includes('\u0301'));
      assert.is(body > 0, stageable, `${JSON.stringify(text)} row ${y}`);
      if (!body) continue;
      const ring = new StagingRing(() => undefined);
      const at = ring.stage(7, body);
      assert.is(ring.lineOf(at), 7);
      assert.equal(readBody(ring.buf, ring.bodyAt(at), DEFAULT_ATTR), expected, `${JSON.stringify(text)} row ${y}`);
    }
  }
  term.dispose();
});

s('the staging ring writes over its oldest records first, telling each one as it goes, and settles what is left oldest first', () => {
  const term = createTerminal(100, 2, 0);
  (term as unknown as { _core: { writeSync(d: string): void } })._core.writeSync('x'.repeat(90));
  const held = { kind: 'held', line: internalLine(term, 0) } as HeldLine;
  const cell = term.buffer.active.getNullCell();
  const told: number[] = [];
  const ring = new StagingRing((at) => told.push(ring.lineOf(at)));
  const body = scan(held, cell, cellAttr, DEFAULT_ATTR);
  const fits = Math.floor(ring.buf.length / (body + 6));
  for (let n = 0; n < fits * 3; n++) {
    ring.stage(n, body);
    // What is told is always the oldest left, in order, and never more than it must.
    assert.ok(told.length <= n + 1 - Math.min(ring.records, fits - 1));
  }
  assert.equal(
    told,
    Array.from({ length: told.length }, (_, i) => i),
  );
  assert.ok(ring.records >= fits - 1 && ring.records <= fits);
  while (ring.dropOldest());
  assert.is(ring.records, 0);
  assert.equal(
    told,
    Array.from({ length: fits * 3 }, (_, i) => i),
  );
  term.dispose();
});

/** Feeds `data` to a pane screen, and to an xterm that keeps the same number of lines itself. */
async function flood(data: string, cols: number, rows: number, scrollback: number) {
  const screen = new PaneScreen(cols, rows, scrollback);
  const reference = createTerminal(cols, rows, scrollback);
  for (let i = 0; i < data.length; i += 4096) screen.parse(data.slice(i, i + 4096));
  await write(reference, data);
  return { screen, reference };
}

/** Every line the pane screen keeps, text and attributes, against the reference's (aligned at the end). */
function assertSameLines(screen: PaneScreen, reference: Terminal, what: string): void {
  const ref = reference.buffer.active;
  const rows = reference.rows;
  const kept = screen.endLine - screen.firstLine;
  assert.is(kept, ref.length, `${what}: lines kept`);
  const cell = ref.getNullCell();
  for (let i = 0; i < kept; i++) {
    const n = screen.firstLine + i;
    const line = ref.getLine(i)!;
    assert.is(screen.lineText(n), line.translateToString(true).replace(/\s+$/, ''), `${what}: text of line ${n}`);
    assert.is(screen.isWrapped(n), line.isWrapped, `${what}: wrap of line ${n}`);
    // Cells of every line would take seconds; a line in 3 (any residue of the flood's cycles) tells.
    if (i % 3 && i < kept - rows) continue;
    const ours = blank(screen.cols);
    const theirs = blank(screen.cols);
    screen.paintLine(n, ours, 0, screen.cols);
    paintRow(line, cell, theirs, 0, screen.cols);
    assert.equal(ours, theirs, `${what}: cells of line ${n}`);
  }
}

s('a flood keeps exactly the lines and attributes it would have without staging, before and after the history settles', async () => {
  // 20k lines through 2k of scrollback: most lines fall off while staged, unread.
  const lines: string[] = [];
  for (let i = 0; i < 20_000; i++) lines.push(`${i} ${LINES[i % LINES.length]}`);
  const { screen, reference } = await flood(`${lines.join('\r\n')}\r\n`, 40, 10, 2000);
  assert.ok(screen.history.staged > 0, 'lines were staged');
  // Read every other line first (scroll mode reading while lines are staged), then all.
  for (let n = screen.firstLine; n < screen.endLine; n += 2) screen.lineText(n);
  assertSameLines(screen, reference, 'staged');
  while (screen.history.compact(250, reference.buffer.active.getNullCell()) > 0);
  assert.is(screen.history.staged, 0);
  assertSameLines(screen, reference, 'settled');
  screen.dispose();
  reference.dispose();
});

s('kept lines that outgrow the staging ring are compacted as it wraps, and stay exact', async () => {
  // 190-column coloured lines, 7k kept: the 1 MB ring holds ~5k of them.
  const lines: string[] = [];
  const tail = 'lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor '.repeat(3).slice(0, 180);
  for (let i = 0; i < 8000; i++) lines.push(`\x1b[32m${String(i).padStart(6, '0')}\x1b[0m ${tail}${i % 7}`);
  const { screen, reference } = await flood(`${lines.join('\r\n')}\r\n`, 200, 10, 7000);
  const h = screen.history;
  assert.ok(h.staged > 0 && h.staged < h.length - 1000, `some lines staged, the older ones compacted (${h.staged} of ${h.length})`);
  assertSameLines(screen, reference, 'wrapped ring');
  screen.dispose();
  reference.dispose();
});

s('a cleared history lets its staged lines go', async () => {
  const lines = Array.from({ length: 3000 }, (_, i) => `line ${i}`);
  const { screen, reference } = await flood(`${lines.join('\r\n')}\r\n`, 40, 10, 1000);
  assert.ok(screen.history.staged > 0);
  screen.parse('\x1b[3J');
  assert.is(screen.history.staged, 0);
  assert.is(screen.history.length, 0);
  screen.dispose();
  reference.dispose();
});

s('a History without a cell to compact with never stages', () => {
  const h = new History(3);
  h.push('a');
  assert.is(h.staged, 0);
});

s.run();
