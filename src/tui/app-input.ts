// The keyboard of the baton screen: every byte the user's terminal sends goes through the
// router, which hands raw keys and pastes to the program in the front tab, prefix commands to
// the app, and keys meant for an open overlay to blessed (which never reads the terminal
// itself: uiInput is its input). Keys typed before the first tab exists are kept for the view
// that opens; input is held while a picker's choice is carried out (held-input.ts). It never
// draws and never decides what a command does: commands go back to the app (InputHost.run).

import type blessed from './blessed.js';
import { PassThrough } from 'node:stream';
import { HeldInput } from './held-input.js';
import { InputRouter, pasteAsKeys, type Command, type KeyConfig, type RouterAction } from './keys.js';
import { refreshOuterSize } from './outer-terminal.js';
import type { Tab } from './tab.js';

/** How long background tabs are not read after a keystroke in the focused one. */
const BACKGROUND_HOLD_MS = 50;
/** The most typed before the first view opens that is kept for it. */
const EARLY_INPUT_MAX = 1024;

/** What the input needs of the app. */
export interface InputHost {
  tabs(): readonly Tab[];
  activeTab(): Tab | undefined;
  /** The overlay on top, if any: a paste goes to it whole when it takes text (the compose bar). */
  topOverlay(): blessed.Widgets.BlessedElement | undefined;
  run(command: Command): Promise<void>;
  showMessage(text: string): void;
  showFailure(e: unknown): void;
}

export class AppInput {
  readonly router: InputRouter;
  /** blessed's input: only the keys meant for an overlay, handed to its key parser. */
  readonly uiInput = new PassThrough();
  /** When the user last typed into the front pane (a change soon after is an echo: drawn at once). */
  lastKeyAt = -Infinity;
  /** The terminal the user sits at has the focus, as it last reported (true until it reports otherwise). */
  outerFocused = true;
  /** Input held while a picker's choice is carried out, and picker commands one at a time. */
  readonly held: HeldInput;
  private earlyInput = '';

  constructor(
    private readonly host: InputHost,
    private readonly keys: KeyConfig,
    private readonly output: NodeJS.WriteStream,
  ) {
    this.router = new InputRouter(keys);
    this.held = new HeldInput({
      feed: (data) => this.feed(data),
      stopRouter: () => this.router.stop(),
      say: (text) => this.host.showMessage(text),
    });
  }

  /** A read from the user's terminal. */
  readonly onData = (d: string | Buffer): void => {
    refreshOuterSize(this.output);
    const data = typeof d === 'string' ? d : d.toString('utf8');
    if (!this.held.keepIfHeld(data)) this.feed(data);
  };

  feed(data: string): void {
    this.router.feed(
      data,
      (a) => this.dispatch(a),
      (rest) => {
        if (!this.held.keepIfHeld(rest)) this.feed(rest);
      },
    );
  }

  /** An overlay opened: it gets what was typed for it (after a picker, before the first view). */
  overlayOpened(): void {
    // A confirmation the command asks next gets what was typed after the picker.
    this.earlyInput += this.held.overlayOpened();
    if (this.earlyInput) {
      const early = this.earlyInput;
      this.earlyInput = '';
      this.feed(early);
    }
  }

  private dispatch(a: RouterAction): void {
    const pane = this.host.activeTab()?.pane;
    switch (a.kind) {
      case 'pane':
        if (!pane) {
          // Typed before the first view opened (the picker at start-up): keep it for that view.
          if (this.host.tabs().length === 0 && this.earlyInput.length < EARLY_INPUT_MAX) this.earlyInput += a.data;
          return;
        }
        this.lastKeyAt = performance.now();
        this.holdBackground();
        pane.write(a.data);
        return;
      case 'paste':
        if (!pane) return;
        this.lastKeyAt = performance.now();
        pane.paste(a.text);
        return;
      case 'focus':
        this.outerFocused = a.focused;
        pane?.focus(a.focused);
        return;
      case 'ui':
        // Straight to blessed's key parser, synchronously, so a key that closes a view has
        // done so before the router looks at the next one.
        this.uiInput.emit('data', a.data);
        return;
      case 'ui-paste': {
        // A view that takes text (the compose bar listens for 'paste') gets it whole; any other, as one line of keys.
        const top = this.host.topOverlay();
        if (top && top.listeners('paste').length > 0) top.emit('paste', a.text);
        else this.uiInput.emit('data', pasteAsKeys(a.text));
        return;
      }
      case 'unbound':
        this.host.showMessage(`${this.keys.prefix} ${a.key} is not bound · ${this.keys.prefix} ? lists the keys`);
        return;
      case 'command':
        void this.host.run(a.command).catch((e: unknown) => this.host.showFailure(e));
        return;
    }
  }

  /**
   * Background tabs stop being read for a moment after each keystroke, so a flooding
   * neighbour's parsing cannot sit between the key and its echo on the one main thread.
   */
  private holdBackground(): void {
    const active = this.host.activeTab();
    for (const t of this.host.tabs()) if (t !== active) t.pane.hold(BACKGROUND_HOLD_MS);
  }
}
