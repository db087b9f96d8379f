// The new-tab picker's install rows (src/tui/install-choices.ts through agent-choices.ts): an
// agent baton can install that detection found missing gets "Install <title>" with the version
// and what it needs; one baton has no recipe for gets none; the switch and fork pickers
// (agents only) get none; the note says how. Taking a row opens a tab running baton's own
// `agents install NAME --login` (for the agent's default account), never a shell string.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addAccount, setDefaultAccount } from '../../src/plugins/account-store.js';
import type { DriverDefinition, HarnessDriver } from '../../src/plugins/api.js';
import { normalizeDriver } from '../../src/plugins/normalize-driver.js';
import { packageRoot } from '../../src/package-root.js';
import { AgentChoices, NO_AGENT_NOTE } from '../../src/tui/agent-choices.js';
import { INSTALL_NOTE, installTab } from '../../src/tui/install-choices.js';
import { registryOf } from '../helpers/test-registry.js';

function missing(name: string, title: string): HarnessDriver {
  return normalizeDriver({
    name,
    title,
    detect: async () => ({ installed: false, installHint: `install ${name}` }),
    launch: async (opts) => ({ command: name, args: [], cwd: opts.cwd }),
  } as DriverDefinition);
}

const drivers = [missing('qwen', 'Qwen Code'), missing('gamma', 'Gamma'), missing('claude', 'Claude Code')];

test('missing agents baton can install are rows of the new-tab picker, with version and needs, before the shell', async () => {
  const choices = new AgentChoices({ registry: registryOf(drivers), cwd: '/tmp', env: { SHELL: '/bin/sh' } });
  await choices.settled;
  const rows = choices.list();
  assert.equal(
    rows.map((c) => [c.label, c.value]),
    [
      ['Install Claude Code', { kind: 'install', name: 'claude' }],
      ['Install Qwen Code', { kind: 'install', name: 'qwen' }],
      ['Plain shell', { kind: 'shell' }],
    ],
  );
  assert.match(rows[1]!.detail!, /^0\.15\.10 · needs a Qwen OAuth login, an OpenAI-compatible API key, or a local model server$/);
  assert.is(choices.note(), INSTALL_NOTE);
});

test('the switch and fork pickers (agents only) offer no installs', async () => {
  const choices = new AgentChoices({ registry: registryOf(drivers), cwd: '/tmp', env: { SHELL: '/bin/sh' }, agentsOnly: true });
  await choices.settled;
  assert.equal(choices.list(), []);
  assert.is(choices.note(), NO_AGENT_NOTE);
});

test("the install tab runs baton's own install command with --login, under the agent's default account", () => {
  const home = mkdtempSync(join(tmpdir(), 'baton-install-tab-'));
  try {
    const env = { BATON_HOME: home };
    const plain = installTab('qwen', 'Qwen Code', '/w', env);
    assert.is(plain.command, process.execPath);
    assert.equal(plain.args.slice(1), ['agents', 'install', 'qwen', '--login']);
    // baton's built CLI; the unit tier may run before dist/ is built (a fresh clone's
    // `npm run test:unit`), and then the program running now stands in for it.
    const built = join(packageRoot(), 'dist/src/cli.js');
    assert.is(plain.args[0], existsSync(built) ? built : process.argv[1]);
    assert.is(plain.cwd, '/w');
    assert.is(plain.title, 'install Qwen Code');
    addAccount(env, 'qwen', 'work');
    setDefaultAccount(env, 'qwen', 'work');
    assert.equal(installTab('qwen', 'Qwen Code', '/w', env).args.slice(1), ['agents', 'install', 'qwen', '--login', '--account', 'work']);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test.run();
