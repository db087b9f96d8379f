// The unit tier's one process (scripts/test.mjs starts it behind scripts/unit-guard.mjs):
// every suite named on the command line is loaded, then uvu runs them all and prints one total.
import { run } from 'uvu/run';
import { resolve } from 'node:path';

const suites = process.argv.slice(2).map((f) => ({ name: f, file: resolve(f) }));
await run(suites, {});
