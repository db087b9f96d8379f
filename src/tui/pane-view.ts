// The element that shows one pane at a time, drawn by baton itself rather than by blessed:
// each changed row of the emulator's screen (or, in scroll mode, of its scrollback with
// highlighted ranges; or baton's notice while the tab's program is stopped on purpose) is
// written to the terminal by the row writer, with the program's own colours and attributes
// as far as that terminal has them. blessed keeps drawing everything else and overlays on
// top: the pane's cells in blessed's grid hold a mark both in what blessed wants drawn and
// in what it believes is drawn, so its diff never writes them; a cell an overlay paints is
// blessed's until the overlay goes, and then the row is rewritten here. It decides nothing
// about when to draw (see frames.ts) and must never write to the PTY. Which rows changed it
// keeps itself, from the pane's change events: a pane may be shown by several views
// (clients) at once, and none takes the others' account away.

import blessed from './blessed.js';
import { DEFAULT_ATTR, type BlessedRow } from './cells.js';
import { MutableDisposable, type Disposable } from '../lifecycle/index.js';
import type { Pane, RowRange } from './pane.js';
import { RowWriter, type RowBytes, type RowPlace, type RowSignature } from './row-writer.js';
import type { TerminalCaps } from './terminal-caps.js';
import { wrapLines } from './wrap.js';
import type { Terminal } from './xterm.js';
import { hyperlinks, type Hyperlink } from './xterm-cells.js';

export interface Highlight {
  /** Absolute line number (see Pane.firstLine). */
  line: number;
  start: number;
  end: number;
}

/** The mark for a pane cell in blessed's grid: no element draws a negative attribute. */
const OURS_ATTR = -1;
const OURS_CH = '';

type Grid = BlessedRow[];
interface BlessedScreenInternals {
  lines: Grid;
  olines: Grid;
  draw(start: number, end: number): void;
  program: blessed.BlessedProgram & { _write(s: string): unknown; cursorHidden?: boolean };
}

export class PaneView implements Disposable {
  readonly box: blessed.Widgets.BoxElement;
  private pane: Pane | undefined;
  /** This view's subscription to its pane's changes. */
  private readonly watching = new MutableDisposable<Disposable>();
  /** Rows the pane said changed since this view last drew (viewport-relative, inclusive). */
  private dirtyStart = Infinity;
  private dirtyEnd = -1;
  /** Scroll mode: absolute line number shown in the first row; undefined = live. */
  scrollTop: number | undefined;
  highlights: Highlight[] = [];
  /** Base line and buffer drawn last, so a scroll or an alternate-screen switch redraws every row. */
  private lastBase = -1;
  private lastBuffer: unknown;
  private forceFull = true;
  /** Shown instead of the pane (see Tab.notice); the first line bold. */
  private notice: string[] | undefined;
  private writer: RowWriter;
  /** What each screen row looked like when last written from here; undefined: not known, so it is written whole. */
  private written: (RowSignature | undefined)[] = [];
  /** Some row's `written` was forgotten: every row is looked at on the next flush. */
  private stale = true;
  /** Per screen row, the pane's columns an overlay covered at blessed's last render. */
  private covered: (Uint8Array | undefined)[] = [];
  /** blessed rendered since its last draw: the marks are in its grid. */
  private rendered = false;
  private grid: Grid | undefined;
  private geometry = '';
  /** A row of blessed cells for scroll mode and notices. */
  private scratch: BlessedRow = [];
  private links: { term: Terminal; lookup: (id: number) => Hyperlink | undefined } | undefined;

  constructor(
    private readonly screen: blessed.Widgets.Screen,
    pos: { top: number; bottom: number },
    caps: TerminalCaps,
  ) {
    this.writer = new RowWriter(caps);
    this.box = blessed.box({ top: pos.top, left: 0, width: '100%', height: `100%-${pos.top + pos.bottom}` });
    // blessed's own render would draw content; this one marks the pane's cells as ours.
    (this.box as unknown as { render: () => unknown }).render = () => this.markCells();
    screen.append(this.box);
    // Every blessed draw (a full render: layout, chrome, overlays) is followed by the pane's rows.
    const s = screen as unknown as BlessedScreenInternals;
    const draw = s.draw.bind(screen);
    s.draw = (start: number, end: number) => {
      this.takeCoverage();
      draw(start, end);
      this.flush();
    };
  }

  /** Draw for a terminal with other abilities from now on (another client attached): every row again. */
  setCaps(caps: TerminalCaps): void {
    if (JSON.stringify(caps) === JSON.stringify(this.writer.caps)) return;
    this.writer = new RowWriter(caps);
    this.invalidate();
  }

  /** Rows kept free above and below the pane (tab bar; compose bar and status line). */
  setInsets(top: number, bottom: number): void {
    this.box.top = top;
    this.box.height = `100%-${top + bottom}`;
    this.invalidate();
  }

  get top(): number {
    return this.box.atop as number;
  }

  get left(): number {
    return this.box.aleft as number;
  }

  get width(): number {
    return this.box.width as number;
  }

  get height(): number {
    return this.box.height as number;
  }

  setPane(pane: Pane | undefined, notice?: string[]): void {
    if (pane !== this.pane) {
      this.watching.value = pane?.onChange((c) => c.rows && this.rowsChanged(c.rows));
      this.dirtyStart = Infinity;
      this.dirtyEnd = -1;
    }
    this.pane = pane;
    this.notice = notice;
    this.scrollTop = undefined;
    this.highlights = [];
    this.invalidate();
  }

  getPane(): Pane | undefined {
    return this.pane;
  }

  getNotice(): string[] | undefined {
    return this.notice;
  }

  /** Every row is drawn again on the next flush, whatever the terminal is believed to show. */
  invalidate(): void {
    this.forceFull = true;
    this.written = [];
    this.stale = true;
  }

  private rowsChanged(r: RowRange): void {
    if (r.start < this.dirtyStart) this.dirtyStart = r.start;
    if (r.end > this.dirtyEnd) this.dirtyEnd = r.end;
  }

  /** The rows changed since the last flush (clamped to the screen), forgotten as they are read. */
  private takeDirty(rows: number): RowRange | undefined {
    if (this.dirtyEnd < 0) return undefined;
    const r = { start: Math.max(0, this.dirtyStart), end: Math.min(rows - 1, this.dirtyEnd) };
    this.dirtyStart = Infinity;
    this.dirtyEnd = -1;
    return r;
  }

  dispose(): void {
    this.watching.dispose();
    this.pane = undefined;
  }

  private get s(): BlessedScreenInternals {
    return this.screen as unknown as BlessedScreenInternals;
  }

  /** blessed's render of the box: the pane's cells get the mark (an overlay rendered after paints over it). */
  private markCells(): unknown {
    const coords = (this.box as unknown as { _getCoords(get?: boolean): { xi: number; xl: number; yi: number; yl: number } | undefined })._getCoords(true);
    if (!coords) return undefined;
    (this.box as unknown as { lpos: unknown }).lpos = coords;
    const lines = this.s.lines;
    for (let y = coords.yi; y < coords.yl; y++) {
      const row = lines[y];
      if (!row) continue;
      for (let x = coords.xi; x < coords.xl; x++) {
        const c = row[x];
        if (!c) break;
        c[0] = OURS_ATTR;
        c[1] = OURS_CH;
      }
    }
    this.rendered = true;
    return coords;
  }

  /**
   * Before blessed draws: cells still marked are ours, and get the mark in what blessed
   * believes is drawn too, so it skips them now and writes any overlay cell there later;
   * cells painted over are an overlay's. A row whose covering changed is written again.
   */
  private takeCoverage(): void {
    if (!this.rendered) return;
    this.rendered = false;
    const { lines, olines } = this.s;
    if (olines !== this.grid) {
      // blessed allocated a new grid: it cleared the terminal.
      this.grid = olines;
      this.invalidate();
    }
    const top = this.top;
    const left = this.left;
    const width = this.width;
    for (let y = top; y < top + this.height; y++) {
      const row = lines[y];
      const orow = olines[y];
      if (!row || !orow) continue;
      let mask: Uint8Array | undefined;
      for (let x = 0; x < width; x++) {
        const c = row[left + x];
        const o = orow[left + x];
        if (!c || !o) break;
        if (c[0] === OURS_ATTR && c[1] === OURS_CH) {
          o[0] = OURS_ATTR;
          o[1] = OURS_CH;
        } else {
          (mask ??= new Uint8Array(width))[x] = 1;
        }
      }
      if (!sameMask(mask, this.covered[y])) {
        this.covered[y] = mask;
        this.written[y] = undefined;
        this.stale = true;
      }
    }
  }

  /** Write the rows that changed since the last flush to the terminal. */
  flush(): void {
    const out = this.build();
    if (!out) return;
    const program = this.s.program;
    // Where the cursor was, and its visibility, are the app's (outer-terminal.ts): kept.
    const hide = !program.cursorHidden;
    program._write('\x1b7' + (hide ? '\x1b[?25l' : '') + out + '\x1b8' + (hide ? '\x1b[?25h' : ''));
  }

  /** The bytes for the rows that differ from what they last got. */
  build(): string {
    const top = this.top;
    const left = this.left;
    const width = this.width;
    const height = this.height;
    const toEdge = left + width >= (this.screen.width as number);
    const geometry = `${top},${left},${width},${height}`;
    if (geometry !== this.geometry) {
      this.geometry = geometry;
      this.invalidate();
    }
    const pane = this.pane;
    let start = 0;
    let end = height - 1;
    let rowBytes: (y: number, place: RowPlace, last: RowSignature | undefined) => RowBytes;
    if (this.notice) {
      const rows = wrapLines(this.notice, width - 4);
      rowBytes = (y, place, last) => this.writer.blessed(this.noticeRow(y, rows, width), 0, place, last);
    } else if (!pane) {
      rowBytes = (_y, place, last) => this.writer.line(undefined, undefined, place, undefined, undefined, last);
    } else if (this.scrollTop !== undefined) {
      const first = this.scrollTop;
      const cell = pane.term.buffer.active.getNullCell();
      const links = this.linksOf(pane.term);
      rowBytes = (y, place, last) => {
        const n = first + y;
        const highlight = this.highlights.find((h) => h.line === n);
        // Every attribute while the line has them; a compacted history line has blessed's only.
        const full = pane.screen.fullLine(n);
        if (full) return this.writer.line(full, cell, place, links, highlight, last);
        const row = this.scratchRow(width);
        pane.paintLine(n, row, 0, width, highlight);
        return this.writer.blessed(row, 0, place, last);
      };
    } else {
      const buf = pane.term.buffer.active;
      const base = buf.baseY;
      const range = this.takeDirty(pane.rows);
      if (!this.forceFull && !this.stale && base === this.lastBase && buf === this.lastBuffer) {
        if (!range || range.end < range.start) return '';
        start = range.start;
        end = Math.min(range.end, height - 1);
      }
      this.lastBase = base;
      this.lastBuffer = buf;
      const cell = buf.getNullCell();
      const links = this.linksOf(pane.term);
      rowBytes = (y, place, last) => this.writer.line(y < pane.rows ? buf.getLine(base + y) : undefined, cell, place, links, undefined, last);
    }
    if (this.stale) {
      start = 0;
      end = height - 1;
    }
    this.forceFull = false;
    this.stale = false;
    let out = '';
    for (let y = start; y <= end; y++) {
      const sy = top + y;
      const { bytes, signature } = rowBytes(y, { y: sy, x0: left, width, toEdge, covered: this.covered[sy] }, this.written[sy]);
      out += bytes;
      this.written[sy] = signature;
    }
    return out;
  }

  private linksOf(term: Terminal): (id: number) => Hyperlink | undefined {
    if (this.links?.term !== term) this.links = { term, lookup: hyperlinks(term) };
    return this.links.lookup;
  }

  private scratchRow(width: number): BlessedRow {
    const row = this.scratch;
    while (row.length < width) row.push([DEFAULT_ATTR, ' ']);
    return row;
  }

  /** A row of the notice: text from the third column, the first line bold. */
  private noticeRow(y: number, rows: string[], width: number): BlessedRow {
    const row = this.scratchRow(width);
    const text = y >= 1 && y - 1 < rows.length ? rows[y - 1]! : '';
    const attr = y === 1 ? DEFAULT_ATTR | (1 << 18) : DEFAULT_ATTR;
    const chars = [...text];
    for (let x = 0; x < width; x++) {
      const c = row[x]!;
      c[0] = attr;
      c[1] = x >= 2 && x - 2 < chars.length ? chars[x - 2]! : ' ';
    }
    return row;
  }
}

function sameMask(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
