// What baton's own commands do in the App when the caller (the conversation layer) gave no
// handler for them: the tab keys, help, scroll mode, closing a tab and quitting, each
// asking first when it would end something still running. Through the CommandHost surface
// only, which App implements: this module never imports the app that calls it.

import { openHelp } from './help.js';
import { type Command, type KeyConfig, type SimpleCommand, tmuxPrefixNote } from './keys.js';
import type { OverlayHost } from './overlay.js';
import { confirm } from './picker.js';
import type { Tab } from './tab.js';

/** What the built-in commands use of the app: its tabs, overlays for their questions, and the acts they ask of it. */
export interface CommandHost extends OverlayHost {
  readonly tabs: readonly Tab[];
  readonly active: number;
  readonly activeTab: Tab | undefined;
  select(index: number): void;
  isAgentTab(tab: Tab): boolean;
  newTabFromPicker(): Promise<void>;
  enterScroll(): void;
  closeTab(tab: Tab): Promise<void>;
  quit(): Promise<void>;
  showMessage(text: string | undefined, ms?: number): void;
}

export async function runBuiltIn(app: CommandHost, command: Command, keys: KeyConfig, env: NodeJS.ProcessEnv): Promise<void> {
  const n = app.tabs.length;
  switch (command as SimpleCommand) {
    case 'new-tab':
      return app.newTabFromPicker();
    case 'next-tab':
      if (n) app.select((app.active + 1) % n);
      return;
    case 'prev-tab':
      if (n) app.select((app.active - 1 + n) % n);
      return;
    case 'help': {
      const tmux = tmuxPrefixNote(keys, env);
      return openHelp(app, keys, { agentTab: app.activeTab ? app.isAgentTab(app.activeTab) : false, ...(tmux ? { note: tmux.full } : {}) });
    }
    case 'scroll-mode':
      return app.enterScroll();
    case 'close-tab':
      return closeActiveTab(app);
    case 'quit':
      return askToQuit(app);
    case 'switch-agent':
    case 'mode':
    case 'compose':
    case 'transcript':
      app.showMessage(`${command}: not available in this build yet`);
      return;
    case 'detach':
      app.showMessage('Nothing to detach from: this baton runs without a server.');
      return;
  }
}

async function closeActiveTab(app: CommandHost): Promise<void> {
  const tab = app.activeTab;
  if (!tab) return;
  if (tab.busy() && !(await confirm(app, 'Close tab', `${tab.label} is still running something.\nClose it and end what runs in it?`))) return;
  await app.closeTab(tab);
}

/** Asks only when a tab is busy; `note` (what else a quit leaves, e.g. fork worktrees) is added to that question. */
export async function askToQuit(app: CommandHost, note?: string): Promise<void> {
  const busy = app.tabs.filter((t) => t.busy());
  if (busy.length) {
    // By key and title: several tabs may run the same agent.
    const names = busy.map((t) => `${app.tabs.indexOf(t) + 1}:${t.label}`).join(', ');
    const ok = await confirm(
      app,
      'Quit baton',
      `${busy.length} tab${busy.length > 1 ? 's are' : ' is'} still running something: ${names}.\nQuit and end them all?${note ? `\n\n${note}` : ''}`,
    );
    if (!ok) return;
  }
  await app.quit();
}
