#!/usr/bin/env node
// `npm start [-- ARGS]`: baton as `baton ARGS` in the directory npm was run from. npm runs a
// script in the package's own directory and passes the directory it was started in as
// INIT_CWD; without this, `npm start` (and `npm --prefix CLONE start`) opened baton on its own
// clone instead of where the user stands. Runs the built baton (npm ci builds it) in this process.
import { fileURLToPath } from 'node:url';

if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
const cli = fileURLToPath(new URL('../dist/src/cli.js', import.meta.url));
// As if run as `node dist/src/cli.js ARGS`: cli.js starts its command when it is the entry point.
process.argv = [process.argv[0], cli, ...process.argv.slice(2)];
await import(cli);
