// The transcript view's label: the conversation's title (taken from a first message, or a
// transcript imported from elsewhere) is shown on one line without control characters; a
// switch divider is one row of exactly the view's width at any width; the movement keys keep
// the selection on a line, and a search finds the next match after it, wrapping around.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fitDivider, nextMatch, selectionAfter, viewLabel } from '../../src/tui/transcript-view.js';

const s = suite('transcript-view');

s('the title in the label carries no control character and no line break', () => {
  const label = viewLabel('fix\u001b]0;pwned\u0007 the\u009b2J\nparser', 200);
  assert.not.match(label, /[\u0000-\u001f\u007f-\u009f]/);
  assert.match(label, /^ Transcript: fix the parser — /);
});

const divider = { text: 'Switched this conversation from Claude Code to Codex CLI', seq: 12, how: 'fresh start with a brief', chars: '104233' };

s('a divider is one row of exactly the width: the details give way first, then the sentence, at a word', () => {
  for (let w = 1; w <= 160; w++) assert.is([...fitDivider(divider, w)].length, w, `width ${w}`);
  const rule = (head: string, w: number) => head + '─'.repeat(w - [...head].length);
  assert.is(fitDivider(divider, 120), rule(`── ${divider.text} ── [12] fresh start with a brief, 104233 chars `, 120));
  assert.is(fitDivider(divider, 100), rule(`── ${divider.text} ── [12] fresh start with a brief `, 100));
  assert.is(fitDivider(divider, 78), rule(`── ${divider.text} ── [12] `, 78));
  assert.is(fitDivider(divider, 64), rule(`── ${divider.text} ──`, 64));
  assert.is(fitDivider(divider, 40), rule('── Switched this conversation from…', 40));
  const { chars: _, ...noSize } = divider;
  assert.is(fitDivider(noSize, 120), rule(`── ${divider.text} ── [12] fresh start with a brief `, 120));
});

s('the movement keys move the selection within the lines; other keys do not move it', () => {
  const at = (key: string, sel: number) => selectionAfter(key, sel, 50, 10);
  assert.is(at('up', 5), 4);
  assert.is(at('up', 0), 0);
  assert.is(at('down', 5), 6);
  assert.is(at('down', 49), 49);
  assert.is(at('pageup', 25), 15);
  assert.is(at('pageup', 3), 0);
  assert.is(at('pagedown', 25), 35);
  assert.is(at('pagedown', 45), 49);
  assert.is(at('home', 25), 0);
  assert.is(at('end', 25), 49);
  for (const key of ['q', 'n', 'enter', 'f']) assert.is(at(key, 25), undefined, key);
});

s('a search finds the next line holding the query in any case, after the selection and around the end', () => {
  const lines = ['[1] Alice: fix the Parser', '[2] Claude Code: done', '[3] Alice: and the parser tests'].map((text) => ({ text }));
  assert.is(nextMatch(lines, 'parser', 0), 2);
  assert.is(nextMatch(lines, 'parser', 2), 0, 'wraps around');
  assert.is(nextMatch(lines, 'PARSER', 1), 2);
  assert.is(nextMatch(lines, 'Claude', 1), 1, 'the selected line itself, last');
  assert.is(nextMatch(lines, 'nowhere', 0), undefined);
  assert.is(nextMatch(lines, '', 0), undefined, 'no query, no move');
});

s.run();
