import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { OSC52_MAX_BYTES, osc52 } from '../../src/tui/osc52.js';

const s = suite('osc52');

s('wraps the text base64-encoded for the clipboard selection', () => {
  assert.is(osc52('héllo 日本'), `\x1b]52;c;${Buffer.from('héllo 日本').toString('base64')}\x07`);
});

s('a copy over the limit is cut on a character boundary', () => {
  const text = '日'.repeat(OSC52_MAX_BYTES); // 3 bytes each
  const seq = osc52(text);
  const decoded = Buffer.from(seq.slice('\x1b]52;c;'.length, -1), 'base64').toString('utf8');
  assert.ok(Buffer.byteLength(decoded) <= OSC52_MAX_BYTES);
  assert.ok(/^日+$/.test(decoded), 'no half character at the end');
});

s.run();
