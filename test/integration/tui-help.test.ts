// What the real TUI (baton open, a real PTY) offers depends on the tab in front: a plain
// shell's tab does not offer the agent keys it refuses (the compose bar's C-b m, the help's
// agent keys are listed apart as what an agent tab takes); an agent tab offers them.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fixtureDecl } from '../helpers/acp-fixture.js';
import { pickEntry, startBatonTui, type BatonTui } from '../helpers/baton-tui.js';

const decl = { ...fixtureDecl({ name: 'cat-agent', title: 'Cat agent' }), tui: { command: '/bin/sh', args: ['-c', 'echo AGENT-READY; exec cat'] } };
const plugins = { 'cat-agent.mjs': `export default (kit) => kit.acpDriver(${JSON.stringify(decl)});\n` };

/** The help overlay's rows while it is open. */
async function help(b: BatonTui): Promise<string[]> {
  b.t.press('C-b', '?');
  const screen = await b.t.waitFor(/baton keys[^]*closes this help/, 10_000, 'the help');
  b.t.type('q');
  await b.t.waitForGone('baton keys');
  return screen.split('\n');
}

const s = suite('tui help');

// Before: a shell tab's compose row said "C-b m to write" and the help listed C-b m, C-b a
// and C-b t with the rest; each then answered "This tab runs a plain shell".
s('a plain shell tab offers no agent key; an agent tab offers them', async () => {
  const b = startBatonTui({ rows: 60, plugins });
  try {
    await b.t.waitFor(/Cat agent[^]*Plain shell/, 30_000, 'the picker');
    await pickEntry(b.t, 'Plain shell');
    await b.t.waitFor(/^\$$/m, 15_000, 'the shell');
    const composeRow = await b.t.waitFor((scr) => /plain shell/.test(scr.split('\n').at(-2)!), 10_000, 'the compose row of a shell tab');
    assert.not.match(composeRow.split('\n').at(-2)!, /C-b m/, 'writing is not offered');
    assert.match(composeRow.split('\n').at(-2)!, /C-b c opens an agent tab/);

    let rows = await help(b);
    const apart = rows.findIndex((r) => r.includes('In an agent tab'));
    assert.ok(apart > 0, 'the agent keys are listed apart');
    for (const key of ['C-b m', 'C-b a', 'C-b t']) {
      const at = rows.findIndex((r) => r.includes(`${key} `));
      assert.ok(at > apart, `${key} is under "In an agent tab"`);
    }
    assert.ok(rows.findIndex((r) => r.includes('C-b c ')) < apart, 'C-b c is with the keys that work here');
    assert.not.ok(
      rows.some((r) => r.includes('In the compose bar')),
      'nor the compose bar keys',
    );

    b.t.press('C-b', 'c');
    await b.t.waitFor(/Cat agent[^]*Plain shell/, 30_000, 'the picker');
    await pickEntry(b.t, 'Cat agent');
    await b.t.waitFor(/AGENT-READY/, 30_000, 'the agent tab');
    await b.t.waitFor((scr) => /C-b m to write/.test(scr.split('\n').at(-2)!), 10_000, 'the compose row of an agent tab');
    rows = await help(b);
    assert.not.ok(rows.some((r) => r.includes('In an agent tab')));
    assert.ok(rows.some((r) => /C-b m +focus the compose bar/.test(r)));
    assert.ok(rows.some((r) => r.includes('In the compose bar')));
  } finally {
    await b.cleanup();
  }
});

s.run();
