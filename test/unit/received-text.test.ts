// What baton records for a compose-bar message once the CLI's log shows it (src/conversation/
// received-text.ts): the log's text when a draft of the user's in the CLI's input box was joined
// to the paste (before it, after it, or around it), the message as sent when the log shows only
// the paste (whatever the CLI did to its whitespace), and never the brief pasted before it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { receivedText } from '../../src/conversation/received-text.js';

const s = suite('received text');

s('the log shows what was pasted: the message as sent', () => {
  assert.is(receivedText('queued QMARK-2', 'queued QMARK-2', 'queued QMARK-2'), 'queued QMARK-2');
});

s("only the CLI's whitespace differs (lines joined, trimmed, wrapped): the message as sent, its lines kept", () => {
  const message = 'line one\nline two';
  assert.is(receivedText('  line one line two\n', message, message), message);
  assert.is(receivedText('line one\r\n\r\nline two', message, message), message);
});

s('a draft before the paste, joined with no space as the input box joined it: the whole as the CLI received it', () => {
  assert.is(receivedText('ow QMARK-1 [[x]]queued QMARK-2', 'queued QMARK-2', 'queued QMARK-2'), 'ow QMARK-1 [[x]]queued QMARK-2');
});

s('a draft after the paste (the cursor was not at the end), and one on both sides', () => {
  assert.is(receivedText('queued QMARK-2 and more', 'queued QMARK-2', 'queued QMARK-2'), 'queued QMARK-2 and more');
  assert.is(receivedText('owqueued QMARK-2 draft', 'queued QMARK-2', 'queued QMARK-2'), 'owqueued QMARK-2 draft');
});

s('a draft with lines of its own before a message of several lines: its lines kept, the message as sent', () => {
  const message = 'fix it\nplease';
  assert.is(receivedText('first\nsecond fix it please', message, message), 'first\nsecond fix it\nplease');
});

s("a brief pasted before the message is baton's, not the user's: the message alone", () => {
  const brief = '[baton handoff brief] Conversation so far:\n  user: hi\n  agent: hello';
  const pasted = `${brief}\n\ngo on MARK`;
  assert.is(receivedText(`${brief}\n\ngo on MARK`, pasted, 'go on MARK'), 'go on MARK');
  // ...and with the user's draft before it, the draft is kept and the brief is not.
  assert.is(receivedText(`draft ${brief} go on MARK`, pasted, 'go on MARK'), 'draft go on MARK');
});

s('a paste the log does not show whole (a CLI that shortened the brief): text after the message is kept, nothing before it', () => {
  const pasted = 'a very long brief that the CLI shortened\n\ngo on MARK';
  assert.is(receivedText('[brief…] go on MARK', pasted, 'go on MARK'), 'go on MARK');
  assert.is(receivedText('[brief…] go on MARK and this', pasted, 'go on MARK'), 'go on MARK and this');
});

s('a log that holds the message only in part (matched by its end): the message as sent', () => {
  assert.is(receivedText('…tail of it', 'the head and the tail of it', 'the head and the tail of it'), 'the head and the tail of it');
});

s('the message twice in the log (a draft that quotes it): the last one is the paste', () => {
  assert.is(receivedText('say go then go', 'go', 'go'), 'say go then go');
});

s.run();
