// Starts the real baton, as a user runs it (the built dist/src/cli.js: a client that starts
// a baton server on demand), in a test terminal with its own HOME, XDG directories and
// server socket directory (temp dirs, removed at the end), so tests never read or write the
// user's real ones nor meet another test's server; cleanup ends the test's server by pid.
// Picks an entry of its pickers by label; and a suite whose tests share one such TUI with a
// plain shell open in its first tab. It must never run a test-only entry: what is tested is
// what ships.

import { suite, type Test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { alive, childrenOf, endPids, readStat } from '../../src/proc/index.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtBaton, ROOT } from './built-baton.js';
import { TestTerminal } from './term.js';
import { until } from './wait.js';

export { builtBaton, ROOT } from './built-baton.js';

/**
 * An environment whose baton servers are this test's alone: their sockets under `dir`/run
 * (made 0700, as baton requires).
 */
export function serverEnv(dir: string): { XDG_RUNTIME_DIR: string } {
  const run = join(dir, 'run');
  mkdirSync(run, { recursive: true, mode: 0o700 });
  return { XDG_RUNTIME_DIR: run };
}

/** The pids of the baton servers running with their sockets under runtimeDir (from their lock files). */
export function serverPids(runtimeDir: string): number[] {
  const dir = join(runtimeDir, 'baton');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.endsWith('.lock'))
    .map((n) => Number(readFileSync(join(dir, n), 'utf8').trim()))
    .filter((pid) => Number.isInteger(pid) && pid > 0 && alive(pid));
}

/** Ends this test's baton servers (and so their tabs) by pid, and waits until they are gone. */
export async function endServers(runtimeDir: string): Promise<void> {
  const pids = serverPids(runtimeDir);
  if (pids.length) await endPids(() => pids.filter(alive), { graceMs: 3000 });
}

/**
 * The whole environment of a user whose home is `home`: XDG config, state and data dirs and
 * baton's server socket dir under it, a UTF-8 xterm, /bin/sh with a `$ ` prompt.
 */
export function homeEnv(home: string): Record<string, string> & { XDG_RUNTIME_DIR: string } {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_STATE_HOME: join(home, 'state'),
    XDG_DATA_HOME: join(home, 'data'),
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    // dash takes PS1 from the environment (bash would let /etc/bash.bashrc replace it).
    SHELL: '/bin/sh',
    PS1: '$ ',
    ...serverEnv(home),
  };
}

export interface BatonTui {
  t: TestTerminal;
  home: string;
  /** XDG_RUNTIME_DIR of this test: its baton server's socket lives under it. */
  runtime: string;
  /** The environment baton was started with (another client or command of this test uses it). */
  env: Record<string, string | undefined>;
  /** A directory to run baton in. */
  work: string;
  cleanup(): Promise<void>;
}

export interface StartOptions {
  cols?: number;
  rows?: number;
  /** Written as $XDG_CONFIG_HOME/baton/keys.json. */
  keys?: unknown;
  env?: Record<string, string | undefined>;
  /** The terminal joins emoji sequences into one glyph, as kitty or WezTerm do (see grapheme-width.ts). */
  graphemes?: boolean;
  /** Drop-in plugins: file name -> source, written to $XDG_CONFIG_HOME/baton/plugins. */
  plugins?: Record<string, string>;
  /** The directory to open baton in (default: a new one, `work` in the temp home). */
  work?: string;
}

export function startBatonTui(opts: StartOptions = {}): BatonTui {
  const home = mkdtempSync(join(tmpdir(), 'baton-tui-'));
  const config = join(home, 'config');
  const work = opts.work ?? join(home, 'work');
  if (!opts.work) mkdirSync(work);
  mkdirSync(join(config, 'baton'), { recursive: true });
  if (opts.keys !== undefined) writeFileSync(join(config, 'baton', 'keys.json'), JSON.stringify(opts.keys));
  if (opts.plugins) {
    mkdirSync(join(config, 'baton', 'plugins'));
    for (const [file, source] of Object.entries(opts.plugins)) writeFileSync(join(config, 'baton', 'plugins', file), source);
  }
  const env = { ...homeEnv(home), ...opts.env };
  const t = new TestTerminal([process.execPath, builtBaton(), work], {
    cols: opts.cols ?? 100,
    rows: opts.rows ?? 30,
    cwd: ROOT,
    env,
    graphemes: opts.graphemes,
  });
  return {
    t,
    home,
    runtime: env.XDG_RUNTIME_DIR,
    env,
    work,
    async cleanup() {
      await t.kill();
      await endServers(env.XDG_RUNTIME_DIR);
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/**
 * The command names of the programs that hold the terminals of this test's tabs (the leader
 * of each terminal's foreground process group, read from /proc): `sh` at a prompt, `cat`
 * while the shell runs cat. The tabs' programs are children of baton's server, or of baton
 * itself where it runs without one.
 */
export function foregroundPrograms(b: BatonTui): string[] {
  const out: string[] = [];
  for (const root of [...serverPids(b.runtime), b.t.pid]) {
    for (const pid of childrenOf(root)) {
      const tpgid = readStat(pid)?.tpgid ?? -1;
      const comm = tpgid > 0 ? readStat(tpgid)?.comm : undefined;
      if (comm) out.push(comm);
    }
  }
  return out;
}

/**
 * Waits until `name` holds a tab's terminal: the shell has forked it, handed it the terminal
 * and it has exec'd. Keys meant for a program (C-c above all) must wait for this, not for the
 * command line's echo: a C-c that lands before the shell hands the terminal over interrupts
 * the shell instead, and the program then runs on with nothing to end it.
 */
export async function waitForeground(b: BatonTui, name: string, timeoutMs = 30_000): Promise<void> {
  await until(() => foregroundPrograms(b).includes(name), `${name} in the foreground of a tab's terminal`, timeoutMs);
}

/** Where the picker box stands on screen: the row of its top border and the column of its corner. */
function pickerBox(t: TestTerminal): { rows: string[]; top: number; col: number } | undefined {
  // The picker box is drawn over whatever the pane shows; its rows are what sits between its borders.
  const rows = t.rows();
  const top = rows.findIndex((r) => /┌─ (New tab|Continue with|The fork continues with|Model of [^─]+) /.test(r));
  if (top < 0) return undefined;
  return { rows, top, col: [...rows[top]!].indexOf('┌') };
}

/**
 * The entries of the picker on screen (New tab, Continue with, an agent's models): the rows between its
 * borders, each entry's label and detail as drawn.
 */
export function pickerEntries(t: TestTerminal): string[] {
  const box = pickerBox(t);
  if (!box) return [];
  const { rows, top, col } = box;
  const items: string[] = [];
  for (const r of rows.slice(top + 1)) {
    if ([...r][col] !== '│') break;
    items.push(
      [...r]
        .slice(col + 1)
        .join('')
        .split('│')[0]!
        .trim(),
    );
  }
  return items;
}

/** The index among pickerEntries of the entry on screen that is selected (drawn inverse); -1 when none is. */
export function pickerSelectedIndex(t: TestTerminal): number {
  const box = pickerBox(t);
  if (!box) return -1;
  const buffer = t.term.buffer.active;
  return pickerEntries(t).findIndex((_, i) =>
    buffer
      .getLine(buffer.viewportY + box.top + 1 + i)
      ?.getCell(box.col + 1)
      ?.isInverse(),
  );
}

/** The picker entry on screen that is selected (drawn inverse), if any. */
export function pickerSelected(t: TestTerminal): string | undefined {
  const at = pickerSelectedIndex(t);
  return at < 0 ? undefined : pickerEntries(t)[at];
}

/**
 * Takes the entry whose label is `label` in the picker on screen: waits until it is listed
 * and no agent is still being detected (a row saying "checking…" goes if the agent is not
 * installed, which would move the entries below it), then moves the selection from where it
 * is to it and takes it with Enter. Installed agents come before the plain shell, and a
 * switch or model picker starts on the current row, so no test may assume the first entry.
 */
export async function pickEntry(t: TestTerminal, label: string, timeoutMs = 60_000): Promise<void> {
  const at = () => pickerEntries(t).findIndex((i) => i === label || i.startsWith(`${label}  `));
  const settled = () => at() >= 0 && !pickerEntries(t).some((i) => i.endsWith('checking…'));
  await t.waitFor(settled, timeoutMs, `the picker listing ${label}, every agent detected`);
  assert.ok(at() >= 0, `the picker lists ${label}: ${pickerEntries(t).join(' | ')}`);
  // One step at a time, each seen drawn before the next: keys counted from a selection read
  // once can land on the wrong row (once in CI, an Enter on the current agent armed nothing).
  await t.waitFor(() => pickerSelectedIndex(t) >= 0, timeoutMs, 'the picker drawing its selection');
  for (let cur = pickerSelectedIndex(t); cur !== at(); cur = pickerSelectedIndex(t)) {
    t.press(cur < at() ? 'Down' : 'Up');
    await t.waitFor(() => pickerSelectedIndex(t) !== cur, 10_000, `the picker's selection moving toward ${label}`);
  }
  t.press('Enter');
}

/** Picks the plain shell in the new-tab picker and waits for its `$` prompt. */
export async function openPlainShell(b: BatonTui): Promise<void> {
  await pickEntry(b.t, 'Plain shell');
  await b.t.waitFor(/^\$$/m);
}

/** A suite whose tests share one baton TUI (ctx.b) with a plain shell in its first tab; ended after the last test. */
export function plainShellSuite(title: string, opts?: StartOptions): Test<{ b: BatonTui }> {
  const s = suite<{ b: BatonTui }>(title);
  s.before(async (ctx) => {
    ctx.b = startBatonTui(opts);
    await openPlainShell(ctx.b);
  });
  s.after(async (ctx) => {
    await ctx.b.cleanup();
  });
  return s;
}
