// Scroll mode in the real TUI: 200 lines of output, prefix [ , PgUp shows earlier lines,
// / searches, a selection copied with y arrives as OSC 52, q returns to the live screen.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startBatonTui, type BatonTui } from '../helpers/baton-tui.js';

const s = suite<{ b: BatonTui }>('tui scroll mode');

s.before(async (ctx) => {
  ctx.b = startBatonTui();
  await ctx.b.t.waitFor('Plain shell');
  ctx.b.t.press('Enter');
  await ctx.b.t.waitFor(/^\$$/m);
});

s.after(async (ctx) => {
  await ctx.b.cleanup();
});

const numbers = (screen: string) => screen.split('\n').filter((r) => /^\d+$/.test(r)).map(Number);

s('PgUp in scroll mode shows earlier lines; q goes back to the live screen', async ({ b }) => {
  b.t.type('seq 1 200\r');
  await b.t.waitFor(/^200\n\$$/m);
  b.t.press('C-b', '[');
  await b.t.waitFor('[scroll]');
  b.t.press('PageUp');
  let screen = await b.t.waitFor((scr) => Math.max(...numbers(scr)) < 200, 10_000, 'earlier lines');
  const first = numbers(screen);
  b.t.press('PageUp');
  screen = await b.t.waitFor((scr) => Math.max(...numbers(scr)) <= Math.min(...first), 10_000, 'still earlier lines');
  // Rows stay consecutive: the view is a window onto the scrollback, not a jumble.
  const ns = numbers(screen);
  ns.forEach((n, i) => i === 0 || assert.is(n, ns[i - 1]! + 1));
  b.t.type('q');
  await b.t.waitFor(/^200\n\$$/m);
  await b.t.waitFor((scr) => /C-b \? help/.test(scr.split('\n').at(-1)!));
});

s('/ searches upwards and shows the match; q returns to the live screen', async ({ b }) => {
  b.t.press('C-b', '[');
  await b.t.waitFor('[scroll]');
  b.t.type('/');
  b.t.type('137');
  await b.t.waitFor(/^ \/137$/m);
  b.t.press('Enter');
  const screen = await b.t.waitFor(/^137$/m);
  assert.not.match(screen, /^200$/m);
  b.t.type('q');
  await b.t.waitFor(/^200\n\$$/m);
});

s('older lines (kept in the compact history, beyond the emulator) scroll and search the same way', async ({ b }) => {
  b.t.type('clear; seq 1 3000\r');
  await b.t.waitFor(/^3000\n\$$/m);
  b.t.press('C-b', '[');
  await b.t.waitFor('[scroll]');
  b.t.type('/');
  b.t.type('1234');
  b.t.press('Enter');
  let screen = await b.t.waitFor(/^1234$/m);
  let ns = numbers(screen);
  ns.forEach((n, i) => i === 0 || assert.is(n, ns[i - 1]! + 1));
  b.t.press('PageUp');
  screen = await b.t.waitFor((scr) => Math.max(...numbers(scr)) <= Math.min(...ns), 10_000, 'earlier lines');
  ns = numbers(screen);
  ns.forEach((n, i) => i === 0 || assert.is(n, ns[i - 1]! + 1));
  b.t.type('g');
  await b.t.waitFor((scr) => numbers(scr)[0] !== undefined && numbers(scr)[0]! < 300, 10_000, 'the oldest lines');
  b.t.type('q');
  await b.t.waitFor(/^3000\n\$$/m);
});

s('v selects, y copies the selection through OSC 52 and leaves scroll mode', async ({ b }) => {
  b.t.type('echo copy-me-please\r');
  await b.t.waitFor(/^copy-me-please\n\$$/m);
  b.t.press('C-b', '[');
  await b.t.waitFor('[scroll]');
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

s('keys in one read: q leaves scroll mode and the prefix q after it quits baton', async ({ b }) => {
  b.t.press('C-b', '[');
  await b.t.waitFor('[scroll]');
  b.t.type('q\x02q');
  assert.is(await b.t.exited, 0);
});

s.run();
