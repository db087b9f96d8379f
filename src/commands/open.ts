// `baton [open] [DIR]`: the full-screen TUI in DIR (default: the current directory).

import type { Argv } from './yargs.js';
import { runBaton } from '../tui/run-baton.js';
import { pluginDirs } from './agent-catalog.js';
import type { Io } from './io.js';

export function registerOpen(y: Argv, io: Io, setExit: (code: number) => void): Argv {
  return y.command(
    ['open [dir]', '$0 [dir]'],
    'the full-screen TUI: tabs of agent CLIs, one conversation each',
    (c) => c.positional('dir', { type: 'string', describe: 'the directory to work in (default: here)' }),
    async (a) => {
      const code = await runBaton({ dir: a.dir ?? io.cwd, env: io.env, pluginDirs: pluginDirs(), warn: (w) => io.err(`baton: warning: ${w}\n`) });
      setExit(code);
    },
  );
}
