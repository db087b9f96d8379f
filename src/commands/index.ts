// Every command baton has, registered on one yargs parser. Each lives in its own module.

import type { Argv } from './yargs.js';
import { setPluginDirs } from './plugin-dirs.js';
import { registerAccounts } from './accounts-command.js';
import { registerAcpView } from './acp-view-command.js';
import { registerAgents } from './agents.js';
import { registerBrief } from './brief-command.js';
import { registerChat } from './chat-command.js';
import { registerFork } from './fork-command.js';
import { registerReset } from './reset-command.js';
import { registerOpen } from './open.js';
import { registerServerCommands } from './server-commands.js';
import type { Io } from './io.js';
import { registerTranscript } from './transcript-command.js';
import { registerWorktree } from './worktree-command.js';

export function registerCommands(y: Argv, io: Io, setExit: (code: number) => void): Argv {
  y.option('plugins', {
    // Not `array`: an array option would swallow the command words after it. Repeating
    // the option still collects every DIR.
    type: 'string',
    global: true,
    describe: 'also load drop-in driver plugins (*.js, *.mjs) from DIR',
  }).middleware((a) => setPluginDirs(([] as unknown[]).concat(a.plugins ?? []).map(String)));
  registerOpen(y, io, setExit);
  registerTranscript(y, io);
  registerBrief(y, io);
  registerChat(y, io);
  registerAgents(y, io);
  registerAccounts(y, io);
  registerReset(y, io);
  registerFork(y, io);
  registerWorktree(y, io);
  registerServerCommands(y, io, setExit);
  registerAcpView(y, io);
  return y;
}
