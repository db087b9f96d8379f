// Keys in the real TUI: everything but the prefix reaches the program in the tab as the
// same bytes (arrows, function keys, Alt, Esc, Ctrl-C, pasted text, the prefix pressed
// twice); a prefix from $XDG_CONFIG_HOME/baton/keys.json replaces C-b; a broken keys file
// stops baton with an error naming the file.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { startBatonTui, type BatonTui } from '../helpers/baton-tui.js';

const s = suite<{ b: BatonTui }>('tui keys');

s.before(async (ctx) => {
  ctx.b = startBatonTui();
  await ctx.b.t.waitFor('Plain shell');
  ctx.b.t.press('Enter');
  await ctx.b.t.waitFor(/^\$$/m);
});

s.after(async (ctx) => {
  await ctx.b.cleanup();
});

s('arrows, F5, Alt-x, Esc and the prefix pressed twice reach the program unchanged', async ({ b }) => {
  // od shows bytes exactly as they arrive; raw mode so the line discipline changes nothing.
  b.t.type("stty raw -echo; echo RAW-READY; head -c 16 | od -An -c; stty sane; echo RAW-DONE\r");
  await b.t.waitFor(/^RAW-READY/m);
  b.t.press('Up', 'F5', 'M-x', 'Escape', 'C-b', 'C-b', 'Left');
  b.t.type('z');
  const screen = await b.t.waitFor(/033\s+\[\s+A\s+033\s+\[\s+1\s+5\s+~\s+033\s+x\s+033\s+002\s+033\s+\[\s+D/, 15_000, 'the bytes in od output');
  assert.match(screen, /D\s+z/);
  // The next test types at the prompt: only once the terminal is back to normal.
  await b.t.waitFor(/RAW-DONE\n\$$/m);
});

s("cursor keys arrive in the encoding the program asked for (DECCKM), whatever baton's screen uses", async ({ b }) => {
  b.t.type("clear; printf '\\033[?1h'; stty raw -echo; echo CKM-READY; head -c 6 | od -An -c; stty sane; printf '\\033[?1l'; echo CKM-DONE\r");
  await b.t.waitFor(/^CKM-READY/m);
  // The terminal baton runs in was switched to application cursor keys for this program.
  await b.t.waitFor(() => b.t.term.modes.applicationCursorKeysMode, 10_000, 'DECCKM on the outer terminal');
  b.t.press('Up', 'Left');
  await b.t.waitFor(/033\s+O\s+A\s+033\s+O\s+D/);
  await b.t.waitFor(/CKM-DONE\n\$$/m);
  await b.t.waitFor(() => !b.t.term.modes.applicationCursorKeysMode, 10_000, 'DECCKM off again');
});

s('Ctrl-C interrupts the program in the tab and baton stays', async ({ b }) => {
  b.t.type('clear\r');
  await b.t.waitFor((scr) => scr.split('\n')[1] === '$');
  // C-c before the shell starts the command would hit the shell, not sleep: wait for the marker.
  b.t.type('echo STARTED; sleep 300\r');
  await b.t.waitFor(/^STARTED$/m);
  b.t.press('C-c');
  await b.t.waitFor(/\^C\n\$$/m);
  assert.match(b.t.row(0), /1:sh/);
});

s('pasted text arrives as typed, wrapped in paste markers only for programs that asked', async ({ b }) => {
  await runClean(b, 'cat -v');
  b.t.paste('plain paste');
  b.t.type('\r');
  await b.t.waitFor(/^plain paste\nplain paste$/m);
  b.t.press('C-c');
  await b.t.waitFor(/\^C\n\$$/m);
  await runClean(b, "printf '\\033[?2004h'; echo PASTE-READY; cat -v");
  await b.t.waitFor(/^PASTE-READY$/m);
  b.t.paste('marked');
  b.t.type('\r');
  await b.t.waitFor(/\^\[\[200~marked\^\[\[201~/);
  b.t.press('C-c');
  b.t.type("printf '\\033[?2004l'\r");
});

/** Clear the screen, then run a command and wait until its line shows. */
async function runClean(b: BatonTui, cmd: string): Promise<void> {
  b.t.type('clear\r');
  await b.t.waitFor((scr) => scr.split('\n')[1] === '$');
  b.t.type(cmd + '\r');
  await b.t.waitFor((scr) => scr.split('\n').includes(`$ ${cmd}`));
}

s.run();

const custom = suite('tui keys: configuration');

custom('a prefix from $XDG_CONFIG_HOME/baton/keys.json replaces C-b, which then goes to the program', async () => {
  const b = startBatonTui({ keys: { prefix: 'C-a', bindings: { N: 'new-tab' } } });
  try {
    await b.t.waitFor('Plain shell');
    b.t.press('Enter');
    await b.t.waitFor(/^\$$/m);
    assert.match(b.t.row(-1), /C-a c new tab/);
    b.t.type('cat -v\r');
    await b.t.waitFor(/cat -v$/m);
    b.t.press('C-b');
    b.t.type('\r');
    await b.t.waitFor(/^\^B$/m);
    b.t.press('C-c');
    await b.t.waitFor(/\^C\n\$$/m);
    b.t.press('C-a', 'N');
    await b.t.waitFor('Plain shell');
    b.t.press('Escape');
    await b.t.waitForGone('Plain shell');
    b.t.press('C-a', '?');
    await b.t.waitFor('C-a N');
  } finally {
    await b.cleanup();
  }
});

custom('a broken keys file stops baton before it takes the screen, naming the file (exit 2)', async () => {
  const b = startBatonTui({ keys: { prefix: 'C-b', bindings: { c: 'launch-rockets' } } });
  try {
    const code = await b.t.exited;
    assert.is(code, 2);
    const screen = b.t.output.replace(/\r?\n/g, '');
    assert.ok(screen.includes(join(b.home, 'config', 'baton', 'keys.json')), screen);
    assert.match(screen, /unknown command "launch-rockets"/);
  } finally {
    await b.cleanup();
  }
});

custom.run();
