// Finds baton's own install folder (where package.json and config/ live), whether the code
// runs from src/ under tsx or from dist/src/ after a build. Imports nothing of baton's.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'baton') {
      return (cached = dir);
    }
    const up = dirname(dir);
    if (up === dir) throw new Error('baton: cannot find its own package.json');
    dir = up;
  }
}

export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
