// Every exit code baton has (src/errors.ts) is in the README's table, once, so a script
// author can look up any code baton ends with.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT } from '../../src/errors.js';

test('the README lists every exit code once', () => {
  const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
  const rows = [...readme.matchAll(/^\| (\d+) \|/gm)].map((m) => Number(m[1]));
  for (const [name, code] of Object.entries(EXIT)) {
    assert.is(rows.filter((r) => r === code).length, 1, `exit ${code} (${name}) in the README's table`);
  }
});

test.run();
