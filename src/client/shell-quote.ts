// Words for a remote shell. ssh gives the remote user's login shell one command string (it
// joins its arguments with spaces), so every word baton puts in that string is quoted here
// to arrive as exactly that one word, whatever it holds: spaces, quotes, `$`, `;`, globs,
// newlines. Runs of ordinary characters go in single quotes; a `'` or a `\` is written
// outside them, backslash-escaped, which sh, dash, bash, zsh, ksh and fish all read the
// same way (fish, unlike sh, treats `\'` and `\\` as escapes inside single quotes, so they
// are never put there). Pure; never used to build a local command line (those are argv).

import { badInput } from '../errors.js';

/** Needs no quotes in any of those shells. `=`, `~`, `#`, `!`, `{` and the like are left out on purpose. */
const PLAIN = /^[A-Za-z0-9_@%+:,./-]+$/;

/** One word, quoted for a POSIX-like shell (and fish). A NUL cannot be in a command line: refused. */
export function shellQuote(word: string): string {
  if (word.includes('\0')) throw badInput('a word for the remote shell holds a NUL character', 'a command line cannot carry one; remove it');
  if (PLAIN.test(word)) return word;
  if (word === '') return "''";
  let out = '';
  let run = '';
  for (const ch of word) {
    if (ch === "'" || ch === '\\') {
      if (run) out += `'${run}'`;
      run = '';
      out += `\\${ch}`;
    } else run += ch;
  }
  if (run) out += `'${run}'`;
  return out;
}

/** Words joined into one command string, each quoted. */
export function shellCommand(words: readonly string[]): string {
  return words.map(shellQuote).join(' ');
}

/**
 * A path on the remote host as one word, except that a leading `~/` (or a lone `~`) is left
 * to the remote shell, meaning the remote home (`~/.local/bin/baton`).
 */
export function remotePath(path: string): string {
  if (path === '~') return '~';
  if (path.startsWith('~/')) return path.length > 2 ? `~/${shellQuote(path.slice(2))}` : '~/';
  return shellQuote(path);
}
