// The pane in front and what only it may do, as in tmux: ring the terminal's bell, set its
// clipboard (OSC 52), and be shown (read at full pace); its changes ask for frames. One pane
// at a time: bringing another to the front ends the last one's subscriptions. It never draws.

import { DisposableStore, MutableDisposable, type Disposable } from '../lifecycle/index.js';
import type { Pane } from './pane.js';

export interface FrontPaneHost {
  /** Writes to the user's terminal. */
  write(data: string): void;
  /** The pane in front changed (the app decides how soon to draw). */
  changed(): void;
}

export class FrontPane implements Disposable {
  private readonly current = new MutableDisposable<Disposable & { pane: Pane }>();

  constructor(private readonly host: FrontPaneHost) {}

  get pane(): Pane | undefined {
    return this.current.value?.pane;
  }

  /** Brings `pane` to the front; nothing changes when it is there already. */
  set(pane: Pane): void {
    if (this.current.value?.pane === pane) return;
    const subs = new DisposableStore();
    subs.add(pane.onBell(() => this.host.write('\x07')));
    subs.add(pane.onClipboard((payload) => this.host.write(`\x1b]52;${payload}\x07`)));
    subs.add(pane.onChange(() => this.host.changed()));
    pane.shown(true);
    subs.add({ dispose: () => pane.shown(false) });
    this.current.value = { pane, dispose: () => subs.dispose() };
  }

  /** No pane in front (its tab closed). */
  clear(): void {
    this.current.clear();
  }

  dispose(): void {
    this.current.dispose();
  }
}
