// `baton [open] [DIR]`: the full-screen TUI in DIR (default: the current directory). It is a
// client of the baton server (started on demand), so the tabs outlive this terminal; with
// BATON_NO_SERVER=1 the TUI runs in this process instead and ends with it. With --host, the
// server and DIR are another machine's (relative to the home directory there), reached
// through ssh; that server is started there when none runs.

import type { Argv } from './yargs.js';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { badInput } from '../errors.js';
import { attach } from '../client/attach.js';
import { pluginDirs } from './plugin-dirs.js';
import type { Io } from './io.js';
import { hostOptions, remoteOf, serverNameOption } from './server-commands.js';

export function registerOpen(y: Argv, io: Io, setExit: (code: number) => void): Argv {
  return y.command(
    ['open [dir]', '$0 [dir]'],
    'the full-screen TUI: tabs of agent CLIs, one conversation each',
    (c) =>
      c
        .positional('dir', { type: 'string', describe: 'the directory to work in (default: here; with --host, the home directory there)' })
        .option('L', serverNameOption)
        .options(hostOptions),
    (a) => openView(io, a, setExit),
  );
}

export interface OpenArgs {
  dir?: string | undefined;
  L: string;
  host?: string | undefined;
  'remote-baton'?: string | undefined;
}

/** What `baton [open] [DIR]` does, once its words are parsed (by yargs, or quick-command.ts). */
export async function openView(io: Io, a: OpenArgs, setExit: (code: number) => void): Promise<void> {
  const remote = remoteOf(a, io.env);
  if (remote) {
    setExit(await attach({ name: a.L, env: io.env, cwd: a.dir ?? '.', start: true, remote, say: (l) => io.err(`${l}\n`) }));
    return;
  }
  const dir = resolve(io.cwd, a.dir ?? '.');
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw badInput(`${dir} is not a directory`, 'give the directory to open baton in');
  const warn = (w: string) => io.err(`baton: warning: ${w}\n`);
  // The TUI's modules (blessed, the emulator, node-pty) load only where they run: a client
  // that attaches to a server relays bytes and needs none of them.
  if (io.env.BATON_NO_SERVER === '1') {
    const { runBaton } = await import('../tui/run-baton.js');
    setExit(await runBaton({ dir, env: io.env, pluginDirs: pluginDirs(), warn }));
    return;
  }
  // Settings the server's view will read are checked here first, so a mistake in them is
  // said on this terminal (exit 2, naming the file) rather than in the server's log.
  const { loadKeyConfig } = await import('../tui/keys.js');
  loadKeyConfig({ env: io.env });
  const { scrollbackFromEnv } = await import('../tui/scrollback.js');
  scrollbackFromEnv(io.env);
  setExit(await attach({ name: a.L, env: io.env, cwd: dir, start: true, pluginDirs: pluginDirs(), say: (l) => io.err(`${l}\n`) }));
}
