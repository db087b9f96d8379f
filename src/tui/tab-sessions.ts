// Which conversation each agent tab holds: found by tab, by conversation, or by the
// directory it runs in, with what a reset that stopped its agent said (the tab shows baton's
// notice in place of the agent's last screen until the agent runs again). Bookkeeping only:
// conversation-tabs.ts opens, wires and closes them.

import type { TabConversation } from '../conversation/index.js';
import type { DisposableStore } from '../lifecycle/index.js';
import { resetNotice, type OpenWorktree, type StoppedFacts } from './fork-dialog.js';
import type { Tab } from './tab.js';
import type { TabTerminal } from './tab-terminal.js';

export interface TabEntry {
  session: TabConversation;
  terminal: TabTerminal;
  /** The subscriptions to the session and the tab, ended as the tab closes. */
  subs: DisposableStore;
  stopped?: StoppedFacts;
}

export class TabSessions {
  private readonly byTab = new Map<Tab, TabEntry>();

  /** `prefix`: the key prefix as the status line spells it (the stopped notice names keys). */
  constructor(private readonly prefix: string) {}

  get size(): number {
    return this.byTab.size;
  }

  get(tab: Tab | undefined): TabEntry | undefined {
    return tab ? this.byTab.get(tab) : undefined;
  }

  has(tab: Tab): boolean {
    return this.byTab.has(tab);
  }

  set(tab: Tab, entry: TabEntry): void {
    this.byTab.set(tab, entry);
  }

  delete(tab: Tab): void {
    this.byTab.delete(tab);
  }

  clear(): void {
    this.byTab.clear();
  }

  entries(): IterableIterator<[Tab, TabEntry]> {
    return this.byTab.entries();
  }

  /** Every open conversation. */
  sessions(): TabConversation[] {
    return [...this.byTab.values()].map((e) => e.session);
  }

  /** Runs `fn` with the tab of `session` (if it still has one). */
  forSession(session: TabConversation, fn: (tab: Tab, entry: TabEntry) => void): void {
    for (const [tab, entry] of this.byTab) if (entry.session === session) fn(tab, entry);
  }

  /** The label of an open tab whose conversation runs in dir (or below it), if any. */
  tabIn(dir: string): string | undefined {
    for (const [tab, { session }] of this.byTab) {
      const cwd = session.facts().cwd;
      if (cwd === dir || cwd.startsWith(`${dir}/`)) return tab.label;
    }
    return undefined;
  }

  /** Worktree forks open in tabs: they stay when baton quits. */
  openWorktrees(): OpenWorktree[] {
    const out: OpenWorktree[] = [];
    for (const { session } of this.byTab.values()) {
      const f = session.facts();
      if (f.worktreeBranch) out.push({ conversationId: f.id, path: f.cwd, branch: f.worktreeBranch });
    }
    return out;
  }

  /** A reset (or its undo) stopped `session`'s agent: its tab shows what it said. */
  showStopped(session: TabConversation, facts: StoppedFacts): void {
    this.forSession(session, (tab, entry) => {
      entry.stopped = facts;
      this.drawStopped(tab, entry);
    });
  }

  /** The tab's notice, drawn again when what it says changed (another agent armed meanwhile). */
  drawStopped(tab: Tab, entry: TabEntry): void {
    if (!entry.stopped) return;
    const armed = entry.session.snapshot().armed?.title;
    const lines = resetNotice({ ...entry.stopped, prefix: this.prefix, ...(armed ? { nextTitle: armed } : {}) });
    if (tab.notice && tab.notice.join('\n') === lines.join('\n')) return;
    tab.showNotice(lines);
  }
}
