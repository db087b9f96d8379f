// src/conversation/recorded-copy.ts: text in a CLI's input box that is a copy of a recorded
// user message (put back after an interrupt, recalled from the CLI's history) against a draft.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isRecordedCopy } from '../../src/conversation/recorded-copy.js';

const s = suite('recorded-copy');

s('the same message, whatever the wrapping and spacing, is a copy', () => {
  assert.ok(isRecordedCopy('[[FAKE_HANG]] think hard', ['hello', '[[FAKE_HANG]] think hard']));
  assert.ok(isRecordedCopy('a long message that the box\nwra\nps mid-word', ['a long message that the box wraps mid-word']));
  assert.ok(isRecordedCopy('  two\n\nparagraphs ', ['two\nparagraphs']));
});

s('a draft is not a copy: other text, or a short one that only begins or ends like a message', () => {
  assert.not.ok(isRecordedCopy('ow DRAFT left here', ['first turn ONE']));
  assert.not.ok(isRecordedCopy('yes', ['yes please, and then run the tests']));
  assert.not.ok(isRecordedCopy('tests', ['yes please, and then run the tests']));
  assert.not.ok(isRecordedCopy('first turn ONE and more of mine', ['first turn ONE']));
  assert.not.ok(isRecordedCopy('', ['']));
  assert.not.ok(isRecordedCopy('anything', []));
});

s('a long part of a message (the box showing its first or last lines) is a copy', () => {
  const long = 'line one of a long message\nline two of it\nline three of it\nand the last line';
  assert.ok(isRecordedCopy('line one of a long message\nline two of it', [long]));
  assert.ok(isRecordedCopy('line three of it\nand the last line', [long]));
});

s.run();
