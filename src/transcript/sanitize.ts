// Makes agent output safe to show in baton's own views (transcript view, handed-over
// context card, `baton brief`/`transcript show` prints, the brief itself): terminal
// control sequences are removed so text from an agent or a tool can never move the
// cursor, retitle the window, switch screens or smuggle a hyperlink into the user's
// terminal. It must never alter printable text, newlines or tabs, never make a text
// longer (the brief's budget relies on that), and never be applied to the bytes a pane
// feeds to its terminal emulator: the hosted CLI is shown raw, as its author meant.
// Redaction reads text through controlView, the same removal with a map back to the
// original, so a credential that escape sequences split is found where it is shown.

import ansiRegex from 'ansi-regex';

// Escape sequences (CSI, OSC, DCS, ...): ansi-regex, the pattern strip-ansi applies.
const SEQUENCES = ansiRegex();
// C0 controls except \t (09) and \n (0A), DEL, and the C1 block (which includes the
// 8-bit CSI/OSC/DCS introducers that ansi-regex matches only as full sequences).
const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;
const HAS_CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;

/** True when `text` holds a character stripControls would remove (or start a sequence with). */
export const hasControls = (text: string): boolean => HAS_CONTROL.test(text);

/**
 * Removes escape sequences (CSI, OSC, DCS, ...), then every remaining C0/C1 control
 * character except \n and \t. A lone or CRLF \r is removed too: overwritten progress lines
 * then read as their parts run together, which is harmless in a log view. Unterminated
 * sequences lose their ESC and leave only printable debris.
 */
export function stripControls(text: string): string {
  if (!HAS_CONTROL.test(text)) return text;
  return text.replace(SEQUENCES, '').replace(CONTROLS, '');
}

export interface ControlView {
  /** stripControls(text). */
  text: string;
  /** For each character of `text`, its index in the original. */
  at: Int32Array;
}

/**
 * stripControls(text) with, for every character kept, where it stood in `text`: a span
 * found in the view maps back to the original span that holds it and every control
 * sequence inside it. Undefined when there is nothing to remove.
 */
export function controlView(text: string): ControlView | undefined {
  if (!HAS_CONTROL.test(text)) return undefined;
  const at = new Int32Array(text.length);
  const parts: string[] = [];
  let n = 0;
  const keep = (from: number, to: number) => {
    let run = from;
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i);
      if ((c <= 0x1f && c !== 0x09 && c !== 0x0a) || (c >= 0x7f && c <= 0x9f)) {
        if (i > run) parts.push(text.slice(run, i));
        run = i + 1;
      } else at[n++] = i;
    }
    if (to > run) parts.push(text.slice(run, to));
  };
  let last = 0;
  SEQUENCES.lastIndex = 0;
  for (let m = SEQUENCES.exec(text); m; m = SEQUENCES.exec(text)) {
    keep(last, m.index);
    last = m.index + m[0].length;
  }
  keep(last, text.length);
  return { text: parts.join(''), at: at.subarray(0, n) };
}
