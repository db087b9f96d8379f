// The compose bar in a real App (blessed on streams, the real input router, a real shell tab
// behind it): a bracketed paste goes into the draft whole — newlines kept, control sequences
// dropped — and nothing is sent until Enter is typed; any queued message can be selected
// (M-Up/M-Down), taken back to edit (M-e, Enter on an empty draft) or deleted (M-x).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PassThrough } from 'node:stream';
import { App } from '../../src/tui/app.js';
import { ComposeBar, pastedText, type ComposeHandlers } from '../../src/tui/compose-bar.js';
import { clipLine, queueLine, type ComposeState } from '../../src/tui/compose-lines.js';
import { loadKeyConfig } from '../../src/tui/keys.js';
import { until } from '../helpers/wait.js';

const PASTE = (t: string) => `\x1b[200~${t}\x1b[201~`;
const M_UP = '\x1b\x1b[A';
const M_DOWN = '\x1b\x1b[B';

interface Ctx {
  app: App;
  bar: ComposeBar;
  input: PassThrough;
  sent: string[];
  queue: string[];
  type(...keys: string[]): Promise<void>;
}

/** Handlers over a plain queue, updating the bar at once as the conversation layer does. */
function setup(): Ctx {
  const input = new PassThrough();
  const output = Object.assign(new PassThrough(), { columns: 100, rows: 30, isTTY: false });
  output.resume();
  const keys = loadKeyConfig({ env: { HOME: '/nonexistent-home' }, defaultsPath: undefined });
  const app = new App({
    keys,
    input: input as unknown as NodeJS.ReadStream,
    output: output as unknown as NodeJS.WriteStream,
    env: { PATH: process.env.PATH },
    choices: () => [],
  });
  app.openTab({ command: '/bin/sh', args: ['-c', 'stty -echo; echo READY; cat'], env: {}, cwd: '/', agent: 'shell' });
  const sent: string[] = [];
  const queue: string[] = [];
  const state = (): ComposeState => ({ author: 'me@dev', agentTitle: 'Agent', armedTitle: undefined, queue: [...queue], status: 'working' });
  const handlers: ComposeHandlers = {
    send: async (t) => {
      sent.push(t);
    },
    unqueue: (i, t) => {
      if (queue[i] !== t) return undefined;
      queue.splice(i, 1);
      bar.update(state());
      return t;
    },
    deleteQueued: (i, t) => {
      if (queue[i] !== t) return;
      queue.splice(i, 1);
      bar.update(state());
    },
  };
  const bar: ComposeBar = new ComposeBar(app, () => handlers, 'C-b');
  const ctx: Ctx = {
    app,
    bar,
    input,
    sent,
    queue,
    async type(...keys: string[]) {
      // Each key in its own read, as a person types; a marker key after them says they were all handled.
      for (const k of keys) input.write(k);
      const n = bar.draft.length;
      input.write('~');
      await until(() => bar.draft.length > n && bar.draft.includes('~'), 'the keys handled');
      input.write('\x7f');
      await until(() => !bar.draft.includes('~'), 'the marker gone');
    },
  };
  (ctx as Ctx & { refresh(): void }).refresh = () => bar.update(state());
  bar.update(state());
  return ctx;
}

const refresh = (c: Ctx) => (c as Ctx & { refresh(): void }).refresh();

const s = suite<{ c: Ctx }>('compose bar');
s.before.each(async (ctx) => {
  ctx.c = setup();
  await until(() => ctx.c.app.activeTab?.pane.rowText(0) === 'READY', 'the shell tab');
  ctx.c.bar.focus();
});
s.after.each(async (ctx) => {
  await ctx.c.app.quit();
});

s('a paste with newlines goes into the draft whole; only the Enter typed after it sends', async ({ c }) => {
  await c.type('see: ', PASTE('line one\r\nline two\rline three\nend'));
  assert.is(c.bar.draft, 'see: line one\nline two\nline three\nend');
  assert.equal(c.sent, [], 'nothing sent by the pasted newlines');
  c.input.write('\r');
  await until(() => c.sent.length === 1, 'the send');
  assert.equal(c.sent, ['see: line one\nline two\nline three\nend']);
  assert.is(c.bar.draft, '');
});

s('control sequences in pasted text are dropped: no colour, no prefix, no Esc reaches anything', async ({ c }) => {
  await c.type(PASTE('\x1b[31mred\x1b[0m \x02c \x1b]0;title\x07ok\x1b\tend'));
  assert.is(c.bar.draft, 'red c ok\tend');
  assert.ok(c.bar.isFocused, 'the pasted Esc did not leave the compose bar');
  assert.is(c.app.tabs.length, 1, 'the pasted C-b c opened no tab');
  assert.equal(c.sent, []);
});

s('a paste split across reads, its end marker too, is one paste', async ({ c }) => {
  c.input.write('\x1b[200~first\r');
  c.input.write('second\x1b[20');
  c.input.write('1~');
  await c.type();
  assert.is(c.bar.draft, 'first\nsecond');
  assert.equal(c.sent, []);
});

s('the paste lands at the cursor; a long one shows a window of the draft around the cursor', async ({ c }) => {
  await c.type('ab', '\x1b[D', PASTE('X\nY'));
  assert.is(c.bar.draft, 'aX\nYb');
  const many = Array.from({ length: 40 }, (_, i) => `row ${i + 1}`).join('\n');
  await c.type('\x15', PASTE(many));
  const content = c.app.composeBar.getContent();
  assert.match(content, /draft: 40 lines, showing 3\d-40/);
  assert.match(content, /row 40/);
  assert.not.match(content, /row 1\b/);
  // Up arrows walk the lines back; the window follows.
  await c.type(...Array(39).fill('\x1b[A'));
  assert.match(c.app.composeBar.getContent(), /showing 1-\d+/);
});

s('while the compose bar is closed a paste goes to the program in the tab, not the draft', async ({ c }) => {
  c.bar.blur();
  c.input.write(PASTE('to the shell\n'));
  await until(() => c.app.activeTab!.pane.rowText(1) === 'to the shell', 'cat echoes the paste');
  assert.is(c.bar.draft, '');
});

s('M-Up selects the last queued message, M-Up/M-Down walk, M-x deletes the selected one', async ({ c }) => {
  c.queue.push('one', 'two', 'three');
  refresh(c);
  await c.type(M_UP);
  assert.is(c.bar.selectedQueued, 2);
  await c.type(M_UP, M_UP, M_UP);
  assert.is(c.bar.selectedQueued, 0, 'stops at the first');
  await c.type(M_DOWN);
  assert.is(c.bar.selectedQueued, 1);
  assert.match(c.app.composeBar.getContent(), /queued \(3\)/);
  await c.type('\x1bx');
  assert.equal(c.queue, ['one', 'three']);
  assert.is(c.bar.selectedQueued, 1, 'the selection moves to the neighbour');
  await c.type('\x1bx');
  assert.equal(c.queue, ['one']);
  assert.is(c.bar.selectedQueued, 0);
  await c.type(M_DOWN);
  assert.is(c.bar.selectedQueued, undefined, 'M-Down past the last clears the selection');
  assert.equal(c.sent, []);
});

s('M-e takes the selected message back into the draft and out of the queue; Enter sends it again', async ({ c }) => {
  c.queue.push('one', 'two', 'three');
  refresh(c);
  await c.type(M_UP, M_UP, '\x1be');
  assert.equal(c.queue, ['one', 'three']);
  assert.is(c.bar.draft, 'two');
  assert.is(c.bar.selectedQueued, undefined);
  await c.type(' edited');
  c.input.write('\r');
  await until(() => c.sent.length === 1, 'the send');
  assert.equal(c.sent, ['two edited']);
});

s('Enter on an empty draft edits the selected message; without a selection M-e and M-x take the last', async ({ c }) => {
  c.queue.push('one', 'two', 'three');
  refresh(c);
  await c.type(M_UP, M_UP, M_UP, '\r');
  assert.is(c.bar.draft, 'one');
  assert.equal(c.queue, ['two', 'three']);
  await c.type('\x15', '\x1be');
  assert.is(c.bar.draft, 'three');
  await c.type('\x15', '\x1bx');
  assert.equal(c.queue, []);
  assert.equal(c.sent, []);
});

s('Esc clears the selection first, then leaves; a queue change keeps the selection on its message', async ({ c }) => {
  c.queue.push('one', 'two', 'three');
  refresh(c);
  await c.type(M_UP);
  assert.is(c.bar.selectedQueued, 2);
  // The first message is sent (the agent went idle): "three" is now #2.
  c.queue.shift();
  refresh(c);
  assert.is(c.bar.selectedQueued, 1);
  // The selected one itself is sent: no other message silently takes its place.
  c.queue.splice(1, 1);
  refresh(c);
  assert.is(c.bar.selectedQueued, undefined);
  await c.type(M_UP);
  c.input.write('\x1b');
  await until(() => c.bar.selectedQueued === undefined, 'selection cleared');
  assert.ok(c.bar.isFocused);
  c.input.write('\x1b');
  await until(() => !c.bar.isFocused, 'left the compose bar');
});

s('each tab keeps its own draft: another tab in front shows its own, and the first comes back with its cursor', async ({ c }) => {
  const first = {};
  const second = {};
  c.bar.showFor(first);
  await c.type('f', 'o', 'r', ' ', 'o', 'n', 'e');
  c.bar.showFor(second);
  assert.is(c.bar.draft, '', 'the other tab starts empty');
  await c.type('t', 'w', 'o');
  c.bar.showFor(first);
  assert.is(c.bar.draft, 'for one');
  await c.type('!');
  assert.is(c.bar.draft, 'for one!', 'the cursor came back where it was');
  c.bar.showFor(second);
  assert.is(c.bar.draft, 'two');
  await c.type('\r');
  assert.equal(c.sent, ['two'], 'Enter sends only the draft of the tab in front');
});

s("a message handed back goes to its own tab's draft, in front or not; taken late, it leaves that draft only as it was handed back", async ({ c }) => {
  const first = {};
  const second = {};
  c.bar.showFor(first);
  await c.type('m', 'i', 'n', 'e');
  c.bar.showFor(second);
  c.bar.restoreFor(first, 'not taken');
  assert.is(c.bar.draft, '', "the tab in front is not given another tab's message");
  c.bar.restoreFor(second, 'back here');
  assert.is(c.bar.draft, 'back here');
  c.bar.showFor(first);
  assert.is(c.bar.draft, 'not taken\nmine', 'kept for its own tab, before what was being written');
  // The agent took it after all: the copy goes, what the user wrote stays, the cursor with it.
  assert.ok(c.bar.dropFrom(first, 'not taken'));
  assert.is(c.bar.draft, 'mine');
  await c.type('!');
  assert.is(c.bar.draft, 'mine!');
  // Changed by the user since: it is theirs now, and stays.
  c.bar.showFor(second);
  await c.type('?');
  assert.not.ok(c.bar.dropFrom(second, 'back here'));
  assert.is(c.bar.draft, 'back here?');
  c.bar.showFor(first);
  assert.not.ok(c.bar.dropFrom(second, 'back here'), "kept, not shown: still the user's");
});

s.run();

const p = suite('compose bar: pure parts');

p('pastedText: CRLF and CR are newlines; escape sequences and controls go, tabs stay', () => {
  assert.is(pastedText('a\r\nb\rc\nd'), 'a\nb\nc\nd');
  assert.is(pastedText('\x1b[1;31mx\x1b[0m\x00\x07\x1b[201~y\tz\x9b'), 'xy\tz');
});

p('queueLine: the selected message highlighted; too many shown around the selection with …', () => {
  assert.match(queueLine(['a', 'b'], 1, 120), /1\. a {2}\{\/gray-fg\}\{inverse\}2\. b\{\/inverse\}/);
  assert.match(queueLine(['a', 'b'], undefined, 120), /M-Up selects/);
  const long = Array.from({ length: 30 }, (_, i) => `message number ${i + 1}`);
  const line = queueLine(long, 14, 100);
  assert.match(line, /queued \(30\): … /);
  assert.match(line, /\{inverse\}15\. message number 15\{\/inverse\}/);
  assert.match(line, / …/);
  assert.not.match(line, /1\. message number 1\b/);
});

p('clipLine: a long line scrolls sideways to the cursor, … where cut; tabs shown as a space', () => {
  assert.is(clipLine('a\tb', undefined, 10), 'a b');
  assert.is(clipLine('abcdefghij', undefined, 5), 'abcd…');
  assert.is(clipLine('abcdefghij', 9, 5), '…ghi{inverse}j{/inverse}');
  assert.is(clipLine('abcdefghij', 10, 5), '…hij{inverse} {/inverse}');
  assert.is(clipLine('ab😀cd', 4, 10), 'ab😀{inverse}c{/inverse}d');
});

p.run();
