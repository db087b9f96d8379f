// `baton [open] [DIR]`: the full-screen TUI in DIR (default: the current directory). It is a
// client of the baton server (started on demand), so the tabs outlive this terminal; with
// BATON_NO_SERVER=1 the TUI runs in this process instead and ends with it.

import type { Argv } from './yargs.js';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { badInput } from '../errors.js';
import { attach } from '../client/attach.js';
import { scrollbackFromEnv } from '../tui/entry.js';
import { loadKeyConfig } from '../tui/keys.js';
import { runBaton } from '../tui/run-baton.js';
import { pluginDirs } from './agent-catalog.js';
import type { Io } from './io.js';
import { serverNameOption } from './server-commands.js';

export function registerOpen(y: Argv, io: Io, setExit: (code: number) => void): Argv {
  return y.command(
    ['open [dir]', '$0 [dir]'],
    'the full-screen TUI: tabs of agent CLIs, one conversation each',
    (c) => c.positional('dir', { type: 'string', describe: 'the directory to work in (default: here)' }).option('L', serverNameOption),
    async (a) => {
      const dir = resolve(io.cwd, a.dir ?? '.');
      if (!existsSync(dir) || !statSync(dir).isDirectory()) throw badInput(`${dir} is not a directory`, 'give the directory to open baton in');
      const warn = (w: string) => io.err(`baton: warning: ${w}\n`);
      if (io.env.BATON_NO_SERVER === '1') {
        setExit(await runBaton({ dir, env: io.env, pluginDirs: pluginDirs(), warn }));
        return;
      }
      // Settings the server's view will read are checked here first, so a mistake in them is
      // said on this terminal (exit 2, naming the file) rather than in the server's log.
      loadKeyConfig({ env: io.env });
      scrollbackFromEnv(io.env);
      setExit(await attach({ name: a.L, env: io.env, cwd: dir, start: true, pluginDirs: pluginDirs(), say: (l) => io.err(`${l}\n`) }));
    },
  );
}
