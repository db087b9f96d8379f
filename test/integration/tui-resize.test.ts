// Resizing the terminal baton runs in: the shell in the active tab (and the others) learn
// the new size, and the tab bar / status line stay on the first and last rows.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startBatonTui } from '../helpers/baton-tui.js';

const s = suite('tui resize');

s('pane size follows the terminal from 100x30 down to 80x24 and up to 140x45, for every tab', async () => {
  const b = startBatonTui({ cols: 100, rows: 30 });
  try {
    await b.t.waitFor('Plain shell');
    b.t.press('Enter');
    await b.t.waitFor(/^\$$/m);
    // Tab bar on top, compose bar and status line at the bottom: the pane gets rows - 3.
    b.t.type('stty size\r');
    await b.t.waitFor(/^27 100$/m);

    b.t.press('C-b', 'c');
    await b.t.waitFor('Plain shell');
    b.t.press('Enter');
    await b.t.waitFor((scr) => scr.split('\n')[0]!.includes('2:sh'));

    b.t.resize(80, 24);
    b.t.type('clear; stty size\r');
    await b.t.waitFor(/^21 80$/m);
    const rows = b.t.rows();
    assert.is(rows.length, 24);
    assert.match(rows[0]!, /1:sh.*2:sh/);
    assert.match(rows[23]!, /C-b c new tab/);

    // The tab that was not shown was resized too.
    b.t.press('C-b', '1');
    b.t.type('clear; stty size\r');
    await b.t.waitFor(/^21 80$/m);

    b.t.resize(140, 45);
    b.t.type('clear; stty size\r');
    await b.t.waitFor(/^42 140$/m);
    assert.match(b.t.row(-1), /C-b q quit/);
  } finally {
    await b.cleanup();
  }
});

s.run();
