import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_ATTR, paintRow, type BlessedRow } from '../../src/tui/cells.js';
import { History } from '../../src/tui/history.js';
import { archivedRuns, archiveLine, archivedText, historyText, paintArchived, type ArchivedLine } from '../../src/tui/history-line.js';
import { cellAttr } from '../../src/tui/cells.js';
import type { HeldLine } from '../../src/tui/xterm-lines.js';
import { heldLineRuns, keptRuns } from '../../src/tui/xterm-runs.js';
import { createTerminal } from '../../src/tui/xterm.js';

const s = suite('history');
const blank = (n: number): BlessedRow => Array.from({ length: n }, () => [DEFAULT_ATTR, ' '] as [number, string]);

const SAMPLES = [
  'plain ascii text',
  '\x1b[1;31mbold red\x1b[0m then \x1b[4;38;5;208munderlined 208\x1b[0m',
  '\x1b[38;2;30;30;200mtruecolour\x1b[0m \x1b[7minverse\x1b[0m',
  '日本語 and 😀 emoji, é and e\u0301',
  '\x1b[44m   spaces on blue   \x1b[0m',
  '',
];

s('an archived line paints exactly like the live line it came from', async () => {
  for (const text of SAMPLES) {
    const term = createTerminal(40, 2, 0);
    await new Promise<void>((r) => term.write(text, r));
    const buf = term.buffer.active;
    const live = blank(45);
    const archived = blank(45);
    paintRow(buf.getLine(0), buf.getNullCell(), live, 2, 40);
    const a = archiveLine(buf.getLine(0)!, buf.getNullCell());
    paintArchived(a, archived, 2, 40);
    assert.equal(archived, live, JSON.stringify(text));
    assert.is(archivedText(a), buf.getLine(0)!.translateToString(true).trimEnd(), JSON.stringify(text));
    // The fast path from xterm's own cell words gives the same runs.
    const internal = (
      term as unknown as { _core: { _bufferService: { buffers: { normal: { lines: { get(i: number): unknown } } } } } }
    )._core._bufferService.buffers.normal.lines.get(0);
    const fast = heldLineRuns({ kind: 'held', line: internal } as HeldLine, buf.getNullCell(), cellAttr, DEFAULT_ATTR);
    assert.equal(fast, a, JSON.stringify(text));
    term.dispose();
  }
});

s('held lines wait uncompacted up to maxPending, then the oldest are staged or compacted; evicted and compacted ones are released', async () => {
  const term = createTerminal(20, 2, 0);
  await new Promise<void>((r) => term.write('\x1b[31mred\x1b[0m line', r));
  const internal = (
    term as unknown as { _core: { _bufferService: { buffers: { normal: { lines: { get(i: number): { clone(): unknown } } } } } } }
  )._core._bufferService.buffers.normal.lines.get(0);
  const released: unknown[] = [];
  const h = new History(5, (l) => released.push(l), 2, term.buffer.active.getNullCell());
  const held = () => ({ kind: 'held', line: internal.clone() }) as unknown as HeldLine;
  for (let i = 0; i < 4; i++) h.push(held());
  assert.is(h.pending, 2);
  assert.is(released.length, 2);
  assert.type(h.get(0), 'string', 'a line of plain-text runs is kept packed in one string');
  assert.equal(archivedRuns(h.get(0) as ArchivedLine), [(0 << 18) | (1 << 9) | 0x1ff, 'red', DEFAULT_ATTR, ' line']);
  assert.is((h.get(3) as HeldLine).kind, 'held');
  for (let i = 0; i < 4; i++) h.push(held());
  assert.is(h.length, 5);
  assert.is(h.dropped, 3);
  // The two pending lines are compacted, and what was staged meanwhile (see xterm-staging.ts) settles.
  h.compact(10, term.buffer.active.getNullCell());
  assert.is(h.pending, 0);
  assert.is(h.staged, 0);
  assert.is(released.length, 8);
});

s('trailing blanks are not stored; wrapped lines keep the mark', async () => {
  const term = createTerminal(10, 3, 0);
  await new Promise<void>((r) => term.write('abc       \r\n0123456789wrapped', r));
  const buf = term.buffer.active;
  // A plain line is stored as just its text.
  assert.is(archiveLine(buf.getLine(0)!, buf.getNullCell()), 'abc');
  const wrapped = archiveLine(buf.getLine(2)!, buf.getNullCell());
  assert.equal(wrapped, { wrapped: true, runs: [DEFAULT_ATTR, 'wrapped'] });
});

s('runs of plain text are packed into one string and read back the same; others keep their shape', () => {
  const samples = [
    [0, 'attribute 0', 0x7fffff, 'the largest', DEFAULT_ATTR, ' '],
    [(1 << 18) | (2 << 9) | 0x100, 'Ωmega, é, ü: wider than latin-1', DEFAULT_ATTR, ''],
    [DEFAULT_ATTR, 'one run'],
  ];
  for (const runs of samples) {
    const kept = keptRuns([...runs], false);
    assert.type(kept, 'string');
    assert.equal(archivedRuns(kept), runs);
    assert.is(
      archivedText(kept),
      runs
        .filter((_, i) => i % 2 === 1)
        .join('')
        .trimEnd(),
    );
  }
  const cells = [DEFAULT_ATTR, ['日', '', 'x']];
  assert.equal(keptRuns([...cells], false), cells, 'a run of cells stays an array');
  assert.equal(keptRuns([DEFAULT_ATTR, 'wrapped'], true), { wrapped: true, runs: [DEFAULT_ATTR, 'wrapped'] });
});

s('the history keeps at most cap lines, counting what fell off', () => {
  const h = new History(3);
  for (let i = 0; i < 10_000; i++) h.push(String(i));
  assert.is(h.length, 3);
  assert.is(h.dropped, 9997);
  // Pushed as plain strings, so they come back archived.
  assert.is(archivedText(h.get(0) as ArchivedLine), '9997');
  assert.is(archivedText(h.get(2) as ArchivedLine), '9999');
  assert.is(h.get(3), undefined);
  h.clear();
  assert.is(h.length, 0);
  assert.is(h.dropped, 10_000);
  const none = new History(0);
  none.push('x');
  assert.is(none.length, 0);
});

s('old lines are sealed in compressed blocks and read back exactly, while the newest stay open', () => {
  const cell = createTerminal(2, 1, 0).buffer.active.getNullCell();
  // Every shape a compacted line takes: text, packed runs, runs with cells (wide, combined,
  // astral), a wrapped line, an empty one, a lone surrogate, characters JSON escapes.
  const shapes: ArchivedLine[] = [
    'plain text',
    keptRuns([(1 << 18) | (2 << 9) | 0x1ff, '000042', DEFAULT_ATTR, ' lorem ipsum'], false),
    [DEFAULT_ATTR, ['日', '', 'e\u0301', '😀', '']],
    { wrapped: true, runs: [0x7fffff, 'continued \\ "quoted" \t tab'] },
    '',
    'lone \ud800 surrogate',
  ];
  const line = (n: number): ArchivedLine => {
    const l = shapes[n % shapes.length]!;
    return typeof l === 'string' && l !== '' ? `${l} ${n}` : l;
  };
  const h = new History(5000);
  for (let n = 0; n < 3000; n++) h.push(line(n));
  while (h.sealable) h.compact(250, cell);
  // 3000 lines: 512 stay open, so nine blocks of 256 were sealed.
  assert.is(h.sealed, 9 * 256);
  for (let i = 0; i < h.length; i++) assert.equal(h.get(i), line(i), `line ${i}`);
  // Lines fall off the start of a block: the rest of it still reads right, and so does the next seal.
  for (let n = 3000; n < 6000; n++) h.push(line(n));
  assert.is(h.dropped, 1000);
  while (h.sealable) h.compact(250, cell);
  assert.ok(h.sealed > 4000);
  for (let i = 0; i < h.length; i++) assert.equal(h.get(i), line(1000 + i), `line ${1000 + i}`);
  // (Line 4370 is in the last block sealed.)
  assert.is(historyText(h.get(4370)!), 'plain text 5370');
  // Cleared, then filled again: nothing of the old blocks is read.
  h.clear();
  for (let n = 0; n < 1000; n++) h.push(`after ${n}`);
  while (h.sealable) h.compact(250, cell);
  for (let i = 0; i < h.length; i++) assert.is(h.get(i), `after ${i}`);
});

s.run();
