// src/client/shell-quote.ts: the words baton puts into ssh's one remote command string.
// Exact shapes for the cases that matter (plain words untouched; quotes, backslashes, `=`,
// `~`, `$`, newlines and the empty word quoted; a NUL refused; a leading `~/` left to the
// remote shell), and, for any string, the safety the shells rely on: outside single quotes
// there is nothing but plain characters and a backslash before `'` or `\`. That the shells
// read every quoted word back exactly is shown against real shells in
// test/integration/shell-quote.test.ts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { remotePath, shellCommand, shellQuote } from '../../src/client/shell-quote.js';
import { BatonError } from '../../src/errors.js';

test('plain words are left as they are; everything else is quoted', () => {
  assert.is(shellQuote('baton'), 'baton');
  assert.is(shellQuote('/usr/local/bin/baton'), '/usr/local/bin/baton');
  assert.is(shellQuote('-L'), '-L');
  assert.is(shellQuote('user@host:22,x+y%'), 'user@host:22,x+y%');
  assert.is(shellQuote(''), "''");
  assert.is(shellQuote('a b'), "'a b'");
  assert.is(shellQuote('$HOME'), "'$HOME'");
  assert.is(shellQuote('a;rm -rf ~'), "'a;rm -rf ~'");
  assert.is(shellQuote('`id`'), "'`id`'");
  assert.is(shellQuote('X=1'), "'X=1'", 'never read as an assignment');
  assert.is(shellQuote('~'), "'~'", 'never expanded');
  assert.is(shellQuote('#x'), "'#x'", 'never a comment');
  assert.is(shellQuote('*'), "'*'");
  assert.is(shellQuote('{a,b}'), "'{a,b}'");
  assert.is(shellQuote('line\nbreak'), "'line\nbreak'");
});

test("a quote or a backslash is written outside the single quotes, escaped (fish reads \\' inside them as an escape)", () => {
  assert.is(shellQuote("it's"), "'it'\\''s'");
  assert.is(shellQuote("'"), "\\'");
  assert.is(shellQuote('a\\b'), "'a'\\\\'b'");
  assert.is(shellQuote("\\'\\"), "\\\\\\'\\\\");
});

test('a NUL cannot be carried by a command line: refused', () => {
  assert.throws(
    () => shellQuote('a\0b'),
    (e: unknown) => e instanceof BatonError && e.exitCode === 2 && /NUL/.test(e.message),
  );
});

test('shellCommand quotes each word and joins them with spaces', () => {
  assert.is(shellCommand(['env', 'HOME=/tmp/a b', '/usr/bin/node', "it's.js"]), "env 'HOME=/tmp/a b' /usr/bin/node 'it'\\''s.js'");
  assert.is(shellCommand([]), '');
});

test('remotePath leaves a leading ~/ to the remote shell and quotes the rest', () => {
  assert.is(remotePath('~/.local/bin/baton'), '~/.local/bin/baton');
  assert.is(remotePath('~/my tools/baton'), "~/'my tools/baton'");
  assert.is(remotePath('~'), '~');
  assert.is(remotePath('~other/baton'), "'~other/baton'", 'only the own home');
  assert.is(remotePath('/opt/baton $x'), "'/opt/baton $x'");
});

/** Splits a quoted word into what lies outside single quotes and what inside; undefined if a quote is left open. */
function outside(q: string): string | undefined {
  let out = '';
  let inQuote = false;
  for (let i = 0; i < q.length; i++) {
    const c = q[i]!;
    if (inQuote) {
      if (c === "'") inQuote = false;
      else if (c === '\\') return undefined; // never inside quotes
      continue;
    }
    if (c === "'") inQuote = true;
    else if (c === '\\') {
      out += c + (q[i + 1] ?? '');
      i++;
    } else out += c;
  }
  return inQuote ? undefined : out;
}

test("for any string: outside the quotes only plain characters and \\' or \\\\; quotes all closed", () => {
  fc.assert(
    fc.property(
      fc.string({ unit: 'binary', maxLength: 40 }).filter((w) => !w.includes('\0')),
      (w) => {
        const rest = outside(shellQuote(w));
        assert.ok(rest !== undefined, `quotes balanced and no backslash inside them: ${shellQuote(w)}`);
        assert.ok(/^(?:[A-Za-z0-9_@%+:,./-]|\\['\\])*$/.test(rest!), `outside the quotes: ${JSON.stringify(rest)}`);
      },
    ),
    { numRuns: 2000 },
  );
});

test.run();
