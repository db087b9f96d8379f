// Scroll mode in the real TUI: 200 lines of output, prefix [ , PgUp shows earlier lines,
// / searches, a selection copied with y arrives as OSC 52, q returns to the live screen.
// The tests share one TUI and its shell, in order: the first prints the 200 lines the
// others scroll and search.

import * as assert from 'uvu/assert';
import { type BatonTui, pickEntry, plainShellSuite } from '../helpers/baton-tui.js';

const s = plainShellSuite('tui scroll mode');

const numbers = (screen: string) =>
  screen
    .split('\n')
    .filter((r) => /^\d+$/.test(r))
    .map(Number);
/** Rows stay consecutive: the view is a window onto the scrollback, not a jumble. */
const consecutive = (ns: number[]) => {
  for (let i = 1; i < ns.length; i++) assert.is(ns[i], ns[i - 1]! + 1);
};

async function scrollMode(b: BatonTui): Promise<void> {
  b.t.press('C-b', '[');
  await b.t.waitFor('[scroll]');
}

/** In scroll mode: / and the text, shown on the search line before Enter. */
async function search(b: BatonTui, text: string): Promise<string> {
  b.t.type('/');
  b.t.type(text);
  await b.t.waitFor(new RegExp(`^ \\/${text}$`, 'm'));
  b.t.press('Enter');
  return b.t.waitFor(new RegExp(`^${text}$`, 'm'));
}

s('PgUp in scroll mode shows earlier lines; q goes back to the live screen', async ({ b }) => {
  b.t.type('seq 1 200\r');
  await b.t.waitFor(/^200\n\$$/m);
  await scrollMode(b);
  b.t.press('PageUp');
  let screen = await b.t.waitFor((scr) => Math.max(...numbers(scr)) < 200, 10_000, 'earlier lines');
  const first = numbers(screen);
  b.t.press('PageUp');
  screen = await b.t.waitFor((scr) => Math.max(...numbers(scr)) <= Math.min(...first), 10_000, 'still earlier lines');
  consecutive(numbers(screen));
  b.t.type('q');
  await b.t.waitFor(/^200\n\$$/m);
  await b.t.waitFor((scr) => /C-b \? help/.test(scr.split('\n').at(-1)!));
});

s('/ searches upwards and shows the match; q returns to the live screen', async ({ b }) => {
  await scrollMode(b);
  const screen = await search(b, '137');
  assert.not.match(screen, /^200$/m);
  b.t.type('q');
  await b.t.waitFor(/^200\n\$$/m);
});

s('older lines (kept in the compact history, beyond the emulator) scroll and search the same way', async ({ b }) => {
  b.t.type('clear; seq 1 3000\r');
  await b.t.waitFor(/^3000\n\$$/m);
  await scrollMode(b);
  let screen = await search(b, '1234');
  let ns = numbers(screen);
  consecutive(ns);
  b.t.press('PageUp');
  screen = await b.t.waitFor((scr) => Math.max(...numbers(scr)) <= Math.min(...ns), 10_000, 'earlier lines');
  ns = numbers(screen);
  consecutive(ns);
  b.t.type('g');
  await b.t.waitFor((scr) => numbers(scr)[0] !== undefined && numbers(scr)[0]! < 300, 10_000, 'the oldest lines');
  b.t.type('q');
  await b.t.waitFor(/^3000\n\$$/m);
});

s('v selects, y copies the selection through OSC 52 and leaves scroll mode', async ({ b }) => {
  b.t.type('echo copy-me-please\r');
  await b.t.waitFor(/^copy-me-please\n\$$/m);
  await scrollMode(b);
  // The cursor starts on the prompt line; go up to the output line, to its start.
  b.t.press('Up');
  b.t.type('0');
  b.t.type('v');
  await b.t.waitFor('[scroll: selecting]');
  b.t.type('$');
  b.t.type('y');
  const expected = Buffer.from('copy-me-please').toString('base64');
  await b.t.waitFor(() => b.t.output.includes(`\x1b]52;c;${expected}\x07`), 10_000, 'the OSC 52 sequence');
  await b.t.waitFor(/copied 14 characters/);
  assert.not.match(b.t.screenText(), /\[scroll/);
});

s("a notice arriving in scroll mode (a program exiting) waits: the status line stays scroll mode's, the search prompt too", async ({ b }) => {
  b.t.press('C-b', 'c');
  await pickEntry(b.t, 'Plain shell');
  await b.t.waitFor(/2:sh[^\n]*\n\$$/m);
  b.t.type('sleep 1; exit\r');
  await scrollMode(b);
  b.t.type('/');
  b.t.type('sle');
  await b.t.waitFor(/2:sh[^\n]*exited/, 10_000, 'the tab exited');
  assert.match(b.t.row(-1), /^ \/sle$/);
  b.t.press('Escape');
  await b.t.waitFor(/\[scroll\]/);
  b.t.type('q');
  await b.t.waitFor(/exited \(code 0\) · C-b x closes the tab/, 10_000, 'the notice, once scroll mode ended');
  b.t.press('C-b', 'x');
  await b.t.waitForGone(/2:sh/);
});

s('keys in one read: q leaves scroll mode and the prefix q after it quits baton', async ({ b }) => {
  await scrollMode(b);
  b.t.type('q\x02q');
  assert.is(await b.t.exited, 0);
});

s.run();
