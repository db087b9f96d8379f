// The permission mode a tab starts its agent in (TabConversation.setLaunchMode, issue 13 item
// 3), against an in-memory terminal (test/helpers/fake-agent.ts): a driver with launchModes is
// launched with it, each time it is launched; one without (opencode's own TUI) is refused a
// mode other than default before anything is recorded, naming its baton view, so plan never
// starts as a CLI that would write.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TabConversation } from '../../src/conversation/tab-conversation.js';
import { TabSession } from '../../src/conversation/tab-session.js';
import type { LaunchOptions } from '../../src/plugins/api.js';
import { createConversation } from '../../src/transcript/store.js';
import { FakeTerminal, fakeDriver, registryOf } from '../helpers/fake-agent.js';

const s = suite('tab launch mode');
let home = '';
let tab: TabConversation | undefined;
s.before.each(() => {
  home = mkdtempSync(join(tmpdir(), 'baton-launchmode-'));
});
s.after.each(async () => {
  await tab?.close();
  tab = undefined;
  rmSync(home, { recursive: true, force: true });
});

async function open(): Promise<{ tab: TabConversation; launched: LaunchOptions[] }> {
  const conv = await createConversation(home, { cwd: home, title: 't', user: { type: 'user', name: 'tester', device: 'test' } });
  const term = new FakeTerminal();
  const launched: LaunchOptions[] = [];
  const registry = registryOf(
    fakeDriver(term, { name: 'alpha', title: 'Alpha', capabilities: { resume: true, tabSession: true, launchModes: true }, launched }),
    fakeDriver(term, { name: 'beta', title: 'Beta', capabilities: { resume: true, tabSession: true }, launched }),
    fakeDriver(term, { name: 'beta-view', title: 'Beta (baton view)', capabilities: { resume: true, tabSession: true, launchModes: true }, launched }),
  );
  const session = new TabSession({ conversation: conv, registry, terminal: term, env: {}, deliveryTimeoutMs: 120, readyTimeoutMs: 2000 });
  tab = new TabConversation(session, { home, registry, env: {} });
  return { tab, launched };
}

s('a driver with launchModes starts in the mode; the default passes none', async () => {
  const { tab, launched } = await open();
  assert.is((await tab.start('alpha')).kind, 'started');
  assert.is(launched[0]!.mode, undefined);
  tab.setLaunchMode('plan');
  assert.is(tab.launchMode, 'plan');
  assert.is((await tab.startInstead('alpha')).kind, 'started');
  assert.is(launched[1]!.mode, 'plan');
});

s('a driver without launchModes is refused plan before anything is recorded; its view is named', async () => {
  const { tab, launched } = await open();
  tab.setLaunchMode('plan');
  const outcome = await tab.start('beta');
  assert.is(outcome.kind, 'stopped-not-switched');
  assert.match(outcome.message, 'Beta could not be launched: Beta cannot be started in plan mode in its own terminal UI: open it as Beta (baton view)');
  assert.equal(launched, []);
  assert.equal(
    tab
      .transcript()
      .visible()
      .filter((e) => e.kind === 'handoff'),
    [],
  );
  tab.setLaunchMode('default');
  assert.is((await tab.start('beta')).kind, 'started');
});

s.run();
