// What an overlay (help, picker, confirmation) needs from the app: put an element on top,
// take the keyboard while it is open, and give both back. Keeps overlays free of the
// app's internals; it must never reach the PTYs.

import type blessed from './blessed.js';

export interface OverlayHost {
  readonly screen: blessed.Widgets.Screen;
  /** Show `el` above everything; keys go to blessed (and so to `el`) until closeOverlay. */
  openOverlay(el: blessed.Widgets.BlessedElement): void;
  closeOverlay(el: blessed.Widgets.BlessedElement): void;
}

export const OVERLAY_STYLE = {
  border: { type: 'line' as const },
  style: { border: { fg: 'cyan' }, bg: 'black', fg: 'white' },
};
