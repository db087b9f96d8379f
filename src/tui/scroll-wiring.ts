// Scroll mode wired into the app (prefix [): the active tab's pane scrolled, searched and
// copied by ScrollMode (scroll-mode.ts), with its own status line and cursor standing in for
// the app's while it is open, and the keys it takes routed to it. It must never scroll a tab
// whose agent is stopped (its emulator is gone) and never outlive the tab it scrolls.

import type { InputRouter } from './keys.js';
import { osc52 } from './osc52.js';
import type { PaneView } from './pane-view.js';
import { ScrollMode, type BlessedKey } from './scroll-mode.js';
import type { Tab } from './tab.js';

export interface ScrollWiringHost {
  readonly view: PaneView;
  readonly router: InputRouter;
  /** An overlay is open (it takes the keys, and routing goes back to it when scroll mode ends). */
  overlaysOpen(): boolean;
  requestChrome(): void;
  /** A frame with the pane's rows drawn again. */
  requestFrame(): void;
  /** `about`: the tab the message concerns (App.showMessage). */
  showMessage(text: string, about?: Tab): void;
  /** Writes to the terminal the user sits at (the clipboard's OSC 52). */
  write(data: string): void;
}

export class ScrollWiring {
  private scroll: ScrollMode | undefined;
  private scrollCursor: { x: number; y: number } | undefined;
  /**
   * Scroll mode's own status line (its position, the search prompt): while it is open it
   * stands in for the message, so a notice arriving meanwhile (a tab's status, an exit)
   * cannot hide the prompt being typed; the notice shows once scroll mode ends.
   */
  private scrollStatus: string | undefined;

  constructor(private readonly host: ScrollWiringHost) {}

  get active(): boolean {
    return this.scroll !== undefined;
  }

  /** Where the cursor is drawn while scroll mode is open. */
  get cursor(): { x: number; y: number } | undefined {
    return this.scrollCursor;
  }

  /** The status line while scroll mode is open. */
  get status(): string | undefined {
    return this.scrollStatus;
  }

  /** A key blessed parsed: scroll mode's, unless an overlay is open. */
  handleKey(ch: string | undefined, key: BlessedKey): void {
    if (this.scroll && !this.host.overlaysOpen()) this.scroll.handleKey(ch, key);
  }

  enter(tab: Tab | undefined): void {
    const { host } = this;
    if (!tab || this.scroll) return;
    if (tab.notice) {
      // The stopped program's screen is gone (its emulator with it): nothing to scroll.
      host.showMessage('Nothing to scroll: the agent in this tab is stopped.', tab);
      return;
    }
    host.router.mode = 'ui';
    this.scroll = new ScrollMode(tab.pane, {
      view: host.view,
      status: (text) => {
        this.scrollStatus = text;
        host.requestChrome();
      },
      redraw: (cursor) => {
        this.scrollCursor = cursor;
        host.view.invalidate();
        host.requestFrame();
      },
      copy: (text) => {
        host.write(osc52(text));
        host.showMessage(`copied ${[...text].length} characters to the clipboard (OSC 52)`);
      },
      leave: () => this.leave(),
    });
  }

  leave(): void {
    const { host } = this;
    if (!this.scroll) return;
    this.scroll = undefined;
    this.scrollCursor = undefined;
    this.scrollStatus = undefined;
    host.view.scrollTop = undefined;
    host.view.highlights = [];
    host.view.invalidate();
    if (!host.overlaysOpen()) host.router.mode = 'pane';
    host.requestChrome();
  }
}
