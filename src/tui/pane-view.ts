// The blessed element that shows one pane at a time: copies the emulator's rows into the
// screen's cell grid, only the rows that changed, and for scroll mode a window onto the
// scrollback with highlighted ranges; or, while the tab's program is stopped on purpose,
// baton's notice in its place. Which rows changed it keeps itself, from the pane's change
// events: a pane may be shown by several views (clients) at once, and none takes the
// others' account away. It decides nothing about when to draw (see frames.ts) and must
// never write to the PTY.

import blessed from './blessed.js';
import { DEFAULT_ATTR, paintRow, type BlessedRow } from './cells.js';
import { MutableDisposable, type Disposable } from '../lifecycle/index.js';
import type { Pane, RowRange } from './pane.js';
import { wrapLines } from './wrap.js';

export interface Highlight {
  /** Absolute line number (see Pane.firstLine). */
  line: number;
  start: number;
  end: number;
}

export class PaneView implements Disposable {
  readonly box: blessed.Widgets.BoxElement;
  private pane: Pane | undefined;
  /** This view's subscription to its pane's changes. */
  private readonly watching = new MutableDisposable<Disposable>();
  /** Rows the pane said changed since this view last painted (viewport-relative, inclusive). */
  private dirtyStart = Infinity;
  private dirtyEnd = -1;
  /** Scroll mode: absolute line number shown in the first row; undefined = live. */
  scrollTop: number | undefined;
  highlights: Highlight[] = [];
  /** Base line and buffer painted last, so a scroll or an alternate-screen switch repaints everything. */
  private lastBase = -1;
  private lastBuffer: unknown;
  private forceFull = true;
  /** Shown instead of the pane (see Tab.notice); the first line bold. */
  private notice: string[] | undefined;

  constructor(private readonly screen: blessed.Widgets.Screen, pos: { top: number; bottom: number }) {
    this.box = blessed.box({ top: pos.top, left: 0, width: '100%', height: `100%-${pos.top + pos.bottom}` });
    // blessed's own render would draw content and clear the area; ours copies emulator cells.
    (this.box as unknown as { render: () => unknown }).render = () => this.renderAll();
    screen.append(this.box);
  }

  /** Rows kept free above and below the pane (tab bar; compose bar and status line). */
  setInsets(top: number, bottom: number): void {
    this.box.top = top;
    this.box.height = `100%-${top + bottom}`;
    this.forceFull = true;
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
    this.forceFull = true;
  }

  getPane(): Pane | undefined {
    return this.pane;
  }

  getNotice(): string[] | undefined {
    return this.notice;
  }

  invalidate(): void {
    this.forceFull = true;
  }

  private rowsChanged(r: RowRange): void {
    if (r.start < this.dirtyStart) this.dirtyStart = r.start;
    if (r.end > this.dirtyEnd) this.dirtyEnd = r.end;
  }

  /** The rows changed since the last paint (clamped to the screen), forgotten as they are read. */
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

  /** Full paint, called by blessed's screen.render() (layout changes, overlays). */
  private renderAll(): unknown {
    const coords = (this.box as unknown as { _getCoords(get?: boolean): { xi: number; xl: number; yi: number; yl: number } | undefined })._getCoords(true);
    if (!coords) return undefined;
    (this.box as unknown as { lpos: unknown }).lpos = coords;
    this.forceFull = true;
    this.paint();
    return coords;
  }

  /**
   * Paint changed rows into the screen's cell grid; returns the screen rows touched
   * (inclusive) or undefined when nothing changed. The caller draws them.
   */
  paint(): { start: number; end: number } | undefined {
    const pane = this.pane;
    const lines = (this.screen as unknown as { lines: BlessedRow[] }).lines;
    const top = this.top;
    const left = this.left;
    const width = this.width;
    const height = this.height;
    if (this.notice) return this.paintNotice(this.notice, lines, top, left, width, height);
    if (!pane) {
      for (let y = 0; y < height; y++) {
        const row = lines[top + y];
        if (!row) continue;
        for (let x = 0; x < width; x++) {
          const c = row[left + x];
          if (c && (c[1] !== ' ' || c[0] !== (this.screen as unknown as { dattr: number }).dattr)) {
            c[0] = (this.screen as unknown as { dattr: number }).dattr;
            c[1] = ' ';
            row.dirty = true;
          }
        }
      }
      this.forceFull = false;
      return { start: top, end: top + height - 1 };
    }
    const buf = pane.term.buffer.active;
    // Live: the emulator's screen rows. Scroll mode: lines by absolute number (pane.ts).
    const base = this.scrollTop ?? buf.baseY;
    let range = this.takeDirty(pane.rows);
    let start: number;
    let end: number;
    if (this.forceFull || base !== this.lastBase || buf !== this.lastBuffer || this.scrollTop !== undefined) {
      start = 0;
      end = height - 1;
    } else if (range && range.end >= range.start) {
      start = range.start;
      end = Math.min(range.end, height - 1);
    } else {
      return undefined;
    }
    this.forceFull = false;
    this.lastBase = base;
    this.lastBuffer = buf;
    const cell = buf.getNullCell();
    let first = -1;
    let last = -1;
    for (let y = start; y <= end; y++) {
      const row = lines[top + y];
      if (!row) continue;
      let changed: boolean;
      if (this.scrollTop !== undefined) {
        const n = this.scrollTop + y;
        changed = pane.paintLine(n, row, left, width, this.highlights.find((h) => h.line === n));
      } else {
        changed = paintRow(y < pane.rows ? buf.getLine(base + y) : undefined, cell, row, left, width);
      }
      if (changed) {
        if (first < 0) first = y;
        last = y;
      }
    }
    range = undefined;
    return first < 0 ? undefined : { start: top + first, end: top + last };
  }

  private paintNotice(notice: string[], lines: BlessedRow[], top: number, left: number, width: number, height: number): { start: number; end: number } | undefined {
    const rows = wrapLines(notice, width - 4);
    let changed = false;
    for (let y = 0; y < height; y++) {
      const row = lines[top + y];
      if (!row) continue;
      const text = y >= 1 && y - 1 < rows.length ? rows[y - 1]! : '';
      const attr = y === 1 ? DEFAULT_ATTR | (1 << 18) : DEFAULT_ATTR;
      const chars = [...text];
      for (let x = 0; x < width; x++) {
        const c = row[left + x];
        if (!c) break;
        const ch = x >= 2 && x - 2 < chars.length ? chars[x - 2]! : ' ';
        if (c[0] !== attr || c[1] !== ch) {
          c[0] = attr;
          c[1] = ch;
          row.dirty = true;
          changed = true;
        }
      }
    }
    const full = this.forceFull;
    this.forceFull = false;
    return changed || full ? { start: top, end: top + height - 1 } : undefined;
  }
}
