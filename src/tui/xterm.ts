// The one door for @xterm/headless and its Unicode 11 addon: the CommonJS-from-ESM import
// dance, the Unicode 11 widths every pane needs, and the private hooks (changed rows,
// cursor visibility and shape) with fallbacks for when a version moves them.
// Nothing else in baton reaches into xterm's private `_core`.

import headless from '@xterm/headless';
import unicode11 from '@xterm/addon-unicode11';
import type { Terminal as XTerminal, IBufferCell, IBufferLine, IDisposable } from '@xterm/headless';

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
export interface InternalLine {
  readonly length: number;
  readonly isWrapped: boolean;
  _data: Uint32Array;
  _combined: Record<number, string>;
  _extendedAttrs: Record<number, unknown>;
  getNoBgTrimmedLength?(): number;
  getTrimmedLength(): number;
  clone(): InternalLine;
}

/** xterm's cell: what getNullCell() returns and loadCell() fills. */
interface InternalCell {
  content: number;
  fg: number;
  bg: number;
  combinedData: string;
  extended: unknown;
}

/** Three 32-bit words a cell: content (code point, width, combined flag), fg, bg (colours, flags). */
const CELL_WORDS = 3;
const IS_COMBINED = 1 << 21;
const HAS_EXTENDED = 1 << 28;

/**
 * A copy of a line in xterm's own cell encoding, cut after its last used cell: one typed
 * array copy, cheap enough to take for every line a flood pushes out.
 */
export interface RawLine {
  readonly kind: 'raw';
  readonly data: Uint32Array;
  readonly combined: Record<number, string> | undefined;
  readonly extended: Record<number, unknown> | undefined;
  readonly wrapped: boolean;
}

function snapshotLine(l: InternalLine): RawLine {
  const used = l.getNoBgTrimmedLength ? l.getNoBgTrimmedLength() : l.getTrimmedLength();
  const combined = Object.keys(l._combined).length ? { ...l._combined } : undefined;
  const extended = Object.keys(l._extendedAttrs).length ? { ...l._extendedAttrs } : undefined;
  return { kind: 'raw', data: l._data.slice(0, used * CELL_WORDS), combined, extended, wrapped: l.isWrapped };
}

/** Read a RawLine through the public line interface (cells from getNullCell are xterm's). */
export function rawLineView(r: RawLine): IBufferLine {
  const length = r.data.length / CELL_WORDS;
  const view = {
    length,
    isWrapped: r.wrapped,
    getCell(x: number, cell?: IBufferCell) {
      if (x < 0 || x >= length || !cell) return undefined;
      const c = cell as unknown as InternalCell;
      const i = x * CELL_WORDS;
      c.content = r.data[i]!;
      c.fg = r.data[i + 1]!;
      c.bg = r.data[i + 2]!;
      if (c.content & IS_COMBINED) c.combinedData = r.combined?.[x] ?? '';
      if (c.bg & HAS_EXTENDED) {
        if (r.extended?.[x]) c.extended = r.extended[x];
        else c.bg &= ~HAS_EXTENDED;
      }
      return cell;
    },
    translateToString(trimRight?: boolean, start = 0, end = length) {
      const cell = nullCell;
      let out = '';
      for (let x = start; x < Math.min(end, length); x++) {
        view.getCell(x, cell);
        out += cell.getWidth() === 0 ? '' : cell.getChars() || ' ';
      }
      return trimRight ? out.replace(/\s+$/, '') : out;
    },
  };
  return view as unknown as IBufferLine;
}

/**
 * One of xterm's own line objects, taken out of its list as it was dropped (see
 * ScrollbackTap): no copy at all. Full width until compacted, then handed back for reuse.
 */
export interface HeldLine {
  readonly kind: 'held';
  readonly line: InternalLine;
}

export function heldLineView(h: HeldLine): IBufferLine {
  const l = h.line as InternalLine & { loadCell(x: number, c: unknown): unknown; translateToString(t?: boolean, s?: number, e?: number): string };
  return {
    length: l.length,
    isWrapped: l.isWrapped,
    getCell(x: number, cell?: IBufferCell) {
      if (x < 0 || x >= l.length || !cell) return undefined;
      l.loadCell(x, cell);
      return cell;
    },
    translateToString: (trimRight?: boolean, start?: number, end?: number) => l.translateToString(trimRight, start, end),
  } as unknown as IBufferLine;
}

/** Runs of [attr, text | cells, attr, text | cells, ...]. */
export type Runs = (number | string | string[])[];

/**
 * A line as runs (see history.ts ArchivedLine): a line that is one run in the default
 * attribute and does not continue the previous line is just its text; any other line that
 * does not continue the previous one, when its runs are all plain text, is one string of
 * its runs each as PACKED, its attribute in 3 chars (0-255 each), then its text; else its
 * runs array; only a wrapped line has the object that says so. Tens of thousands are kept
 * per pane, so each shape is the smallest that holds it: a coloured line as an array of 4
 * items and its 2 strings took ~200 bytes, packed ~110 (an object added 40).
 */
export type LineRuns = string | Runs | { wrapped: true; runs: Runs };

/** Starts each run of a packed line; a cell's text never holds it (an empty cell is a space). */
export const PACKED = '\0';

/**
 * The stored form of runs built by push(): packed when it can be, else a copy exactly as
 * long as its items (a pushed-to array keeps room for 16 or more, ~150 bytes where a
 * line's 4 items need 48).
 */
export function keptRuns(runs: Runs, wrapped: boolean): LineRuns {
  if (!wrapped && runs.length > 0) {
    // Joined, not built with +=, which would keep a rope of its pieces.
    const parts: string[] = [];
    for (let i = 0; i < runs.length; i += 2) {
      const attr = runs[i] as number;
      const text = runs[i + 1]!;
      if (typeof text !== 'string' || attr < 0 || attr > 0xffffff || text.includes(PACKED)) break;
      parts.push(PACKED, String.fromCharCode(attr >>> 16, (attr >>> 8) & 0xff, attr & 0xff), text);
    }
    if (parts.length === (runs.length / 2) * 3) return parts.join('');
  }
  const exact = runs.slice();
  return wrapped ? { wrapped: true, runs: exact } : exact;
}

/** The runs of a packed line (see LineRuns). */
export function unpackRuns(s: string): Runs {
  const runs: Runs = [];
  let i = 0;
  while (i < s.length) {
    const attr = (s.charCodeAt(i + 1) << 16) | (s.charCodeAt(i + 2) << 8) | s.charCodeAt(i + 3);
    let end = s.indexOf(PACKED, i + 4);
    if (end < 0) end = s.length;
    runs.push(attr, s.slice(i + 4, end));
    i = end;
  }
  return runs;
}

/**
 * Turn a held line into runs straight from xterm's cell words: the attribute is computed
 * only where the colour/flag words change, and plain one-column characters are gathered in
 * a scratch buffer and turned into one flat string natively. Every line a flood keeps goes
 * through here, so it allocates as little as it can: for a plain line, only its string.
 */
export function heldLineRuns(h: HeldLine, cell: IBufferCell, attrOf: (cell: IBufferCell) => number, defaultAttr: number): LineRuns {
  const l = h.line;
  const data = l._data;
  const end = l.getNoBgTrimmedLength ? l.getNoBgTrimmedLength() : l.getTrimmedLength();
  if (scratch16.length < end) {
    scratch16 = new Uint16Array(end * 2);
    scratch8 = Buffer.alloc(end * 2);
  }
  const c = cell as unknown as InternalCell;
  let runs: Runs | undefined;
  let fg = -1;
  let bg = -1;
  let attr = -1;
  // The current run: char codes in scratch[runStart, n) (`wide` when one is over 255), or,
  // after a wide or combined character, a list of cell strings.
  let runStart = 0;
  let n = 0;
  let wide = false;
  let cells: string[] | undefined;
  for (let x = 0; x < end; x++) {
    const i = x * CELL_WORDS;
    const content = data[i]!;
    const f = data[i + 1]!;
    const b = data[i + 2]!;
    if (f !== fg || b !== bg || b & HAS_EXTENDED) {
      c.content = content;
      c.fg = f;
      c.bg = b;
      if (b & HAS_EXTENDED) {
        const ext = l._extendedAttrs[x];
        if (ext) c.extended = ext;
        else c.bg &= ~HAS_EXTENDED;
      }
      const a = attrOf(cell);
      fg = f;
      bg = b;
      if (a !== attr) {
        if (attr >= 0) (runs ??= []).push(attr, cells ?? runText(runStart, n, wide));
        attr = a;
        runStart = n;
        wide = false;
        cells = undefined;
      }
    }
    const width = content >>> 22;
    const cp = content & 0x1fffff;
    if (!cells && !(content & IS_COMBINED) && width === 1 && cp < 0x10000) {
      const code = cp === 0 ? 32 : cp;
      scratch16[n] = code;
      scratch8[n++] = code;
      if (code > 255) wide = true;
      continue;
    }
    if (!cells) {
      cells = [];
      for (let k = runStart; k < n; k++) cells.push(String.fromCharCode(scratch16[k]!));
    }
    cells.push(content & IS_COMBINED ? (l._combined[x] ?? ' ') : width === 0 ? '' : cp === 0 ? ' ' : String.fromCodePoint(cp));
  }
  let last: string | string[] = '';
  if (attr >= 0) {
    last = cells ?? runText(runStart, n, wide);
    // Trailing default blanks carry nothing (the trimmed length keeps written spaces).
    if (attr === defaultAttr && typeof last === 'string' && last.endsWith(' ')) last = last.replace(/ +$/, '');
  }
  if (!runs && !l.isWrapped && (attr < 0 || (attr === defaultAttr && typeof last === 'string'))) return last as string;
  runs ??= [];
  if (attr >= 0 && last.length > 0) runs.push(attr, last);
  return keptRuns(runs, l.isWrapped);
}

function runText(start: number, end: number, wide: boolean): string {
  if (!wide) return scratch8.toString('latin1', start, end);
  return String.fromCharCode.apply(null, scratch16.subarray(start, end) as unknown as number[]);
}

/** Char codes of the line being compacted (reused: one line at a time). */
let scratch16 = new Uint16Array(256);
let scratch8 = Buffer.alloc(256);

let nullCellTerm: XTerminal | undefined;
/** A cell to decode raw lines into when the caller has none. */
const nullCell: IBufferCell = (() => {
  nullCellTerm ??= new TerminalCtor({ cols: 2, rows: 1, allowProposedApi: true, logLevel: 'off' });
  return nullCellTerm.buffer.active.getNullCell();
})();

/**
 * Line objects kept for reuse per pane; beyond this they are left to the GC. A flood past
 * MAX_PENDING_HISTORY gives back one line for each it takes, so a few suffice; the rest sat
 * idle (256 a pane held 2.4 MB for 8 panes of 100 columns).
 */
const POOL_MAX = 64;

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
  /** Line objects given back (history evicted or compacted them), for xterm to reuse. */
  private pool: InternalLine[] = [];

  private constructor(
    private readonly term: XTerminal,
    private readonly onDrop: (line: RawLine | HeldLine) => void,
    private readonly onErase: () => void,
  ) {}

  /** A held line the history no longer needs: xterm gets it back for a new line. */
  release(h: HeldLine): void {
    if (this.pool.length < POOL_MAX) this.pool.push(h.line);
  }

  static attach(term: XTerminal, onDrop: (line: RawLine | HeldLine) => void, onErase: () => void): ScrollbackTap | undefined {
    const list = normalLines(term);
    const methods = ['push', 'recycle', 'splice', 'shiftElements', 'trimStart', 'get'] as const;
    if (!list || !methods.every((m) => typeof list[m] === 'function') || typeof list.maxLength !== 'number') return undefined;
    const probe = list.get(0) as Partial<InternalLine> | undefined;
    if (!probe || !(probe._data instanceof Uint32Array) || typeof probe._combined !== 'object' || typeof probe.getTrimmedLength !== 'function')
      return undefined;
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
      for (let i = 0; i < Math.min(n, list.length); i++) this.onDrop(snapshotLine(list.get(i) as InternalLine));
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
    // The flood path (every line scrolled out of a full buffer): take xterm's line object
    // itself and put a pooled one in its slot, so xterm blanks that one instead. No copy, and
    // no allocation once the pool is primed by the history giving lines back.
    const l = list as unknown as { _array?: unknown[]; _startIndex?: number; recycle(): unknown };
    if (Array.isArray(l._array) && typeof l._startIndex === 'number') {
      const recycle = l.recycle.bind(l);
      l.recycle = () => {
        const slot = l._startIndex! % list.maxLength;
        const old = l._array![slot] as InternalLine;
        l._array![slot] = this.pool.pop() ?? old.clone();
        this.onDrop({ kind: 'held', line: old });
        return recycle();
      };
    } else {
      wrap('recycle', () => 1);
    }
    wrap('splice', (_start, deleteCount, ...items) => list.length - (deleteCount ?? 0) + items.length - list.maxLength);
    wrap('shiftElements', (start, count, offset) => (offset! > 0 ? start! + count! + offset! - list.maxLength : 0));
    wrap('trimStart', (n) => Math.min(n!, list.length));
  }

  /** End of a parse: an ED 3 that trimmed nothing must not swallow a later trim. */
  settle(): void {
    this.erasing = false;
  }
}

// ---- what the public cell API leaves out: underline styles and colours, hyperlinks ----

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
