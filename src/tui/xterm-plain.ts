// Whether @xterm/headless is in the state where a line of plain text ended by CR LF prints as
// nothing but that text on a fresh line (flood-lines.ts relies on it to skip parsing a flood's
// lines that scroll past unseen). Part of the door to @xterm/headless (xterm.ts): it reads
// xterm's private parser, buffer and attribute state, and answers false whenever one of them
// is not the expected shape, so a newer xterm only loses the shortcut.

import type { Terminal as XTerminal } from './xterm.js';
import { CELL_WORDS } from './xterm-cells.js';

/** A cell no program wrote: code point 0, one column wide, default colours and flags. */
const BLANK_CONTENT = 1 << 22;

interface PlainCore {
  _bufferService?: { isUserScrolling?: boolean; buffers?: { normal?: unknown } };
  _charsetService?: { charset?: unknown; glevel?: number };
  optionsService?: { rawOptions?: { screenReaderMode?: boolean } };
  _inputHandler?: {
    _parser?: { currentState?: number; _parseStack?: { state?: number } };
    _stringDecoder?: { _interim?: number };
    _curAttrData?: { fg?: number; bg?: number; extended?: { urlId?: number } };
    _activeBuffer?: {
      x: number;
      y: number;
      ybase: number;
      ydisp: number;
      scrollTop: number;
      scrollBottom: number;
      lines?: { maxLength?: number; get(i: number): { _data?: unknown; isWrapped?: boolean } | undefined };
    };
  };
}

/**
 * Lines the emulator holds above the cursor's row (its scrollback and the screen's other
 * rows) when the next bytes, lines of printable ASCII shorter than the screen is wide each
 * ended by CR LF, would each print as just its text on a fresh line of default attributes
 * and scroll up one line; 0 when they would not or this xterm is not the expected shape.
 * That holds when: the parser is between sequences, the normal screen is shown and not
 * scrolled back, the cursor is at the start of the bottom row of a whole-screen scroll region
 * and that row is blank, the current attributes are the defaults (so is a scrolled-in line),
 * G0 is ASCII with no shift, screen-reader mode is off. (Insert mode changes nothing on a
 * blank row.)
 */
export function plainLinesCapacity(term: XTerminal): number {
  const c = (term as unknown as { _core?: PlainCore })._core;
  const ih = c?._inputHandler;
  const b = ih?._activeBuffer;
  if (!c || !ih || !b?.lines || b !== c._bufferService?.buffers?.normal) return 0;
  if (ih._parser?.currentState !== 0 || ih._parser._parseStack?.state !== 0 || ih._stringDecoder?._interim !== 0) return 0;
  const a = ih._curAttrData;
  if (a?.fg !== 0 || a.bg !== 0 || (a.extended?.urlId ?? 0) !== 0) return 0;
  if (!c._charsetService || c._charsetService.charset !== undefined || c._charsetService.glevel !== 0) return 0;
  if (c.optionsService?.rawOptions?.screenReaderMode !== false) return 0;
  if (c._bufferService.isUserScrolling !== false) return 0;
  const rows = term.rows;
  if (b.x !== 0 || b.y !== rows - 1 || b.scrollTop !== 0 || b.scrollBottom !== rows - 1 || b.ydisp !== b.ybase) return 0;
  const max = b.lines.maxLength;
  const line = b.lines.get(b.ybase + b.y);
  if (typeof max !== 'number' || !line || line.isWrapped !== false || !(line._data instanceof Uint32Array)) return 0;
  const data = line._data;
  const end = term.cols * CELL_WORDS;
  if (data.length < end) return 0;
  for (let i = 0; i < end; i += CELL_WORDS) if (data[i] !== BLANK_CONTENT || data[i + 1] !== 0 || data[i + 2] !== 0) return 0;
  return max - 1;
}
