// C-b M: the permission mode of the tab in front (issue 13 item 3). A tab running baton's view
// changes it live itself (Shift-Tab in the tab), so it is sent there. A CLI's own terminal UI
// takes a mode at launch only: the new mode is kept for the tab and, once chosen, the CLI is
// launched again in it, continuing its own session (the same path as a restored tab); while
// it works, the mode waits for its next launch, and the dialog says so plainly. A CLI that
// cannot take a mode at launch (opencode's own UI) is pointed at its baton view instead.

import type { TabConversation } from '../conversation/index.js';
import { PERMISSION_MODES, type PermissionMode } from '../plugins/api.js';
import type { Registry } from '../plugins/registry.js';
import type { App } from './app.js';
import { choose, type KeyOption } from './picker.js';

const WHAT: Record<PermissionMode, string> = {
  default: 'asks before changing anything',
  'accept-edits': 'file edits go ahead, commands ask',
  plan: 'reads and plans only, changes nothing',
  'full-access': 'everything goes ahead without asking',
};
const KEY: Record<PermissionMode, string> = { default: 'd', 'accept-edits': 'e', plan: 'p', 'full-access': 'f' };

/** What C-b M does for `tab`; resolves once it is done (a relaunch included). */
export async function chooseTabMode(app: App, registry: Registry, tab: TabConversation | undefined): Promise<void> {
  const snap = tab?.snapshot();
  // What is said below is about the tab in front now (the dialog waits; the user may go to another tab meanwhile).
  const front = app.activeTab;
  const say = (text: string, ms?: number) => app.showMessage(text, ms, front);
  if (!tab || !snap?.agent) {
    say('This tab runs a plain shell: it has no permission mode.');
    return;
  }
  const driver = registry.get(snap.agent);
  if (snap.agent.endsWith('-view')) {
    say(`Press Shift-Tab in the tab: baton's view changes the mode live, in the same session (default, accept-edits, plan).`, 8000);
    return;
  }
  if (!driver.capabilities.launchModes) {
    const view = registry.drivers().find((d) => d.name === `${driver.name}-view`);
    say(`${driver.title}'s own terminal UI has no mode baton can set.${view ? ` Open ${view.title} (C-b c), where baton keeps the mode.` : ''}`, 8000);
    return;
  }
  const current = tab.launchMode ?? registry.settings(driver.name).mode ?? 'default';
  const options: KeyOption<PermissionMode>[] = PERMISSION_MODES.map((m) => ({
    key: KEY[m],
    label: `${m}: ${WHAT[m]}${m === current ? '  (now)' : ''}`,
    value: m,
  }));
  const live = driver.name === 'claude' ? "\nClaude Code's own Shift-Tab changes it now, without a relaunch." : '';
  const text = `${driver.title} started in ${current} mode. Its terminal UI takes a mode at launch: a new one applies from its next launch, and baton relaunches it now, continuing its session.${live}`;
  const mode = await choose(app, 'Permission mode', text, options);
  if (!mode || mode === current) return;
  tab.setLaunchMode(mode);
  if (snap.status === 'working' || snap.status === 'approval') {
    say(`${driver.title} is busy: ${mode} mode applies from its next launch.`, 8000);
    return;
  }
  const outcome = await tab.startInstead(snap.agent);
  say(outcome.kind === 'started' ? `${driver.title} relaunched in ${mode} mode, its session continued.` : outcome.message, 8000);
}
