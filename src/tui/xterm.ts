// The one door for @xterm/headless and its Unicode 11 addon: the CommonJS-from-ESM import
// dance, the Unicode 11 widths every pane needs, and the private hooks (changed rows,
// cursor visibility and shape) with fallbacks for when a version moves them.
// Nothing else in baton reaches into xterm's private `_core`.

import headless from '@xterm/headless';
import unicode11 from '@xterm/addon-unicode11';
import type { Terminal as XTerminal, IDisposable } from '@xterm/headless';

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
