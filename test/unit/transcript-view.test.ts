// The transcript view's label: the conversation's title (taken from a first message, or a
// transcript imported from elsewhere) is shown on one line without control characters; a
// switch divider is one row of exactly the view's width at any width.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fitDivider, viewLabel } from '../../src/tui/transcript-view.js';

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

s.run();
