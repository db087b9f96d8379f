// `npm start` (the README's quick start) opens baton in the directory npm was run from, not
// in baton's own clone: run as a user in another directory would, `npm --prefix CLONE start`,
// in a real PTY; a plain shell opened from the picker says where it runs.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pickEntry, ROOT } from '../helpers/baton-tui.js';
import { TestTerminal } from '../helpers/term.js';

const s = suite('npm start');

// Before: the script was `node dist/src/cli.js`, which npm runs in the package's directory.
s('npm start opens baton where the user stands', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'baton-npm-start-'));
  const project = realpathSync(dir);
  mkdirSync(join(dir, 'config'));
  const t = new TestTerminal(['npm', '--prefix', ROOT, 'start'], {
    cols: 100,
    rows: 30,
    cwd: project,
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      XDG_CONFIG_HOME: join(dir, 'config'),
      BATON_HOME: join(dir, 'baton'),
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
      SHELL: '/bin/sh',
      PS1: '$ ',
      npm_config_update_notifier: 'false',
    },
  });
  try {
    await t.waitFor(/Plain shell/, 60_000, 'the picker');
    await pickEntry(t, 'Plain shell');
    await t.waitFor(/^\$$/m, 15_000, 'the shell');
    t.type('pwd\r');
    const screen = await t.waitFor(/^\/.*$/m, 15_000, 'pwd');
    assert.ok(screen.split('\n').includes(project), `the shell runs in ${project}:\n${screen}`);
  } finally {
    await t.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});

s.run();
