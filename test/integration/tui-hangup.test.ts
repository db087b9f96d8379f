// The terminal baton runs in goes away (SIGHUP). With a server (the default) that ends only
// the client: test/integration/server.test.ts shows the tabs going on. Without one
// (BATON_NO_SERVER=1, the TUI in the terminal's own process) every tab's program, and what
// it started, is ended, and baton itself is gone: nothing is left running behind a closed
// window.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openPlainShell, startBatonTui } from '../helpers/baton-tui.js';
import { alive } from '../../src/proc/index.js';
import { until } from '../helpers/wait.js';

const s = suite('tui hangup');

s('without a server, SIGHUP ends baton, its shells and their children', async () => {
  const b = startBatonTui({ env: { BATON_NO_SERVER: '1' } });
  try {
    await openPlainShell(b);
    b.t.type('sleep 300 & echo bg=$!\r');
    const screen = await b.t.waitFor(/^bg=\d+$/m);
    const child = Number(/^bg=(\d+)$/m.exec(screen)![1]);
    assert.ok(alive(child));
    process.kill(b.t.pid, 'SIGHUP');
    await b.t.exited;
    await until(() => !alive(child), 'the background sleep to be gone');
    assert.not.ok(alive(b.t.pid));
  } finally {
    await b.cleanup();
  }
});

s.run();
