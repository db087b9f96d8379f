import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_ATTR, paintRow, type BlessedRow } from '../src/tui/cells.js';
import { archiveLine, archivedText, History, paintArchived } from '../src/tui/history.js';
import { createTerminal } from '../src/tui/xterm.js';

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
    term.dispose();
  }
});

s('trailing blanks are not stored; wrapped lines keep the mark', async () => {
  const term = createTerminal(10, 3, 0);
  await new Promise<void>((r) => term.write('abc       \r\n0123456789wrapped', r));
  const buf = term.buffer.active;
  const a = archiveLine(buf.getLine(0)!, buf.getNullCell());
  assert.equal(a.runs, [DEFAULT_ATTR, 'abc']);
  assert.not.ok(a.wrapped);
  assert.ok(archiveLine(buf.getLine(2)!, buf.getNullCell()).wrapped);
});

s('the history keeps at most cap lines, counting what fell off', () => {
  const h = new History(3);
  for (let i = 0; i < 10_000; i++) h.push({ wrapped: false, runs: [DEFAULT_ATTR, String(i)] });
  assert.is(h.length, 3);
  assert.is(h.dropped, 9997);
  assert.is(archivedText(h.get(0)!), '9997');
  assert.is(archivedText(h.get(2)!), '9999');
  assert.is(h.get(3), undefined);
  h.clear();
  assert.is(h.length, 0);
  assert.is(h.dropped, 10_000);
  const none = new History(0);
  none.push({ wrapped: false, runs: [] });
  assert.is(none.length, 0);
});

s.run();
