// The built baton, dist/src/cli.js: the program users run, which tests that start baton as a
// process run (built by `npm test`, or by `npx tsc -p tsconfig.json` before a suite is run by
// hand). A build older than a source file is refused, so no suite tests yesterday's build.
// Light: no PTY, so any tier's helper may import it.

import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The sources dist/ is built from. */
const SOURCES = ['src', 'plugins'];

function newestSource(dir: string): { path: string; ms: number } {
  let best = { path: '', ms: 0 };
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    const cand = e.isDirectory() ? newestSource(p) : e.name.endsWith('.ts') ? { path: p, ms: statSync(p).mtimeMs } : best;
    if (cand.ms > best.ms) best = cand;
  }
  return best;
}

let checked: string | undefined;

/**
 * dist/src/cli.js, the built baton; throws when it is missing or older than a source file,
 * so a suite run by hand never tests yesterday's build.
 */
export function builtBaton(): string {
  if (checked) return checked;
  const cli = join(ROOT, 'dist/src/cli.js');
  if (!existsSync(cli)) throw new Error(`${cli} is not built: run npx tsc -p tsconfig.json (npm test builds it)`);
  const built = statSync(cli).mtimeMs;
  for (const d of SOURCES) {
    const newest = newestSource(join(ROOT, d));
    if (newest.ms > built) throw new Error(`dist/ is older than ${newest.path}: run npx tsc -p tsconfig.json (npm test builds it)`);
  }
  return (checked = cli);
}
