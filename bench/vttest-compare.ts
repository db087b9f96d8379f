// How faithfully baton draws a program, against tmux: vttest (Debian package `vttest`) runs
// in a baton tab and in a tmux pane of the same size (80x24), both driven by the same keys;
// after each key, once both have stopped writing, the screen each one's client terminal
// shows (a @xterm/headless fed with its output) is compared cell by cell, as text and as
// text with attributes (colours, bold, dim, italic, underline, inverse, ...). Prints each
// screen that differs and the counts. Not run by `npm run bench`:
//   node --import tsx bench/vttest-compare.ts [BATON_CHECKOUT]   (default: this one)
// BATON_CHECKOUT names another checkout (with its dist/ built) to measure, e.g. main's.
// Everything started here is ended by process group, and tmux runs on a private socket.

import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TestTerminal } from '../test/helpers/term.js';
import { pickEntry } from '../test/helpers/baton-tui.js';
import { scratchEnv } from './bench-env.js';
import type { IBufferCell } from '../src/tui/xterm.js';

const HERE = fileURLToPath(new URL('..', import.meta.url));
const CHECKOUT = resolve(process.argv[2] ?? HERE);
const COLS = 80;
const ROWS = 24;
const VERBOSE = process.env.VTTEST_VERBOSE === '1';
const { tmp, env } = scratchEnv('baton-vttest-');
const SOCK = `baton-vttest-${process.pid}`;

/**
 * The keys, as steps: each is sent to both, then both screens are compared. `until` repeats
 * Enter until tmux's screen shows that menu prompt again (a test's pages), at most 40 times.
 */
type Step = { keys: string; name: string; until?: RegExp };
const MAIN = /Enter choice number \(0 - 12\)/;
const menu = (choice: string, name: string, until: RegExp): Step[] => [{ keys: `${choice}\r`, name, until }];
const sub = (path: string, choices: number[], back: RegExp, label: string): Step[] => [
  { keys: `${path}\r`, name: `${label} menu` },
  ...choices.flatMap((c) => menu(String(c), `${label}.${c}`, back)),
  { keys: '0\r', name: `${label} exit` },
];
const SUB9 = /Enter choice number \(0 - 9\)/;
const SUB11 = /Enter choice number \(0 - 8\)/;
const STEPS: Step[] = [
  { keys: '', name: 'main menu' },
  ...menu('1', '1 cursor movements', MAIN),
  ...menu('2', '2 screen features', MAIN),
  ...menu('3', '3 character sets', MAIN),
  ...menu('4', '4 double-sized characters', MAIN),
  ...menu('7', '7 VT52 mode', MAIN),
  ...menu('8', '8 VT102 insert/delete', MAIN),
  ...sub('9', [1, 2, 3, 4, 5, 6, 7, 8, 9], SUB9, '9 known bugs'),
  { keys: '11\r', name: '11 non-VT100 menu' },
  ...sub('1', [1, 2, 3, 4, 5, 6, 7], /Enter choice number \(0 - \d+\)/, '11.1 VT220'),
  ...menu('5', '11.5 ISO-6429 cursor movement', SUB11),
  ...sub('6', [1, 2, 3, 4, 5, 6, 7, 8], /Enter choice number \(0 - \d+\)/, '11.6 ISO-6429 colors'),
  ...menu('7', '11.7 other ISO-6429', SUB11),
  { keys: '0\r', name: '11 exit' },
];

interface Side {
  t: TestTerminal;
  /** Screen row of the program's first row on this side's terminal. */
  top: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Wait until neither side has written anything for `quietMs`. */
async function settle(sides: Side[], quietMs = 400, maxMs = 15_000): Promise<void> {
  const deadline = Date.now() + maxMs;
  let lengths = sides.map((s) => s.t.output.length);
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    await sleep(50);
    const now = sides.map((s) => s.t.output.length);
    if (now.some((n, i) => n !== lengths[i])) {
      lengths = now;
      quietSince = Date.now();
    } else if (Date.now() - quietSince >= quietMs) break;
  }
  for (const s of sides) await new Promise<void>((r) => s.t.term.write('', r));
}

function attrs(c: IBufferCell): string {
  return [
    c.getFgColorMode(),
    c.getFgColor(),
    c.getBgColorMode(),
    c.getBgColor(),
    c.isBold(),
    c.isDim(),
    c.isItalic(),
    c.isUnderline(),
    c.isBlink(),
    c.isInverse(),
    c.isInvisible(),
    c.isStrikethrough(),
  ].join(',');
}

/** The program's rows as text, and as text with each cell's attributes. */
function capture(s: Side): { text: string[]; full: string[] } {
  const b = s.t.term.buffer.active;
  const text: string[] = [];
  const full: string[] = [];
  for (let y = 0; y < ROWS; y++) {
    const line = b.getLine(b.viewportY + s.top + y);
    let t = '';
    let f = '';
    for (let x = 0; x < COLS; x++) {
      const c = line?.getCell(x);
      const ch = c ? c.getChars() || (c.getWidth() === 0 ? '' : ' ') : ' ';
      t += ch;
      f += `${ch}\u0000${c ? attrs(c) : ''}\u0001`;
    }
    text.push(t.trimEnd());
    full.push(f);
  }
  return { text, full };
}

async function main(): Promise<void> {
  const built = join(CHECKOUT, 'dist/src/cli.js');
  if (!existsSync(built)) throw new Error(`no ${built}: build that checkout first (npx tsc -p tsconfig.json)`);
  execFileSync('vttest', ['-V'], { stdio: 'ignore' });
  // tmux: a session running vttest, status line off, and a client at the same size.
  execFileSync(
    'tmux',
    ['-L', SOCK, '-f', '/dev/null', 'new-session', '-d', '-x', String(COLS), '-y', String(ROWS), '-s', 'v', 'vttest', ';', 'set', '-g', 'status', 'off'],
    { env },
  );
  const tmuxSide: Side = { t: new TestTerminal(['tmux', '-L', SOCK, '-f', '/dev/null', 'attach', '-t', 'v'], { cols: COLS, rows: ROWS, env }), top: 0 };
  // baton: its pane is the rows between the tab bar and the compose bar and status line.
  // The built baton users run, its TUI in this process (no server): one terminal, one program, as tmux's side.
  const batonEnv = { ...env, BATON_NO_SERVER: '1' };
  const batonSide: Side = { t: new TestTerminal([process.execPath, built, 'open', tmp], { cols: COLS, rows: ROWS + 3, env: batonEnv, cwd: CHECKOUT }), top: 1 };
  const sides = [tmuxSide, batonSide];
  try {
    // The plain shell by name: the agents baton could install come before it.
    await pickEntry(batonSide.t, 'Plain shell', 30_000);
    await batonSide.t.waitFor(/^\$$/m, 30_000);
    batonSide.t.type('exec vttest\r');
    await batonSide.t.waitFor(MAIN, 30_000);
    await tmuxSide.t.waitFor(MAIN, 30_000);
    let screens = 0;
    let sameText = 0;
    let sameFull = 0;
    const compare = (name: string) => {
      const a = capture(tmuxSide);
      const b = capture(batonSide);
      screens++;
      const textEq = a.text.join('\n') === b.text.join('\n');
      const fullEq = textEq && a.full.join('\n') === b.full.join('\n');
      if (textEq) sameText++;
      if (fullEq) sameFull++;
      if (!fullEq) {
        const rows = a.full.map((r, y) => (r !== b.full[y] ? y : -1)).filter((y) => y >= 0);
        console.log(`differs: ${name} (${textEq ? 'attributes' : 'text'}; rows ${rows.join(',')})`);
        if (VERBOSE) for (const y of rows) console.log(`  tmux  ${String(y).padStart(2)}|${a.text[y]}\n  baton ${String(y).padStart(2)}|${b.text[y]}`);
      }
    };
    for (const step of STEPS) {
      for (const s of sides) s.t.type(step.keys);
      await settle(sides);
      compare(step.name);
      if (!step.until) continue;
      for (let page = 1; page <= 40 && !step.until.test(tmuxSide.t.screenText()); page++) {
        for (const s of sides) s.t.type('\r');
        await settle(sides);
        compare(`${step.name} p${page}`);
      }
    }
    console.log(
      `vttest beside tmux 3.3a at ${COLS}x${ROWS} (${CHECKOUT}): ${sameText}/${screens} screens with identical text, ${sameFull}/${screens} identical with attributes`,
    );
  } finally {
    await Promise.all(sides.map((s) => s.t.kill(500)));
    try {
      execFileSync('tmux', ['-L', SOCK, 'kill-server'], { stdio: 'ignore' });
    } catch {
      // Already gone with its last client and session.
    }
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
