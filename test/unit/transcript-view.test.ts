// The transcript view's label: the conversation's title (taken from a first message, or a
// transcript imported from elsewhere) is shown on one line without control characters.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { viewLabel } from '../../src/tui/transcript-view.js';

const s = suite('transcript-view');

s('the title in the label carries no control character and no line break', () => {
  const label = viewLabel('fix\u001b]0;pwned\u0007 the\u009b2J\nparser', 200);
  assert.not.match(label, /[\u0000-\u001f\u007f-\u009f]/);
  assert.match(label, /^ Transcript: fix the parser — /);
});

s.run();
