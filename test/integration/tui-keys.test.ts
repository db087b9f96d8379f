// Keys in the real TUI: everything but the prefix reaches the program in the tab as the
// same bytes (arrows, function keys, Alt, Esc, Ctrl-C, pasted text, the prefix pressed
// twice); a prefix from $XDG_CONFIG_HOME/baton/keys.json replaces C-b, and inside tmux baton
// says that C-b is tmux's too and how to change its own; a broken keys file
// stops baton with an error naming the file. In the compose bar of a real `baton open`
// (an agent tab): a paste goes into the draft whole and only the typed Enter sends it;
// any queued message can be selected, deleted or taken back to edit.
// The first suite's tests share one TUI and its shell, each leaving the shell at its prompt;
// the compose suite's tests are steps in one TUI (its agent works for good after the first).

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureDecl } from '../helpers/acp-fixture.js';
import {
  builtBaton,
  endServers,
  openPlainShell,
  pickEntry,
  plainShellSuite,
  serverEnv,
  startBatonTui,
  waitForeground,
  type BatonTui,
} from '../helpers/baton-tui.js';
import { TestTerminal } from '../helpers/term.js';

const s = plainShellSuite('tui keys');

s('arrows, F5, Alt-x, Esc and the prefix pressed twice reach the program unchanged', async ({ b }) => {
  // od shows bytes exactly as they arrive; raw mode so the line discipline changes nothing.
  b.t.type('stty raw -echo; echo RAW-READY; head -c 16 | od -An -c; stty sane; echo RAW-DONE\r');
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
  // C-c before the shell hands sleep the terminal would hit the shell, not sleep (the shell
  // prints a marker before it forks, so no marker can say so): wait for sleep to hold it.
  b.t.type('sleep 300\r');
  await waitForeground(b, 'sleep');
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
    await openPlainShell(b);
    assert.match(b.t.row(-1), /C-a c new tab/);
    b.t.type('cat -v\r');
    // Not the command line's echo: a C-c before cat holds the terminal went to the shell,
    // and cat ran on (under load: ^B and ^C under `cat -v`, and no prompt for 30 s).
    await waitForeground(b, 'cat');
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

// Before: inside tmux nothing said that C-b reaches tmux first, nor how to change baton's.
custom("inside tmux baton says C-b is tmux's prefix too and how to change its own; done as it says, the new prefix works and the note is gone", async () => {
  const TMUX = { TMUX: '/tmp/tmux-1000/default,4242,0', TMUX_PANE: '%3' };
  const first = startBatonTui({ env: TMUX });
  let second: BatonTui | undefined;
  try {
    await first.t.waitFor(
      (scr) => /tmux's prefix is C-b too: C-b C-b reaches baton · C-b C-b \? to change baton's$/.test(scr.split('\n').at(-1)!),
      15_000,
      'the note on the status line',
    );
    await openPlainShell(first);
    first.t.press('C-b', '?');
    const screen = await first.t.waitFor(/baton keys[^]*closes this help/, 10_000, 'the help');
    // The help box's rows, its wrapped lines joined again.
    const text = screen
      .split('\n')
      .filter((r) => r.includes('│'))
      .map((r) =>
        r
          .replace(/^[^│]*│/, '')
          .replace(/│[^│]*$/, '')
          .trim(),
      )
      .join(' ');
    const said =
      /Inside tmux: C-b is tmux's prefix too, and tmux takes it first\. Press it twice to reach baton \(C-b C-b c: new tab\), or give baton its own prefix in (\S+), e\.g\. (\{"prefix": "C-a"\}), and start baton again\./.exec(
        text,
      );
    assert.ok(said, text);
    const [, file, json] = said!;
    assert.is(file, join(first.home, 'config', 'baton', 'keys.json'));
    writeFileSync(file!, json!);

    second = startBatonTui({ env: { ...TMUX, XDG_CONFIG_HOME: join(first.home, 'config') } });
    await openPlainShell(second);
    assert.match(second.t.row(-1), /C-a c new tab/, 'no note: the prefixes differ');
    second.t.press('C-a', 'c');
    await second.t.waitFor('Plain shell', 10_000, 'C-a c opens the picker');
  } finally {
    await second?.cleanup();
    await first.cleanup();
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

// An agent whose "TUI" is cat -v: what baton delivers shows in its pane, control bytes
// visible as ^[. It never reports a turn end, so after the first message it is working
// for good and every later message is queued.
const compose = suite<{ t: TestTerminal; home: string }>('tui keys: compose bar paste and queue');

compose.before(async (ctx) => {
  ctx.home = mkdtempSync(join(tmpdir(), 'baton-compose-'));
  const work = join(ctx.home, 'work');
  mkdirSync(work);
  const plugins = join(ctx.home, 'config', 'baton', 'plugins');
  mkdirSync(plugins, { recursive: true });
  const decl = {
    ...fixtureDecl({ name: 'paste-agent', title: 'Paste agent' }),
    tui: { command: '/bin/sh', args: ['-c', 'stty -echo; echo AGENT-READY; exec cat -v'] },
  };
  writeFileSync(join(plugins, 'paste-agent.mjs'), `export default (kit) => kit.acpDriver(${JSON.stringify(decl)});\n`);
  ctx.t = new TestTerminal([process.execPath, builtBaton(), 'open', work], {
    cols: 110,
    rows: 32,
    cwd: work,
    env: {
      PATH: process.env.PATH,
      HOME: ctx.home,
      USER: 'tester',
      XDG_CONFIG_HOME: join(ctx.home, 'config'),
      XDG_STATE_HOME: join(ctx.home, 'state'),
      XDG_DATA_HOME: join(ctx.home, 'data'),
      ACP_FIXTURE_HOME: join(ctx.home, 'acp'),
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
      SHELL: '/bin/sh',
      ...serverEnv(ctx.home),
    },
  });
});

compose.after(async (ctx) => {
  await ctx.t?.kill();
  await endServers(serverEnv(ctx.home).XDG_RUNTIME_DIR);
  rmSync(ctx.home, { recursive: true, force: true });
});

/** The text of the inverse (highlighted) cells of the row holding `marker`. */
function highlighted(t: TestTerminal, marker: RegExp): string {
  const b = t.term.buffer.active;
  for (let y = 0; y < t.term.rows; y++) {
    const line = b.getLine(b.viewportY + y);
    if (!line || !marker.test(line.translateToString(true))) continue;
    let out = '';
    for (let x = 0; x < t.term.cols; x++) {
      const cell = line.getCell(x);
      if (cell?.isInverse()) out += cell.getChars() || ' ';
    }
    return out.trim();
  }
  return '';
}

compose('a paste into the compose bar stays in the draft, newlines and all; the typed Enter sends it whole', async ({ t }) => {
  await pickEntry(t, 'Paste agent');
  await t.waitFor(/^AGENT-READY$/m, 60_000, 'the agent running in its tab');
  t.press('C-b', 'm');
  await t.waitFor(/›$/m, 10_000, 'the compose bar focused');
  t.type('before ');
  t.paste('line one\r\nline two \x1b[31mred\x1b[0m\x02c');
  await t.waitFor(/› before line one\n +line two redc$/m, 10_000, 'the pasted lines in the draft');
  assert.not.match(t.screenText(), /^before line one$/m, 'nothing reached the agent');
  t.press('Enter');
  // Had the pasted newline sent the first line, the agent would be working and this be queued.
  await t.waitFor(/^before line one\nline two redc$/m, 10_000, 'the whole message in the agent');
  assert.not.match(t.screenText(), /queued/, t.screenText());
  assert.not.match(t.screenText(), /\^\[/, 'no escape byte reached the agent');
  assert.match(t.row(0), /^ ?1:Paste agent/, 'the pasted C-b c opened no tab');
});

compose('any queued message can be selected (highlighted), deleted, and taken back to edit', async ({ t }) => {
  for (const m of ['q one', 'q two', 'q three']) {
    t.type(m);
    t.press('Enter');
    await t.waitFor(new RegExp(`queued \\(\\d\\): .*${m}`), 10_000, `${m} queued`);
  }
  await t.waitFor(/queued \(3\): 1\. q one {2}2\. q two {2}3\. q three/);
  t.press('M-Up');
  await t.waitFor(() => highlighted(t, /queued \(3\)/) === '3. q three', 10_000, 'the last one selected');
  // Alt-Up as xterm sends it (CSI 1;3 A) walks the same way.
  t.type('\x1b[1;3A');
  await t.waitFor(() => highlighted(t, /queued \(3\)/) === '2. q two', 10_000, 'the middle one selected');
  t.press('M-x');
  await t.waitFor(/queued \(2\): 1\. q one {2}2\. q three/, 10_000, 'q two deleted');
  await t.waitFor(() => highlighted(t, /queued \(2\)/) === '2. q three', 10_000, 'the selection on the neighbour');
  t.press('M-Up', 'M-e');
  await t.waitFor(/queued \(1\): 1\. q three/, 10_000, 'q one out of the queue');
  await t.waitFor(/› q one$/m, 10_000, 'q one in the draft');
  t.type(' edited');
  t.press('Enter');
  await t.waitFor(/queued \(2\): 1\. q three {2}2\. q one edited/, 10_000, 'queued again, last');
  assert.not.match(t.screenText(), /^q (one|two|three)/m, 'nothing queued reached the agent');
  t.press('C-b', '?');
  // The help is taller than this terminal: scrolled down (Down) until the compose keys show.
  await t.waitFor(
    (screen) => {
      const found = /In the compose bar:[^]*M-Up, M-Down +select a queued message/.test(screen);
      if (!found) t.press('Down');
      return found;
    },
    10_000,
    'the compose keys in the help',
  );
});

compose.run();
