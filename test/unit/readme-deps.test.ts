// The README says why each runtime dependency is there: its table names every package in
// package.json's dependencies, and nothing that is not one.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..');

test("the README's dependency table names exactly the runtime dependencies", () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Runtime dependencies'), readme.indexOf('\n## ', readme.indexOf('## Runtime dependencies') + 1));
  const named = [...section.matchAll(/^\| ([^|]+) \|/gm)].flatMap((m) => m[1]!.split(',').map((x) => x.trim())).filter((x) => x !== 'package' && x !== '---');
  const deps = Object.keys((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies);
  assert.equal([...named].sort(), [...deps].sort());
});

test.run();
