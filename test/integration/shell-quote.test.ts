// src/client/shell-quote.ts against real shells: any list of words (no NUL), quoted and
// joined into one command string as ssh hands it to the remote login shell, comes back from
// that shell as exactly those words: `printf '%s\0' WORDS` run by each shell installed here
// (dash as sh and bash on Debian; zsh, ksh, mksh and fish when present; which ran is
// printed). Strings are drawn from all of Unicode and from shell syntax ($, `, ', ", \, ;,
// globs, braces, ~, #, =, !, newlines) so the quoting meets what it is there for.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { shellCommand } from '../../src/client/shell-quote.js';

const CANDIDATES = ['/bin/sh', '/bin/dash', '/bin/bash', '/usr/bin/zsh', '/bin/zsh', '/usr/bin/ksh', '/bin/mksh', '/usr/bin/fish'];
// One run per real program (/bin/sh is dash on Debian; /bin and /usr/bin are one directory).
const shells = [...new Set(CANDIDATES.filter((p) => existsSync(p)).map((p) => realpathSync(p)))];
console.log(`shell quoting: checked with ${shells.join(', ')}`);

const syntax = fc.string({ unit: fc.constantFrom(...'$`\'"\\;|&<>(){}[]*?~#=! \t\nab-%^'.split('')), maxLength: 24 });
const anything = fc.string({ unit: 'grapheme', maxLength: 24 }).filter((w) => !w.includes('\0'));
const words = fc.array(fc.oneof(syntax, anything), { minLength: 1, maxLength: 6 });

/** What `shell` reads back from the quoted words. */
function readBack(shell: string, ws: string[]): string[] {
  // fish's printf takes the same format; \0 ends each word, so empty words and newlines survive.
  const r = spawnSync(shell, ['-c', `printf '%s\\0' ${shellCommand(ws)}`], {
    encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8', HOME: '/nonexistent' },
  });
  if (r.status !== 0) throw new Error(`${shell} failed (${r.status}): ${r.stderr}`);
  return r.stdout.split('\0').slice(0, -1);
}

test('a POSIX sh is here to check against', () => {
  assert.ok(existsSync('/bin/sh') && shells.length > 0);
});

for (const shell of shells) {
  test(`${shell} reads every quoted word back exactly`, () => {
    fc.assert(
      fc.property(words, (ws) => {
        assert.equal(readBack(shell, ws), ws);
      }),
      { numRuns: 150 },
    );
  });
}

test.run();
