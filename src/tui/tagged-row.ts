// A row of blessed-tagged text (tab-bar.ts's) as terminal bytes, for a row drawn outside
// blessed: a read-only client's own tab bar and status line, laid out for its width while
// the view is drawn at another (src/server/cropped-view.ts). blessed turns the tags into SGR
// (the same colours it draws), and what its element would fall back to, the box's own
// colours, is put back where a tag ends: a bare reset or "default colour" in a box with a
// background means that background, not the terminal's; and an attribute ended ends them all,
// as in blessed's drawing. It writes nothing.

import blessed from './blessed.js';

export interface BoxColors {
  fg: string;
  bg: string;
}

/** blessed ends every flag where a tag ends one ({/bold} nested in {inverse} emits a second inverse, then 27 ends both): so does this row. */
const ALL_FLAGS_OFF = '\x1b[22;24;25;27;28m';

interface AttrProgram {
  _attr(param: string, on?: boolean): string | null;
}

/** `tagged` in the colours of a box styled `colors`; the caller erases the rest of the row (EL keeps the box's background). */
export function taggedRow(tagged: string, colors: BoxColors, screen: blessed.Widgets.Screen): string {
  const program = screen.program as unknown as AttrProgram;
  const fg = program._attr(`${colors.fg} fg`) ?? '';
  const bg = program._attr(`${colors.bg} bg`) ?? '';
  const sgr = blessed.parseTags(tagged, screen);
  // (Only SGR: parseTags makes nothing else, and tab-bar.ts lets no control character through.)
  const fixed = sgr.replace(/\x1b\[(0?|39|49|22|24|25|27|28)m/g, (_, code: string) =>
    code === '39' ? fg : code === '49' ? bg : code.length === 2 ? ALL_FLAGS_OFF : `\x1b[m${fg}${bg}`,
  );
  return `\x1b[m${fg}${bg}${fixed}`;
}
