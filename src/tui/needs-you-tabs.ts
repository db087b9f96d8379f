// A tab's agent needs the user (src/conversation/needs-you.ts): the tab bar marks the tab if
// it is not the one in view (until it is shown), and the terminal the user sits at is told
// (bell, desktop notification: desktop-notify.ts) unless the tab is in view in a terminal
// that has the focus: the user is looking at it already. Who is told, and how, is the
// caller's `tell` (a server tells each attached client; a lone baton, its own terminal).

import type { NeedsYou } from '../conversation/index.js';
import type { App } from './app.js';
import type { Notification } from './desktop-notify.js';
import { tabKey } from './tab-bar.js';
import type { Tab } from './tab.js';

/** What the notification says: which tab (by the key that shows it, and its title), and what it waits for. */
export function needsYouNotification(index: number, label: string, kind: NeedsYou): Notification {
  const key = tabKey(index);
  return { title: 'baton', body: `${key ? `${key}:` : ''}${label} ${kind === 'approval' ? 'needs you' : 'is done'}` };
}

export function tabNeedsYou(app: App, tab: Tab, kind: NeedsYou, tell: (n: Notification) => void): void {
  const index = app.tabs.indexOf(tab);
  if (index < 0) return;
  const inView = app.activeTab === tab;
  if (!inView) tab.setUnseen(kind);
  if (inView && app.outerFocused) return;
  tell(needsYouNotification(index, tab.label, kind));
}
