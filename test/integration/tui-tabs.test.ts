// baton's TUI driven as a person would, in a real PTY at 100x30: open, a shell tab from the
// picker, a command and its output, a second tab, changing tabs, the help overlay, and the
// quit confirmation while a command runs.
// The tests are steps of one session in one TUI, in order: each starts where the one
// before left the screen.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { pickEntry, serverPids, startBatonTui, waitForeground, type BatonTui } from '../helpers/baton-tui.js';
import { alive, childrenOf, readStat } from '../../src/proc/index.js';
import { until } from '../helpers/wait.js';

const s = suite<{ b: BatonTui }>('tui tabs');

s.before(async (ctx) => {
  ctx.b = startBatonTui();
});

s.after(async (ctx) => {
  await ctx.b.cleanup();
});

s('opens with the agent picker offering a plain shell, and key hints in the status line', async ({ b }) => {
  const screen = await b.t.waitFor('Plain shell');
  assert.match(screen, /New tab/);
  await b.t.waitFor((scr) => /C-b \? help/.test(scr.split('\n').at(-1)!), 5000, 'key hints on the last row');
  assert.match(b.t.row(0), /no tabs/);
});

s('Enter on the plain shell opens a tab running it; a command and its output show in the pane', async ({ b }) => {
  await pickEntry(b.t, 'Plain shell');
  await b.t.waitFor(/^\$$/m, 15_000, 'the shell prompt');
  assert.match(b.t.row(0), /1:sh/);
  const token = `hello-${process.pid}-${Date.now()}`;
  b.t.type(`echo ${token}\r`);
  const screen = await b.t.waitFor(new RegExp(`^${token}$`, 'm'));
  // The output sits right under the command line, inside the pane area (below the tab bar).
  const rows = screen.split('\n');
  const at = rows.indexOf(token);
  assert.ok(at >= 2, 'output is below the tab bar and the command line');
  assert.is(rows[at - 1], `$ echo ${token}`);
});

s('prefix c opens a second tab; prefix 1/2 and n/p change tabs, each showing its own screen', async ({ b }) => {
  b.t.press('C-b', 'c');
  await pickEntry(b.t, 'Plain shell');
  await b.t.waitFor((scr) => /2:sh/.test(scr.split('\n')[0]!) && /^\$$/m.test(scr));
  b.t.type('echo second-tab-$((6*7))\r');
  await b.t.waitFor(/^second-tab-42$/m);
  assert.not.match(b.t.screenText(), /hello-/);

  b.t.press('C-b', '1');
  await b.t.waitFor(/hello-\d+/);
  assert.not.match(b.t.screenText(), /second-tab-42/);

  b.t.press('C-b', 'n');
  await b.t.waitFor(/^second-tab-42$/m);
  b.t.press('C-b', 'p');
  await b.t.waitFor(/hello-\d+/);
  b.t.press('C-b', '2');
  await b.t.waitFor(/^second-tab-42$/m);
});

s('prefix ? shows every binding from the key configuration; q closes it', async ({ b }) => {
  b.t.press('C-b', '?');
  const screen = await b.t.waitFor('baton keys');
  for (const line of ['C-b c', 'new tab', 'C-b n', 'C-b p', 'C-b 0-9', 'C-b a', 'C-b m', 'C-b t', 'C-b x', 'C-b q', 'C-b [', 'C-b C-b']) {
    assert.ok(screen.includes(line), `help lists ${line}`);
  }
  b.t.type('q');
  await b.t.waitForGone('baton keys');
  await b.t.waitFor(/^second-tab-42$/m);
});

s('prefix q asks first while a command runs; n keeps baton; after it ends q quits and ends every shell', async ({ b }) => {
  b.t.type('sleep 600\r');
  await b.t.waitFor('$ sleep 600');
  // The tabs' shells run in baton's server (the terminal runs a client).
  const children = () => serverPids(b.runtime).flatMap((pid) => shellPids(pid));
  await until(() => children().length === 2, "two shells under baton's server");
  // The shell hands the terminal to sleep a moment after reading the line.
  await waitForeground(b, 'sleep');
  b.t.press('C-b', 'q');
  const screen = await b.t.waitFor('Quit baton');
  assert.match(screen, /still running something/);
  b.t.type('n');
  await b.t.waitForGone('Quit baton');
  b.t.press('C-c');
  await b.t.waitFor(/\^C\n\$/);
  const pids = children();
  b.t.press('C-b', 'q');
  // With nothing running, quitting needs no confirmation.
  const code = await b.t.exited;
  assert.is(code, 0);
  for (const pid of pids) await until(() => !alive(pid), `shell ${pid} to be gone`);
});

/** Children of `parent` whose command name is `name`. */
function childrenNamed(parent: number, name: string): number[] {
  return childrenOf(parent).filter((pid) => readStat(pid)?.comm === name);
}

/** Pids of the shells baton started (direct children of its node process). */
function shellPids(root: number): number[] {
  return childrenNamed(root, 'sh');
}

s.run();
