// Word-wrapping plain text to a width, one cell per character: for baton's own texts in
// dialogs and notices, so a box is made as tall as its wrapped text really is (blessed's own
// wrapping happens after the box is sized). Control characters are dropped; wide characters
// are not measured (baton's texts have none), so it must not be used for a program's output.

import { stripControls } from '../transcript/sanitize.js';

/** Each line wrapped at spaces (a word longer than the width is cut); empty lines kept. */
export function wrapLines(lines: readonly string[], width: number): string[] {
  const out: string[] = [];
  const w = Math.max(10, width);
  for (const raw of lines) {
    let rest = stripControls(raw).replace(/[\t\n]/g, ' ');
    while ([...rest].length > w) {
      const head = [...rest].slice(0, w + 1).join('');
      const at = head.lastIndexOf(' ');
      // At a space when it leaves a fair part of the line, else mid-word.
      const cutAt = at > w / 3 ? at : [...rest].slice(0, w).join('').length;
      out.push(rest.slice(0, cutAt).trimEnd());
      rest = rest.slice(cutAt).trimStart();
    }
    out.push(rest);
  }
  return out;
}
