// What `baton ls` prints of a server's tabs: number, title, agent, status, directory, and
// how many clients are attached to the view. Read from the hosted app; it changes nothing.

import type { App } from '../tui/app.js';
import type { ConversationTabs } from '../tui/conversation-tabs.js';

export interface TabListing {
  /** 1-based, as the tab bar numbers tabs. */
  index: number;
  label: string;
  agent: string;
  status: string;
  cwd: string;
  active: boolean;
  clients: number;
  conversation?: string;
}

export function tabList(app: App, tabs: ConversationTabs | undefined, clients: number): TabListing[] {
  return app.tabs.map((t, i) => {
    const conv = tabs?.conversationOf(t);
    return {
      index: i + 1,
      label: t.label,
      agent: t.agent,
      status: t.status,
      cwd: t.launch.cwd,
      active: i === app.active,
      clients,
      ...(conv ? { conversation: conv } : {}),
    };
  });
}
