// The one door for @xterm/headless and its Unicode 11 addon: the CommonJS-from-ESM import
// dance, the Unicode 11 widths every pane needs, and the private hooks (changed rows,
// cursor visibility and shape) with fallbacks for when a version moves them. What else
// reaches into xterm's internals lives beside it, one concern a file: xterm-cells.ts (a
// cell's words, underline, hyperlinks), xterm-lines.ts (lines kept out of xterm), xterm-runs.ts
// (a line compacted into runs), xterm-scrollback.ts (lines taken as xterm drops them). Nothing
// else in baton imports the packages or reaches into xterm's private `_core`.

import headless from '@xterm/headless';
import unicode11 from '@xterm/addon-unicode11';
import type { Terminal as XTerminal, IBufferCell, IDisposable } from '@xterm/headless';

export type Terminal = XTerminal;
export type { IBufferCell, IBufferLine, IDisposable } from '@xterm/headless';

// Named imports fail from ESM on Node 20 (the packages are CommonJS bundles).
const { Terminal: TerminalCtor } = headless as unknown as { Terminal: typeof XTerminal };
const { Unicode11Addon } = unicode11 as unknown as { Unicode11Addon: new () => { activate(t: unknown): void; dispose(): void } };

export function createTerminal(cols: number, rows: number, scrollback: number): XTerminal {
  // logLevel off: xterm would otherwise print warnings (writeSync's) onto baton's screen.
  const term = new TerminalCtor({ cols, rows, scrollback, allowProposedApi: true, logLevel: 'off' });
  term.loadAddon(Unicode11Addon ? new Unicode11Addon() : ({ activate() {}, dispose() {} } as never));
  // Without this emoji and many CJK forms are one column wide and shift the rest of the row.
  term.unicode.activeVersion = '11';
  return term;
}

interface Core {
  writeSync?: (data: string) => void;
  _inputHandler?: { onRequestRefreshRows?: (cb: (e: { start: number; end: number } | undefined) => void) => IDisposable };
  coreService?: { isCursorHidden?: boolean; decPrivateModes?: { cursorStyle?: string; cursorBlink?: boolean } };
}

const core = (term: XTerminal): Core => (term as unknown as { _core?: Core })._core ?? {};

/**
 * Changed rows (viewport-relative, inclusive) as xterm computes them for its renderer.
 * Returns undefined when this xterm has no such signal; the caller then repaints whole panes.
 */
export function onRefreshRows(term: XTerminal, cb: (start: number, end: number) => void): IDisposable | undefined {
  const ih = core(term)._inputHandler;
  if (!ih || typeof ih.onRequestRefreshRows !== 'function') return undefined;
  return ih.onRequestRefreshRows((e) => {
    if (e) cb(e.start, e.end);
    else cb(0, term.rows - 1);
  });
}

export function cursorHidden(term: XTerminal): boolean {
  return core(term).coreService?.isCursorHidden === true;
}

export type CursorShape = { style: 'block' | 'underline' | 'bar'; blink: boolean } | undefined;

/** The DECSCUSR shape the program asked for, or undefined for "the terminal's default". */
export function cursorShape(term: XTerminal): CursorShape {
  const m = core(term).coreService?.decPrivateModes;
  if (!m || m.cursorStyle === undefined) return undefined;
  const style = m.cursorStyle === 'underline' || m.cursorStyle === 'bar' ? m.cursorStyle : 'block';
  return { style, blink: m.cursorBlink === true };
}

interface InputHandlerCore {
  index?: () => boolean;
  _activeBuffer?: { x: number; y: number; scrollTop: number; scrollBottom: number };
}

/**
 * SU (CSI Ps S) in a scroll region that starts at the top row of the normal screen:
 * xterm.js drops the lines it scrolls out, where xterm and tmux keep them in the
 * scrollback, as every terminal does for a line feed at the region's bottom. An inline
 * TUI (ratatui's insert_before with scroll regions) inserts its history above its
 * viewport this way, so without this the conversation would vanish. Replays SU there as
 * that many index (IND) operations at the region's bottom, cursor kept: xterm's own path
 * for scrolling into the scrollback. Only CSI S reaches this, never a flood's line feeds.
 * Returns undefined when this xterm's input handler is not the expected shape.
 */
export function keepScrolledUpLines(term: XTerminal): IDisposable | undefined {
  const ih = core(term)._inputHandler as InputHandlerCore | undefined;
  if (!ih || typeof ih.index !== 'function' || typeof ih._activeBuffer?.scrollBottom !== 'number') return undefined;
  return term.parser.registerCsiHandler({ final: 'S' }, (params) => {
    const b = ih._activeBuffer;
    if (term.buffer.active.type !== 'normal' || !b || b.scrollTop !== 0) return false;
    const p = params[0];
    // Lines beyond the region's height would only push blank lines into the scrollback.
    const n = Math.min(typeof p === 'number' && p > 0 ? p : 1, b.scrollBottom + 1);
    const { x, y } = b;
    b.y = b.scrollBottom;
    for (let i = 0; i < n; i++) ih.index!();
    b.x = x;
    b.y = y;
    return true;
  });
}

/**
 * Synchronous parsing, or undefined when this xterm has none. xterm's public write() parses
 * in a setTimeout, which costs at least 1 ms per PTY read (a PTY delivers ~2-4 KB a read):
 * that timer, not the parser, dominated a flood. Parsing inline also gives backpressure for
 * free: while baton parses it does not read the PTY, so the kernel buffer fills and the
 * program blocks.
 */
export function writeSyncOf(term: XTerminal): ((data: string) => void) | undefined {
  const c = core(term);
  if (typeof c.writeSync !== 'function') return undefined;
  return (data) => c.writeSync!.call(c, data);
}

/** The size xterm gives its parse buffer at first (InputHandler: 4096 code points). */
const PARSE_BUFFER_START = 4096;

/**
 * Gives back the parse buffer a burst of output grew. xterm decodes each chunk into a buffer
 * of 4 bytes a character that it never shrinks: one chunk of 128k characters (a flood's
 * reads are parsed together) leaves 512 KB per pane, 4 MB for 8 panes that once showed a
 * flood. Call it between parses only (the pane is quiet); xterm grows it again when needed.
 */
export function shrinkParseBuffer(term: XTerminal): void {
  const ih = core(term)._inputHandler as { _parseBuffer?: unknown; _parseStack?: { paused?: boolean } } | undefined;
  if (!ih || !(ih._parseBuffer instanceof Uint32Array) || ih._parseBuffer.length <= PARSE_BUFFER_START || ih._parseStack?.paused) return;
  ih._parseBuffer = new Uint32Array(PARSE_BUFFER_START);
}

/** A blank cell of a small terminal of its own, to decode lines into when the caller has none (xterm-lines.ts). */
export function scratchCell(): IBufferCell {
  return new TerminalCtor({ cols: 2, rows: 1, allowProposedApi: true, logLevel: 'off' }).buffer.active.getNullCell();
}
