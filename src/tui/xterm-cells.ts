// xterm's cell words, and what the public cell API leaves out: underline styles and colours,
// hyperlinks (OSC 8). Part of the door to @xterm/headless (xterm.ts): it reads xterm's private
// cell fields, and nothing outside these xterm*.ts files does.

import type { IBufferCell, Terminal as XTerminal } from './xterm.js';

/** xterm's cell: what getNullCell() returns and loadCell() fills. */
export interface InternalCell {
  content: number;
  fg: number;
  bg: number;
  combinedData: string;
  extended: unknown;
}

/** Three 32-bit words a cell: content (code point, width, combined flag), fg, bg (colours, flags). */
export const CELL_WORDS = 3;
export const IS_COMBINED = 1 << 21;
export const HAS_EXTENDED = 1 << 28;

/** Underline flag of a cell's fg word; extended attributes flag of its bg word. */
const FG_UNDERLINE = 1 << 28;
const UNDERLINE_STYLE_MASK = 0x1c000000;
const UNDERLINE_COLOR_MASK = 0x3ffffff;

interface InternalExtended {
  _ext?: number;
  _urlId?: number;
}

/** A cell's colour and flag words, for telling cheaply whether two cells look alike. */
export function cellFgWord(cell: IBufferCell): number {
  return (cell as unknown as InternalCell).fg;
}

export function cellBgWord(cell: IBufferCell): number {
  return (cell as unknown as InternalCell).bg;
}

function extendedOf(cell: IBufferCell): InternalExtended | undefined {
  const c = cell as unknown as InternalCell;
  return c.bg & HAS_EXTENDED ? (c.extended as InternalExtended | undefined) : undefined;
}

/**
 * The underline the program set (0 none, 1 single, 2 double, 3 curly, 4 dotted, 5 dashed).
 * IBufferCell.isUnderline() also reports every hyperlinked cell as underlined (xterm.js
 * draws links dashed), which is not what the program asked for.
 */
export function underlineStyle(cell: IBufferCell): number {
  if (!((cell as unknown as InternalCell).fg & FG_UNDERLINE)) return 0;
  const ext = extendedOf(cell)?._ext ?? 0;
  return (ext & UNDERLINE_STYLE_MASK) >>> 26 || 1;
}

/** The underline colour (SGR 58) in xterm's colour encoding (mode bits | value), 0 when none was set. */
export function underlineColor(cell: IBufferCell): number {
  return (extendedOf(cell)?._ext ?? 0) & UNDERLINE_COLOR_MASK;
}

/** The hyperlink (OSC 8) a cell belongs to, by xterm's link number; 0 for none. */
export function linkIdOf(cell: IBufferCell): number {
  return extendedOf(cell)?._urlId ?? 0;
}

export interface Hyperlink {
  uri: string;
  /** The program's id parameter, which ties the cells of one link together across lines. */
  id?: string;
}

/** Looks up a link number of this terminal (undefined once xterm has forgotten it). */
export function hyperlinks(term: XTerminal): (linkId: number) => Hyperlink | undefined {
  const service = (term as unknown as { _core?: { _oscLinkService?: { getLinkData?(id: number): { uri?: unknown; id?: unknown } | undefined } } })._core
    ?._oscLinkService;
  return (linkId) => {
    const data = typeof service?.getLinkData === 'function' ? service.getLinkData(linkId) : undefined;
    if (!data || typeof data.uri !== 'string') return undefined;
    return typeof data.id === 'string' ? { uri: data.uri, id: data.id } : { uri: data.uri };
  };
}
