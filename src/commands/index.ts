// Every command baton has, registered on one yargs parser. Each lives in its own module.

import type { Argv } from 'yargs';
import { setPluginDirs } from './agent-catalog.js';
import { registerBrief } from './brief.js';
import type { Io } from './io.js';
import { registerTranscript } from './transcript.js';

export function registerCommands(y: Argv, io: Io, _setExit: (code: number) => void): Argv {
  y.option('plugins', {
    type: 'string',
    array: true,
    global: true,
    describe: 'also load drop-in driver plugins (*.js, *.mjs) from DIR',
  }).middleware((a) => setPluginDirs(((a.plugins as string[] | undefined) ?? []).map(String)));
  registerTranscript(y, io);
  registerBrief(y, io);
  return y.demandCommand(1, 'say which command; see baton --help');
}
