// The few command lines that attach a terminal or run the server, recognised without
// loading yargs: `baton [DIR]`, `baton open [DIR]`, `baton attach [-t TAB] [-r] [-L NAME]`,
// `baton server -L NAME` (what the first `baton` starts), each after any `--plugins DIR`.
// yargs and every command module cost a client ~150 ms and ~15 MB before it could relay
// its first byte (reattaching is node's start-up plus this), and the server the same
// megabytes for as long as it runs. Anything else, or anything here in a form it does not
// recognise (`-Lname`, `--help`, a repeated option, a value that looks like an option),
// is left to yargs, which parses it the way it always has: this is a shortcut to the same
// handlers (openView, attachClient, serve), never a second grammar to keep in step.
// Pure: it reads the words and runs nothing.

import { DEFAULT_SERVER } from '../server/socket-place.js';

export type QuickCommand = { plugins: string[] } & (
  | { kind: 'open'; dir?: string; L: string }
  | { kind: 'attach'; t?: string; r: boolean; L: string }
  | { kind: 'server'; L: string }
);

/**
 * Every command's name: a first word that is none of them is the DIR of `baton [DIR]`, as
 * yargs reads it (a test holds this list to the parser's).
 */
export const COMMAND_NAMES: readonly string[] = [
  'open',
  'transcript',
  'brief',
  'chat',
  'agents',
  'accounts',
  'reset',
  'fork',
  'worktree',
  'server',
  'attach',
  'ls',
  'kill-server',
  'proxy',
  'acp-view',
];

/** An option's value: a plain word (yargs would read `-x` as the next option). */
const plainWord = (w: string | undefined): w is string => w !== undefined && w !== '' && !w.startsWith('-');

/** The command `argv` asks for when it is one of the shapes above; undefined for yargs to parse. */
export function quickCommand(argv: readonly string[]): QuickCommand | undefined {
  const plugins: string[] = [];
  let i = 0;
  while (argv[i] === '--plugins') {
    if (!plainWord(argv[i + 1])) return undefined;
    plugins.push(argv[i + 1]!);
    i += 2;
  }
  let command = argv[i];
  let rest = argv.slice(i + 1);
  const implicitOpen = command !== undefined && !COMMAND_NAMES.includes(command);
  if (implicitOpen) {
    // `baton DIR` is `baton open DIR`.
    command = 'open';
    rest = argv.slice(i);
  }
  // Each option at most once, each with a plain value; a word that is not an option only where a DIR is taken.
  const opts = new Map<string, string | true>();
  const words: string[] = [];
  const valued: Record<string, string> = { '-L': 'L', '-t': 't', '--target': 't' };
  const flags: Record<string, string> = { '-r': 'r', '--read-only': 'r' };
  for (let k = 0; k < rest.length; k++) {
    const w = rest[k]!;
    const name = valued[w] ?? flags[w];
    if (name === undefined) {
      if (!plainWord(w)) return undefined;
      words.push(w);
      continue;
    }
    if (opts.has(name)) return undefined;
    if (valued[w]) {
      if (!plainWord(rest[k + 1])) return undefined;
      opts.set(name, rest[++k]!);
    } else opts.set(name, true);
  }
  // Options before the command (`baton -L work ls`, tmux's order): yargs finds the command
  // among the words, where this reading took it for the DIR ("…/work/ls is not a directory").
  if (implicitOpen && words.some((w) => COMMAND_NAMES.includes(w))) return undefined;
  const L = (opts.get('L') as string | undefined) ?? DEFAULT_SERVER;
  const only = (...allowed: string[]) => [...opts.keys()].every((k) => allowed.includes(k));
  if (command === undefined) return { plugins, kind: 'open', L };
  if (command === 'open' && words.length <= 1 && only('L')) return { plugins, kind: 'open', L, ...(words[0] !== undefined ? { dir: words[0] } : {}) };
  if (command === 'attach' && words.length === 0 && only('L', 't', 'r')) {
    const t = opts.get('t') as string | undefined;
    return { plugins, kind: 'attach', L, r: opts.get('r') === true, ...(t !== undefined ? { t } : {}) };
  }
  if (command === 'server' && words.length === 0 && opts.has('L') && only('L')) return { plugins, kind: 'server', L };
  return undefined;
}
