#!/usr/bin/env node
// The one entry point: parses the command line with yargs and hands each command to a
// module under src/commands/ that a test can call without spawning a process; the few
// command lines that attach a terminal or run the server are recognised without loading
// yargs or the other commands (commands/quick-command.ts), so a reattach costs node's
// start-up and little more. Prints expected failures as `baton: <message>` (+ `  hint:
// <hint>`) and leaves with their exit code; so are the file-system errors that describe
// the machine (a full disk, a read-only or foreign directory: fs-failure.ts); anything
// else is a bug and keeps its stack trace. Everything printed goes through terminalSafe() (commands/io.ts): no control
// character from data reaches the terminal.

import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { inspect } from 'node:util';
import { BatonError, EXIT } from './errors.js';
import { fsFailure } from './fs-failure.js';
import { resolveHome } from './transcript/store-home.js';
import { processIo, terminalSafe, type Io } from './commands/io.js';
import { setPluginDirs } from './commands/plugin-dirs.js';
import { quickCommand, type QuickCommand } from './commands/quick-command.js';
import { packageVersion } from './package-root.js';
import { withManagedAgents } from './plugins/managed-agents.js';

export async function main(argv: string[], given: Io = processIo()): Promise<number> {
  // Every command prints through this one door (see io.ts): nothing from data acts on the terminal.
  // Whatever baton runs also finds the agents it installed itself, after the user's PATH.
  const io = terminalSafe({ ...given, env: withManagedAgents(given.env) });
  let code: number = EXIT.ok;
  const setExit = (c: number) => (code = c);
  try {
    const quick = quickCommand(argv);
    if (quick) await runQuick(quick, io, setExit);
    else await parseAndRun(argv, io, setExit);
  } catch (err) {
    const known = err instanceof BatonError ? err : fsFailure(err, { home: homeOrUndefined(io.env) });
    if (known) {
      io.err(`baton: ${known.message}\n`);
      if (known.hint) io.err(`  hint: ${known.hint}\n`);
      return known.exitCode;
    }
    throw err;
  }
  return code;
}

async function runQuick(q: QuickCommand, io: Io, setExit: (code: number) => void): Promise<void> {
  setPluginDirs(q.plugins);
  if (q.kind === 'server') return (await import('./commands/server-commands.js')).serve(io, q.L);
  if (q.kind === 'attach') return (await import('./commands/server-commands.js')).attachClient(io, q, setExit);
  return (await import('./commands/open.js')).openView(io, q, setExit);
}

async function parseAndRun(argv: string[], io: Io, setExit: (code: number) => void): Promise<void> {
  const { default: yargs } = await import('./commands/yargs.js');
  const { registerCommands } = await import('./commands/index.js');
  const parser = yargs(argv)
    .scriptName('baton')
    .usage('baton — one conversation, handed between AI coding agents.\n\nUsage: $0 <command> [options]')
    .version(packageVersion())
    .help()
    .alias('h', 'help')
    .strict()
    .recommendCommands()
    .exitProcess(false)
    .wrap(Math.min(100, io.columns ?? 100))
    .fail((msg, err) => {
      if (err) throw err;
      throw new BatonError(msg, EXIT.badInput, 'see `baton --help`');
    });
  registerCommands(parser, io, setExit);
  await parser.parseAsync(argv, {}, (err: unknown, _argv: unknown, output: string) => {
    if (output && !err) io.out(output.endsWith('\n') ? output : output + '\n');
  });
}

function homeOrUndefined(env: NodeJS.ProcessEnv): string | undefined {
  try {
    return resolveHome(env);
  } catch {
    return undefined;
  }
}

function isEntryPoint(): boolean {
  if (!process.argv[1]) return false;
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

// A command is done when its handler resolves, and baton then exits, whatever a plugin left
// running (an interval, a socket, a turn baton stopped waiting for): so a command that
// serves must not resolve before it has finished serving. And the reverse: should the event
// loop run dry while the command is still waiting (a promise no one can settle any more),
// that is a failure, never a silent exit 0.
function exitNow(code: number): void {
  process.exitCode = code;
  // stdout and stderr are synchronous for files, pipes and terminals on Linux; the empty
  // writes are a flush where they are not.
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

if (isEntryPoint()) {
  let finished = false;
  process.once('beforeExit', () => {
    if (finished) return;
    process.stderr.write(
      'baton: internal error: the command stopped before it finished (it was waiting for something that can no longer happen; a plugin may be at fault)\n',
    );
    process.exitCode = EXIT.internal;
  });
  main(process.argv.slice(2)).then(
    (code) => {
      finished = true;
      exitNow(code);
    },
    (err: unknown) => {
      finished = true;
      // A bug: its stack trace is kept, but an error's message may quote data (a driver's output).
      terminalSafe(processIo()).err(`${inspect(err)}\n`);
      exitNow(EXIT.internal);
    },
  );
}
