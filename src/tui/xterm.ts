// The one door for @xterm/headless and its Unicode 11 addon: the CommonJS-from-ESM import
// dance, the Unicode 11 widths every pane needs, and the private hooks (changed rows,
// cursor visibility and shape) with fallbacks for when a version moves them.
// Nothing else in baton reaches into xterm's private `_core`.

import headless from '@xterm/headless';
import unicode11 from '@xterm/addon-unicode11';
import type { Terminal as XTerminal, IBufferLine, IDisposable } from '@xterm/headless';

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

interface CircularList {
  readonly length: number;
  readonly maxLength: number;
  get(i: number): unknown;
  push(...a: unknown[]): unknown;
  recycle(...a: unknown[]): unknown;
  splice(...a: unknown[]): unknown;
  shiftElements(...a: unknown[]): unknown;
  trimStart(...a: unknown[]): unknown;
}

/** xterm's own line object; the public IBufferLine is a view over it. */
interface InternalLine {
  readonly length: number;
  readonly isWrapped: boolean;
  loadCell(x: number, cell: unknown): unknown;
  translateToString(trimRight?: boolean, start?: number, end?: number): string;
}

/** Enough of IBufferLine over an internal line for reading its cells (cells from getNullCell are xterm's CellData). */
function publicLine(l: InternalLine): IBufferLine {
  return {
    length: l.length,
    isWrapped: l.isWrapped,
    getCell: (x: number, cell?: unknown) => {
      if (x < 0 || x >= l.length || !cell) return undefined;
      l.loadCell(x, cell);
      return cell;
    },
    translateToString: (trimRight?: boolean, start?: number, end?: number) => l.translateToString(trimRight, start, end),
  } as IBufferLine;
}

const normalLines = (term: XTerminal): CircularList | undefined =>
  (term as unknown as { _core?: { _bufferService?: { buffers?: { normal?: { lines?: CircularList } } } } })._core?._bufferService?.buffers?.normal?.lines;

/**
 * Hands over each line of the normal screen's scrollback just before xterm drops it, so it
 * can be kept elsewhere: xterm overwrites a dropped line in place, so this wraps the methods
 * of its (private) line list that drop lines. `erase` is called instead when the program
 * erased the scrollback (ED 3, `clear`). Returns undefined when this xterm's internals are
 * not the expected shape; the caller then keeps all scrollback in xterm.
 */
export class ScrollbackTap {
  private list: CircularList | undefined;
  private erasing = false;

  private constructor(
    private readonly term: XTerminal,
    private readonly onDrop: (lines: IBufferLine[]) => void,
    private readonly onErase: () => void,
  ) {}

  static attach(term: XTerminal, onDrop: (lines: IBufferLine[]) => void, onErase: () => void): ScrollbackTap | undefined {
    const list = normalLines(term);
    const methods = ['push', 'recycle', 'splice', 'shiftElements', 'trimStart', 'get'] as const;
    if (!list || !methods.every((m) => typeof list[m] === 'function') || typeof list.maxLength !== 'number') return undefined;
    const tap = new ScrollbackTap(term, onDrop, onErase);
    // ED 3 clears the scrollback through trimStart; those lines are erased, not archived.
    term.parser.registerCsiHandler({ final: 'J' }, (params) => {
      if (params[0] === 3) {
        tap.erasing = true;
        onErase();
      }
      return false;
    });
    tap.ensure();
    return tap;
  }

  /** Re-wrap after a reset replaced the list (RIS builds a new one, and scrollback is gone then). */
  ensure(): void {
    const list = normalLines(this.term);
    if (!list || list === this.list) return;
    if (this.list) this.onErase();
    this.list = list;
    const drop = (n: number) => {
      if (n <= 0) return;
      const out: IBufferLine[] = [];
      for (let i = 0; i < Math.min(n, list.length); i++) out.push(publicLine(list.get(i) as InternalLine));
      this.onDrop(out);
    };
    const wrap = (name: 'push' | 'recycle' | 'splice' | 'shiftElements' | 'trimStart', trimmed: (...a: number[]) => number) => {
      const orig = list[name].bind(list) as (...a: unknown[]) => unknown;
      (list as unknown as Record<string, unknown>)[name] = (...a: unknown[]) => {
        if (name === 'trimStart' && this.erasing) this.erasing = false;
        else drop(trimmed(...(a as number[])));
        return orig(...a);
      };
    };
    wrap('push', () => (list.length === list.maxLength ? 1 : 0));
    wrap('recycle', () => 1);
    wrap('splice', (_start, deleteCount, ...items) => list.length - (deleteCount ?? 0) + items.length - list.maxLength);
    wrap('shiftElements', (start, count, offset) => (offset! > 0 ? start! + count! + offset! - list.maxLength : 0));
    wrap('trimStart', (n) => Math.min(n!, list.length));
  }

  /** End of a parse: an ED 3 that trimmed nothing must not swallow a later trim. */
  settle(): void {
    this.erasing = false;
  }
}
