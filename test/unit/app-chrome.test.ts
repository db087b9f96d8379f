// The status line's message (src/tui/app-chrome.ts) as the tabs change: one about a tab (a
// refusal, its agent's notice) is taken off when another tab comes to the front, where it does
// not apply, and does not come back with its tab; one about baton as a whole stays through a
// change of tab, as before. Read from the rows the chrome lays out, as a read-only client gets them.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PassThrough } from 'node:stream';
import blessed from '../../src/tui/blessed.js';
import { AppChrome } from '../../src/tui/app-chrome.js';
import type { Tab } from '../../src/tui/tab.js';

const s = suite('app-chrome');

function chrome(): { chrome: AppChrome; status: () => string; dispose: () => void } {
  const output = Object.assign(new PassThrough(), { columns: 100, rows: 10, isTTY: false });
  output.resume();
  const screen = blessed.screen({
    input: new PassThrough() as unknown as NodeJS.ReadStream,
    output: output as unknown as NodeJS.WriteStream,
    terminal: 'xterm-256color',
  });
  const c = new AppChrome(screen, { changed: () => undefined });
  const status = () => {
    c.draw({ tabs: [], active: 0, prefix: 'C-b', width: 100, noTab: false, composeOwned: true });
    return c.rowsAt(100)!.status;
  };
  return {
    chrome: c,
    status,
    dispose: () => {
      c.dispose();
      screen.destroy();
    },
  };
}

// Two tabs, told apart by identity only (the chrome never reads a tab).
const one = {} as Tab;
const two = {} as Tab;

s('a message about a tab is taken off when another tab comes to the front, and stays off when it comes back', () => {
  const { chrome: c, status, dispose } = chrome();
  try {
    c.showMessage('Claude Code is still working. Nothing was sent.', 8000, one);
    c.frontIs(one);
    assert.match(status(), 'Claude Code is still working', 'shown while its tab is in front (and its tab chosen again)');
    c.frontIs(two);
    assert.not.match(status(), 'Claude Code is still working', 'another tab in front: off');
    assert.match(status(), 'C-b c new tab', 'the key hints instead');
    c.frontIs(one);
    assert.not.match(status(), 'Claude Code is still working', 'not told again when its tab comes back');
    c.showMessage('queued (#1): hello', 8000, two);
    c.frontIs(undefined);
    assert.not.match(status(), 'queued', 'no tab in front (the last one closed): off too');
  } finally {
    dispose();
  }
});

s('a message about baton as a whole stays through a change of tab', () => {
  const { chrome: c, status, dispose } = chrome();
  try {
    c.showMessage('about one tab', 8000, one);
    c.showMessage('copied 12 characters to the clipboard (OSC 52)', 8000);
    c.frontIs(two);
    assert.match(status(), 'copied 12 characters', 'a general message replaced the one about a tab, and stays');
    c.frontIs(undefined);
    assert.match(status(), 'copied 12 characters');
  } finally {
    dispose();
  }
});

s.run();
