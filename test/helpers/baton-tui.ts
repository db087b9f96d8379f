// Starts the real baton TUI in a test terminal with its own HOME and XDG directories
// (temp dirs, removed at the end), so tests never read or write the user's real ones; and
// a suite whose tests share one such TUI with a plain shell open in its first tab.

import { suite, type Test } from 'uvu';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TestTerminal } from './term.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface BatonTui {
  t: TestTerminal;
  home: string;
  /** A directory to run baton in. */
  work: string;
  cleanup(): Promise<void>;
}

export interface StartOptions {
  cols?: number;
  rows?: number;
  /** Written as $XDG_CONFIG_HOME/baton/keys.json. */
  keys?: unknown;
  env?: Record<string, string>;
  /**
   * Run the whole of baton (`baton open`, with agents, conversations and the compose bar)
   * instead of the bare TUI with only plain shells (src/tui/main.ts).
   */
  agents?: boolean;
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
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: config,
    XDG_STATE_HOME: join(home, 'state'),
    XDG_DATA_HOME: join(home, 'data'),
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    // dash takes PS1 from the environment (bash would let /etc/bash.bashrc replace it).
    SHELL: '/bin/sh',
    PS1: '$ ',
    ...opts.env,
  };
  const argv = opts.agents ? [join(ROOT, 'src/cli.ts'), 'open', work] : [join(ROOT, 'src/tui/main.ts'), work];
  const t = new TestTerminal([process.execPath, '--import', 'tsx', ...argv], {
    cols: opts.cols ?? 100,
    rows: opts.rows ?? 30,
    cwd: ROOT,
    env,
  });
  return {
    t,
    home,
    work,
    async cleanup() {
      await t.kill();
      rmSync(home, { recursive: true, force: true });
    },
  };
}


/** Picks the plain shell in the new-tab picker and waits for its `$` prompt. */
export async function openPlainShell(b: BatonTui): Promise<void> {
  await b.t.waitFor('Plain shell');
  b.t.press('Enter');
  await b.t.waitFor(/^\$$/m);
}

/** Moves the open picker's selection to the entry whose label is exactly `label`, and takes it. */
export function pickEntry(t: TestTerminal, label: string): void {
  // The picker box is drawn over whatever the pane shows; its rows are what sits between its borders.
  const rows = t.rows();
  const top = rows.findIndex((r) => /┌─ (New tab|Continue with) /.test(r));
  if (top < 0) throw new Error(`no picker on the screen:\n${rows.join('\n')}`);
  const col = rows[top]!.indexOf('┌');
  const items: string[] = [];
  for (const r of rows.slice(top + 1)) {
    if ([...r][col] !== '│') break;
    items.push([...r].slice(col + 1).join('').split('│')[0]!.trim());
  }
  const at = items.findIndex((i) => i === label || i.startsWith(`${label}  `));
  if (at < 0) throw new Error(`the picker does not list ${label}: ${items.join(' | ')}; screen was:\n${rows.join('\n')}`);
  for (let i = 0; i < at; i++) t.press('Down');
  t.press('Enter');
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
