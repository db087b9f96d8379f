// The new-tab picker in the real TUI (a real PTY at 100x30): one picker at a time, however
// quickly the prefix commands come.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openPlainShell, startBatonTui } from '../helpers/baton-tui.js';

const s = suite('tui picker');

// Before: each C-b c gathered its choices and then opened its own picker, so a second one
// pressed before the first was drawn stacked a second picker under it, which stayed once
// the first was answered and took every key meant for the new tab.
s('prefix c pressed twice before the picker is drawn opens one picker; the tab it opens gets the keys', async () => {
  const b = startBatonTui();
  try {
    await openPlainShell(b);
    // One read: the second C-b c arrives before the first picker can be drawn.
    b.t.type('\x02c\x02c');
    await b.t.waitFor('Plain shell');
    b.t.press('Enter');
    await b.t.waitFor((scr) => /2:sh/.test(scr.split('\n')[0]!) && /^\$$/m.test(scr), 15_000, 'the second tab');
    b.t.type('echo typed-$((6*7))\r');
    const screen = await b.t.waitFor(/^typed-42$/m, 15_000, 'the command typed in the new tab');
    assert.not.match(screen, /New tab/, 'no picker left behind');
    assert.is(b.t.row(0).match(/\d:sh/g)?.length, 2, 'two tabs, not three');
  } finally {
    await b.cleanup();
  }
});

s.run();
