// burst-gc.ts in a node of its own started with --expose-gc, as the server is: a burst of
// at least 2000 lines gets one full collection once output has been quiet, a small one none,
// and output arriving meanwhile puts it off. V8's own gc is wrapped only to count its calls.

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const s = suite('burst-gc');
const MODULE = fileURLToPath(new URL('../../src/tui/burst-gc.ts', import.meta.url));

const SCRIPT = `
const real = globalThis.gc;
let calls = 0;
globalThis.gc = () => { calls++; real(); };
const { burstSettled, burstActive } = await import(${JSON.stringify(MODULE)});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const until = async (pred) => { for (let i = 0; i < 200 && !pred(); i++) await sleep(50); };
const seen = [];
burstSettled(1999);
await sleep(600);
seen.push(calls);
burstSettled(10000);
// Output again before the quiet time (250 ms) is up puts the collection 250 ms after it: the
// check at 350 ms comes first (timers fire in order of expiry, however late).
await sleep(200);
burstActive();
await sleep(150);
seen.push(calls);
await until(() => calls > 0);
await sleep(400);
seen.push(calls);
process.stdout.write(JSON.stringify(seen));
process.exit(0);
`;

s('one collection per burst of 2000 lines or more, once output is quiet; none for a small one, and none without gc', () => {
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', SCRIPT], { encoding: 'utf8' });
  assert.equal(JSON.parse(out), [0, 0, 1]);
  // Without --expose-gc (tests, `baton chat`) it does nothing and fails nothing.
  const none = execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `const m = await import(${JSON.stringify(MODULE)}); m.burstSettled(10000); m.burstActive(); setTimeout(() => process.stdout.write('ok'), 400);`,
    ],
    { encoding: 'utf8' },
  );
  assert.is(none, 'ok');
});

s.run();
