// Development and test entry: `node --import tsx src/tui/main.ts [DIR]` runs the TUI the
// way `baton open DIR` will, until src/cli.ts takes over. Prints BatonErrors the CLI way.

import { resolve } from 'node:path';
import { BatonError } from '../errors.js';
import { stripControls } from '../transcript/sanitize.js';
import { runTui } from './entry.js';

try {
  const code = await runTui({ cwd: resolve(process.argv[2] ?? process.cwd()), env: process.env });
  process.exit(code);
} catch (e) {
  if (e instanceof BatonError) {
    console.error(stripControls(`baton: ${e.message}`));
    if (e.hint) console.error(stripControls(`  hint: ${e.hint}`));
    process.exit(e.exitCode);
  }
  throw e;
}
