// The pieces under baton's ACP view: keys read from its terminal (a paste split across reads,
// escape sequences dropped), wrapping in cells, the line diff of edit cards, markdown lists
// and tables for a terminal.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { lineDiff } from '../../src/tui/acp-view-diff.js';
import { KeyReader } from '../../src/tui/acp-view-keys.js';
import { markdown } from '../../src/tui/acp-view-markdown.js';
import { lineText, span, textWidth, wrap } from '../../src/tui/acp-view-text.js';

const s = suite('acp-view text');

s('keys: text, Enter, Backspace, Esc, Ctrl-C; arrows are dropped; a bracketed paste split over reads arrives whole, its CRs line breaks', () => {
  const k = new KeyReader();
  assert.equal(k.read('hi\x7f\r'), [{ k: 'text', text: 'hi' }, { k: 'backspace' }, { k: 'enter' }]);
  assert.equal(k.read('\x1b'), [{ k: 'escape' }]);
  assert.equal(k.read('\x1b[A\x1b[1;5Cx\x03'), [{ k: 'text', text: 'x' }, { k: 'interrupt' }]);
  assert.equal(k.read('\x1b[200~line one\nline'), []);
  assert.equal(k.read(' two\x1b[201~\r'), [{ k: 'paste', text: 'line one\nline two' }, { k: 'enter' }]);
  // A terminal (and baton's delivery) sends a pasted line break as CR: the paste keeps it as a line break.
  assert.equal(k.read('\x1b[200~a\rb\r\nc\x1b[201~'), [{ k: 'paste', text: 'a\nb\nc' }]);
});

s('wrapping counts cells (wide characters take two) and hangs continuation lines', () => {
  assert.is(textWidth('日本'), 4);
  const out = wrap([span('- alpha beta gamma delta epsilon')], 12, [span('  ')]).map(lineText);
  for (const l of out) assert.ok(textWidth(l) <= 12, l);
  assert.ok(out.slice(1).every((l) => l.startsWith('  ')));
  assert.is(out.join(' ').replace(/\s+/g, ' '), '- alpha beta gamma delta epsilon');
});

s('line diff: a new file is all added; a change keeps two lines of context and says what it skipped', () => {
  assert.equal(lineDiff('', 'a\nb\n'), [
    { t: '+', text: 'a' },
    { t: '+', text: 'b' },
  ]);
  const ops = lineDiff('1\n2\n3\n4\n5\n6\n7\n8\n', '1\n2\n3\n4\nFIVE\n6\n7\n8\n');
  assert.equal(
    ops.map((o) => `${o.t}${o.text}`),
    ['@… 2 unchanged lines', ' 3', ' 4', '-5', '+FIVE', ' 6', ' 7', '@… 1 unchanged line'],
  );
});

s('markdown: numbered lists, task lists, quotes, tables as rows; a code block is never re-wrapped, only cut', () => {
  const out = markdown(
    '1. first\n2. second\n- [x] done\n- [ ] todo\n> quoted\n| a | b |\n|---|---|\n| 1 | 2 |\n```\nlong code line that is wider than twenty\n```',
    20,
  ).map(lineText);
  assert.ok(out.includes('1. first'));
  assert.ok(out.includes('☑ done'));
  assert.ok(out.includes('☐ todo'));
  assert.ok(out.includes('│ quoted'));
  assert.ok(out.includes('a │ b'));
  assert.ok(out.includes('1 │ 2'));
  assert.not.ok(out.some((l) => l.includes('---')));
  const code = out.filter((l) => l.includes('long code'));
  assert.is(code.length, 1);
  assert.is(textWidth(code[0]!), 20);
});

s.run();
