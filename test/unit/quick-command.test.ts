// src/commands/quick-command.ts: the command lines it recognises without yargs mean what
// yargs makes of them (the same command, directory, server name, tab, read-only flag and
// plugin directories: each is checked against the real parser, stopped before any handler
// runs); anything in another form is left to yargs; its list of command names is the
// parser's.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import yargs from '../../src/commands/yargs.js';
import { registerCommands } from '../../src/commands/index.js';
import { bufferIo } from '../../src/commands/io.js';
import { pluginDirs } from '../../src/commands/plugin-dirs.js';
import { COMMAND_NAMES, quickCommand, type QuickCommand } from '../../src/commands/quick-command.js';

const s = suite('quick command');

class Parsed extends Error {
  constructor(readonly argv: Record<string, unknown>) {
    super('parsed');
  }
}

/** What yargs makes of `argv`, in QuickCommand's terms; it throws from a middleware, before any handler. */
async function yargsReading(argv: string[]): Promise<QuickCommand> {
  const parser = registerCommands(
    yargs(argv)
      .strict()
      .exitProcess(false)
      .fail((msg, err) => {
        throw err ?? new Error(msg);
      }),
    bufferIo({}, '/tmp'),
    () => undefined,
  );
  parser.middleware((a) => {
    throw new Parsed(a as Record<string, unknown>);
  });
  try {
    await parser.parseAsync(argv);
  } catch (e) {
    if (!(e instanceof Parsed)) throw e;
    const a = e.argv;
    const plugins = pluginDirs();
    const command = (a._ as string[])[0] ?? 'open';
    if (command === 'open') return { plugins, kind: 'open', L: a.L as string, ...(a.dir !== undefined ? { dir: a.dir as string } : {}) };
    if (command === 'attach') return { plugins, kind: 'attach', L: a.L as string, r: a.r as boolean, ...(a.t !== undefined ? { t: a.t as string } : {}) };
    if (command === 'server') return { plugins, kind: 'server', L: a.L as string };
    throw new Error(`yargs read ${JSON.stringify(argv)} as ${command}`);
  }
  throw new Error(`yargs ran no command for ${JSON.stringify(argv)}`);
}

const recognised = [
  [],
  ['.'],
  ['some/dir'],
  ['work'],
  ['open'],
  ['open', 'dir'],
  ['open', '-L', 'other', 'dir'],
  ['-L', 'other'],
  ['--plugins', '/p', 'open', 'd'],
  ['--plugins', '/p', '--plugins', '/q'],
  ['attach'],
  ['attach', '-t', '3'],
  ['attach', '--target', 'Claude Code'],
  ['attach', '-r'],
  ['attach', '--read-only', '-L', 'x', '-t', 'sh'],
  ['server', '-L', 'default'],
  ['--plugins', '/p', 'server', '-L', 'work'],
];

s('each command line it recognises means what yargs makes of it', async () => {
  for (const argv of recognised) {
    const quick = quickCommand(argv);
    assert.ok(quick, `recognised: ${JSON.stringify(argv)}`);
    assert.equal(quick, await yargsReading(argv), JSON.stringify(argv));
  }
});

s('any other form is left to yargs', () => {
  const others = [
    ['--help'],
    ['attach', '--help'],
    ['--version'],
    ['ls'],
    ['kill-server'],
    ['chat', 'hi'],
    ['a', 'b'],
    ['open', 'a', 'b'],
    ['-Lother'],
    ['--L=other'],
    ['attach', '-t'],
    ['attach', '-t', '-r'],
    ['attach', '-t', ''],
    ['attach', '-t', '1', '-t', '2'],
    ['attach', 'extra'],
    ['attach', '--host', 'h'],
    ['open', '--host', 'h'],
    ['open', '-r'],
    ['server'],
    ['server', '-L', 'x', 'extra'],
    ['--plugins'],
    ['--plugins', '-L'],
    ['attach', '--plugins', '/p'],
    ['--', 'dir'],
    // Options before the command: yargs reads the command, never a DIR of that name.
    ['-L', 'other', 'ls'],
    ['-L', 'other', 'attach'],
    ['-L', 'other', 'kill-server'],
    ['--plugins', '/p', '-L', 'other', 'attach'],
  ];
  for (const argv of others) assert.is(quickCommand(argv), undefined, JSON.stringify(argv));
});

s("its command names are the parser's", () => {
  const parser = registerCommands(yargs([]), bufferIo({}, '/tmp'), () => undefined);
  const names = (parser as unknown as { getInternalMethods(): { getCommandInstance(): { getCommands(): string[] } } })
    .getInternalMethods()
    .getCommandInstance()
    .getCommands();
  assert.equal([...COMMAND_NAMES].sort(), [...names].sort());
});

s.run();
