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

export function startBatonTui(opts: { cols?: number; rows?: number; keys?: unknown; env?: Record<string, string> } = {}): BatonTui {
  const home = mkdtempSync(join(tmpdir(), 'baton-tui-'));
  const config = join(home, 'config');
  const work = join(home, 'work');
  mkdirSync(work);
  mkdirSync(join(config, 'baton'), { recursive: true });
  if (opts.keys !== undefined) writeFileSync(join(config, 'baton', 'keys.json'), JSON.stringify(opts.keys));
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
  const t = new TestTerminal([process.execPath, '--import', 'tsx', join(ROOT, 'src/tui/main.ts'), work], {
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

export type StartOptions = Parameters<typeof startBatonTui>[0];

/** Picks the plain shell in the new-tab picker and waits for its `$` prompt. */
export async function openPlainShell(b: BatonTui): Promise<void> {
  await b.t.waitFor('Plain shell');
  b.t.press('Enter');
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
