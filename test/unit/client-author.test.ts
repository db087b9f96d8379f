// src/server/client-author.ts: the author a client's hello names. It is drawn on
// every attached client's screen (the compose bar) and recorded with what that client sends,
// so it is text only, bounded and never empty, whatever the client sent.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { authorOf } from '../../src/server/client-author.js';

const s = suite('client author');

s("a hello's user is the author of what that client sends", () => {
  assert.equal(authorOf({ name: 'ana', device: 'laptop' }), { type: 'user', name: 'ana', device: 'laptop' });
});

s('control sequences and line breaks are taken out; a long field is cut; a missing or empty one is "unknown"', () => {
  const a = authorOf({ name: 'ana\x1b[2J\x1b]0;pwned\x07', device: 'lap\ntop\r' });
  assert.equal(a, { type: 'user', name: 'ana', device: 'lap top' });
  assert.is(authorOf({ name: 'x'.repeat(500), device: 'd' }).name.length, 64);
  assert.equal(authorOf({ name: '', device: 42 }), { type: 'user', name: 'unknown', device: 'unknown' });
  assert.equal(authorOf(null), { type: 'user', name: 'unknown', device: 'unknown' });
});

s.run();
