// A message that must be UTF-8 (src/commands/utf8-input.ts): the first bad byte is found
// and named; valid text (U+FFFD typed on purpose included) passes.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BatonError } from '../../src/errors.js';
import { firstInvalidUtf8, rawArgBytes, requireUtf8 } from '../../src/commands/utf8-input.js';

const u = suite('utf8 input');

u('firstInvalidUtf8: the offset of the first byte that is not UTF-8', () => {
  assert.is(firstInvalidUtf8(Buffer.from('plain ascii')), -1);
  assert.is(firstInvalidUtf8(Buffer.from('café ✓ 𝄞 \uFFFD')), -1);
  assert.is(firstInvalidUtf8(Buffer.from([0x63, 0x61, 0x66, 0xe9])), 3, 'a Latin-1 é');
  assert.is(firstInvalidUtf8(Buffer.from([0x61, 0xc3])), 1, 'cut in the middle of a sequence');
  assert.is(firstInvalidUtf8(Buffer.from([0xc0, 0xaf])), 0, 'an overlong form');
  assert.is(firstInvalidUtf8(Buffer.from([0x61, 0xed, 0xa0, 0x80])), 1, 'a surrogate');
  assert.is(firstInvalidUtf8(Buffer.from([0xe2, 0x9c, 0x93, 0xff])), 3);
});

u('requireUtf8: exit 2 naming the byte and that nothing was sent; valid text passes', () => {
  requireUtf8(Buffer.from('ok \uFFFD'), 'the message');
  try {
    requireUtf8(Buffer.from([0x63, 0x61, 0x66, 0xe9]), 'the message');
    assert.unreachable();
  } catch (e) {
    assert.instance(e, BatonError);
    assert.is((e as BatonError).exitCode, 2);
    assert.is((e as BatonError).message, 'the message is not valid UTF-8 (byte 0xE9 at byte 3); nothing was sent');
    assert.match((e as BatonError).hint ?? '', /iconv/);
  }
});

u('rawArgBytes: nothing to look up for text without U+FFFD, or U+FFFD this process was not given raw', () => {
  assert.is(rawArgBytes('plain'), undefined);
  assert.is(rawArgBytes('typed \uFFFD on purpose'), undefined);
});

u.run();
