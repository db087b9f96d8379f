// Makes agent output safe to show in baton's own views (transcript view, handed-over
// context card, `baton brief`/`transcript show` prints, the brief itself): terminal
// control sequences are removed so text from an agent or a tool can never move the
// cursor, retitle the window, switch screens or smuggle a hyperlink into the user's
// terminal. It must never alter printable text, newlines or tabs, never make a text
// longer (the brief's budget relies on that), and never be applied to the bytes a pane
// feeds to its terminal emulator: the hosted CLI is shown raw, as its author meant.

import stripAnsi from 'strip-ansi';

// C0 controls except \t (09) and \n (0A), DEL, and the C1 block (which includes the
// 8-bit CSI/OSC/DCS introducers that strip-ansi matches only as full sequences).
const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;
const HAS_CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;

/**
 * Removes escape sequences (CSI, OSC, DCS, ...) with strip-ansi, then every remaining
 * C0/C1 control character except \n and \t. A lone or CRLF \r is removed too: overwritten
 * progress lines then read as their parts run together, which is harmless in a log view.
 * Unterminated sequences lose their ESC and leave only printable debris.
 */
export function stripControls(text: string): string {
  if (!HAS_CONTROL.test(text)) return text;
  return stripAnsi(text).replace(CONTROLS, '');
}
