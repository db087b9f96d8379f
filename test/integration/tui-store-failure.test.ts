// The TUI when the store cannot be opened: BATON_HOME under /proc, where a new tab's
// conversation cannot be made. Before, Node's recursive mkdir retried there forever on
// the one main thread: the screen froze at 100% CPU, deaf to C-b q and to SIGTERM. Now the
// failure is said on the status line (message and hint) and the TUI answers quit and
// signals as in any other state. baton runs in a real PTY (dist/src/cli.js open) with a drop-in
// agent whose "TUI" is cat.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureDecl } from '../helpers/acp-fixture.js';
import { builtBaton, endServers, pickEntry, serverEnv, serverPids } from '../helpers/baton-tui.js';
import { TestTerminal } from '../helpers/term.js';
import { until } from '../helpers/wait.js';

let dir = '';
let t: TestTerminal | undefined;

function start(home: string, inProcess = true): TestTerminal {
  dir = mkdtempSync(join(tmpdir(), 'baton-tui-store-'));
  const work = join(dir, 'work');
  mkdirSync(work);
  const plugins = join(dir, 'config', 'baton', 'plugins');
  mkdirSync(plugins, { recursive: true });
  const decl = { ...fixtureDecl({ name: 'cat-agent', title: 'Cat agent' }), tui: { command: '/bin/sh', args: ['-c', 'echo AGENT-READY; exec cat'] } };
  writeFileSync(join(plugins, 'cat-agent.mjs'), `export default (kit) => kit.acpDriver(${JSON.stringify(decl)});\n`);
  return new TestTerminal([process.execPath, builtBaton(), 'open', work], {
    cols: 160,
    rows: 30,
    cwd: work,
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      USER: 'tester',
      BATON_HOME: home,
      XDG_CONFIG_HOME: join(dir, 'config'),
      XDG_DATA_HOME: join(dir, 'data'),
      ACP_FIXTURE_HOME: join(dir, 'acp'),
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
      SHELL: '/bin/sh',
      ...serverEnv(dir),
      ...(inProcess ? { BATON_NO_SERVER: '1' } : {}),
    },
  });
}

/** Picks the agent in the new-tab picker and waits for the failure on the status line. */
async function openAgentTab(term: TestTerminal, home: string): Promise<void> {
  await pickEntry(term, 'Cat agent');
  const parent = home.slice(0, home.lastIndexOf('/'));
  await term.waitFor(`cannot create ${parent}: that file system does not allow a directory there (ENOENT)`, 30_000, 'the failure on the status line');
}

/** Waits for the TUI to end; a generous limit only keeps a regression from hanging the suite. */
async function ended(term: TestTerminal, what: string): Promise<number> {
  await until(() => term.exitCode !== undefined, what, 60_000);
  return term.exitCode!;
}

const s = suite('tui store failure');
s.after.each(async () => {
  await t?.kill();
  t = undefined;
  await endServers(join(dir, 'run'));
  rmSync(dir, { recursive: true, force: true });
});

s('BATON_HOME under /proc: a new agent tab fails with a message, and C-b q quits', async () => {
  const home = `/proc/baton-tui-${process.pid}/home`;
  t = start(home);
  await openAgentTab(t, home);
  assert.match(t.screenText(), /No tabs\./, 'no tab was opened');
  t.press('C-b', 'q');
  assert.is(await ended(t, 'baton to quit on C-b q'), 0);
});

s('BATON_HOME under /proc: after the failure, SIGTERM ends baton', async () => {
  const home = `/proc/baton-tui-${process.pid}/home`;
  t = start(home);
  await openAgentTab(t, home);
  process.kill(t.pid, 'SIGTERM');
  assert.is(await ended(t, 'baton to end on SIGTERM'), 0);
});

s('BATON_HOME under /proc, with a server: baton says so before it takes the screen (exit 2) and no server is left', async () => {
  const home = `/proc/baton-tui-${process.pid}/home`;
  t = start(home, false);
  const code = await ended(t, 'baton to give up');
  assert.is(code, 2);
  assert.match(t.screenText(), /cannot create \/proc\/baton-tui-\d+: that file system does not allow a directory there \(ENOENT\)/);
  assert.equal(serverPids(join(dir, 'run')), []);
});

s.run();
