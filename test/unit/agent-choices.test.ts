// The picker's agent rows (src/tui/agent-choices.ts): which installed agents are offered for a
// tab, decided from what each driver declares, never by trying its launch — opencode's
// launch makes a session in the user's store, and every picker opening made one.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AgentChoices, CHECKING } from '../../src/tui/agent-choices.js';
import { addAccount, setDefaultAccount } from '../../src/plugins/account-store.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registryOf, testDriver as agent } from '../helpers/test-registry.js';

test('offered: installed agents with a terminal UI; no launch is tried to find out', async () => {
  const launched: string[] = [];
  const drivers = [
    agent('alpha', {}, launched),
    agent('beta', { capabilities: { tab: false } }, launched),
    agent('gamma', { detect: async () => ({ installed: false, installHint: 'install gamma' }) }, launched),
  ];
  const choices = new AgentChoices({ registry: registryOf(drivers), cwd: '/tmp', env: { SHELL: '/bin/sh' }, agentsOnly: true });
  assert.equal(
    choices.list().map((c) => c.detail),
    [CHECKING, CHECKING, CHECKING],
    'every row checking at first',
  );
  await choices.settled;
  assert.equal(
    choices.list().map((c) => c.label),
    ['ALPHA'],
  );
  assert.is(choices.usable('beta'), false, 'no terminal UI of its own: not offered for a tab');
  assert.is(choices.usable('gamma'), false);
  assert.equal(launched, [], 'the picker never launched an agent');
});

test("an agent with baton accounts gets a row per account, `default` (the CLI's own configuration) first; none without any", async () => {
  const home = mkdtempSync(join(tmpdir(), 'baton-choices-'));
  try {
    const env = { SHELL: '/bin/sh', BATON_HOME: home };
    const drivers = [agent('alpha', { capabilities: { accounts: true } }), agent('beta', { capabilities: { accounts: true } }), agent('gamma')];
    addAccount(env, 'alpha', 'work');
    addAccount(env, 'alpha', 'home');
    setDefaultAccount(env, 'alpha', 'work');
    const choices = new AgentChoices({ registry: registryOf(drivers), cwd: '/tmp', env, agentsOnly: true });
    await choices.settled;
    assert.equal(
      choices.list().map((c) => [c.label, c.detail, c.value]),
      [
        ['ALPHA', '1.0.0', { kind: 'agent', name: 'alpha' }],
        ['ALPHA · account default', "the CLI's own configuration", { kind: 'agent', name: 'alpha', account: 'default' }],
        ['ALPHA · account home', '', { kind: 'agent', name: 'alpha', account: 'home' }],
        ['ALPHA · account work', 'its default', { kind: 'agent', name: 'alpha', account: 'work' }],
        ['BETA', '1.0.0', { kind: 'agent', name: 'beta' }],
        ['GAMMA', '1.0.0', { kind: 'agent', name: 'gamma' }],
      ],
    );
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test.run();
