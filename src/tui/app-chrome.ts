// The rows around the pane: the tab bar on top, the compose row(s) and the status line at the
// bottom, with the message the status line shows for a while. It keeps their boxes, the
// message and its timer, and the compose rows' height; what the rows say is drawn from what
// the app hands it at each frame (tab-bar.ts writes the text), so it decides nothing itself.
// A message may be about one tab (a refusal, a notice of its agent): it is taken off when
// another tab comes to the front (frontIs), where it does not apply.

import blessed from './blessed.js';
import { escapeTags, formatStatusLine, formatTabBar, type TabBarItem } from './tab-bar.js';
import { shellTabLine } from './compose-lines.js';
import { taggedRow, type BoxColors } from './tagged-row.js';
import type { Tab } from './tab.js';

/** Rows taken by the tab bar (top) and the status line (bottom); the compose bar's rows are added. */
export const TOP_ROWS = 1;
export const STATUS_ROWS = 1;

const TAB_BAR_COLORS: BoxColors = { bg: 'blue', fg: 'white' };
const STATUS_COLORS: BoxColors = { bg: 'black', fg: 'white' };

export interface ChromeHooks {
  /** Each message the status line shows, as it is shown (a server keeps them in its log). */
  said?: (text: string) => void;
  /** Something the rows show changed: draw them on the next frame. */
  changed(): void;
}

/** What the rows say this frame. */
export interface ChromeFacts {
  tabs: TabBarItem[];
  active: number;
  prefix: string;
  width: number;
  /** Scroll mode is open: its own status is said instead of the message (nothing, when it has none). */
  scroll?: { status: string | undefined };
  /** No tab is open. */
  noTab: boolean;
  /** Set once the conversation layer draws the compose row itself; else a tab's row is the plain shell's. */
  composeOwned: boolean;
}

export class AppChrome {
  private readonly tabBar: blessed.Widgets.BoxElement;
  /** The compose bar's row; the conversation layer replaces its content. */
  readonly composeBar: blessed.Widgets.BoxElement;
  private readonly statusLine: blessed.Widgets.BoxElement;
  private message: string | undefined;
  /** The tab the message is about; undefined for one about baton as a whole (a key not bound, a copy made). */
  private messageAbout: Tab | undefined;
  /** What the rows said at the last frame, to lay them out again for another width. */
  private facts: ChromeFacts | undefined;
  private messageTimer: NodeJS.Timeout | undefined;
  /** Rows the compose bar has (a multi-line draft has more). */
  composeRows = 1;

  constructor(
    private readonly screen: blessed.Widgets.Screen,
    private readonly hooks: ChromeHooks,
  ) {
    this.tabBar = blessed.box({ parent: screen, top: 0, left: 0, width: '100%', height: 1, tags: true, style: { ...TAB_BAR_COLORS } });
    this.composeBar = blessed.box({ parent: screen, bottom: 1, left: 0, width: '100%', height: 1, tags: true, style: { fg: 'gray' } });
    this.statusLine = blessed.box({ parent: screen, bottom: 0, left: 0, width: '100%', height: 1, tags: true, style: { ...STATUS_COLORS } });
  }

  /**
   * Says `text` on the status line for `ms` (0: until the next message); undefined clears it.
   * `about`: the tab it concerns, if it concerns one (see frontIs).
   */
  showMessage(text: string | undefined, ms: number, about?: Tab): void {
    if (text && text !== this.message) this.hooks.said?.(text);
    this.message = text;
    this.messageAbout = text ? about : undefined;
    if (this.messageTimer) clearTimeout(this.messageTimer);
    this.messageTimer = text && ms > 0 ? setTimeout(() => this.showMessage(undefined, ms), ms) : undefined;
    this.hooks.changed();
  }

  /** Clears the status line if it still says `text` (what it said has stopped being true). */
  withdrawMessage(text: string): void {
    if (this.message === text) this.showMessage(undefined, 0);
  }

  /**
   * `tab` is in front now: a message about another tab is taken off, and does not come back
   * when that tab does. As tmux clears a message at the next key, and as a tab's notice is
   * told once (conversation-tabs.ts): what stays true about a tab is drawn by the tab itself
   * (its status in the tab bar, its queue and armed switch in the compose bar, a stopped
   * agent's notice in the pane), so an old message coming back would read as news.
   */
  frontIs(tab: Tab | undefined): void {
    if (this.messageAbout && this.messageAbout !== tab) this.showMessage(undefined, 0);
  }

  /** Gives the compose bar `rows` rows, at most what leaves the pane three on a screen `screenRows` high; false when it had them. */
  setComposeRows(rows: number, screenRows: number): boolean {
    rows = Math.max(1, Math.min(Math.floor(rows), Math.max(1, screenRows - TOP_ROWS - STATUS_ROWS - 3)));
    if (rows === this.composeRows) return false;
    this.composeRows = rows;
    this.composeBar.height = rows;
    return true;
  }

  /** Writes the rows' text for this frame (blessed draws them with the screen). */
  draw(f: ChromeFacts): void {
    this.facts = f;
    this.tabBar.setContent(formatTabBar(f.tabs, f.active, f.width));
    this.statusLine.setContent(formatStatusLine(f.prefix, f.width, f.scroll ? f.scroll.status : this.message));
    if (f.noTab) {
      this.composeBar.setContent(escapeTags(` No tabs. ${f.prefix} c opens one, ${f.prefix} q quits.`));
    } else if (!f.composeOwned) {
      this.composeBar.setContent(`{gray-fg}${escapeTags(shellTabLine(f.prefix))}{/gray-fg}`);
    }
  }

  /**
   * The tab bar and the status line as the last frame drew them, laid out for `width` and
   * coded as terminal bytes (their blank tail left to erase): a read-only client narrower
   * than the view is drawn its own. Undefined before the first frame.
   */
  rowsAt(width: number): { tabBar: string; status: string } | undefined {
    const f = this.facts;
    if (!f) return undefined;
    return {
      tabBar: taggedRow(formatTabBar(f.tabs, f.active, width), TAB_BAR_COLORS, this.screen),
      status: taggedRow(formatStatusLine(f.prefix, width, f.scroll ? f.scroll.status : this.message), STATUS_COLORS, this.screen),
    };
  }

  dispose(): void {
    if (this.messageTimer) clearTimeout(this.messageTimer);
  }
}
