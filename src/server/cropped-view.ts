// The view as a read-only client smaller than it sees it: that client may not resize the view
// (another client sets its size), so instead of the view's bytes, which its terminal would
// clip and scroll until neither the tab bar nor the status line showed, it is sent a frame
// of its own size: the tab bar on its first row and the status line on its last, laid out for
// its width by the view (ChromeRows.rowsAt) as tmux lays out each client's status line, the
// view's compose rows above the status line, and between them the pane's top-left part, as
// tmux shows a window larger than the client. The view's bytes are replayed into an emulator
// of the view's size, and the client's rows are drawn from its cells, only the cells that
// changed. Its status line says once, for a while, why the view is cropped. It never
// writes to the view; a client that cannot keep up is sent the current frame once it drains.

import { StringDecoder } from 'node:string_decoder';
import { RowWriter, type RowSignature } from '../tui/row-writer.js';
import { cellSgr, SGR_RESET } from '../tui/sgr.js';
import type { TerminalCaps } from '../tui/terminal-caps.js';
import { createTerminal, cursorHidden, writeSyncOf, type IBufferCell, type Terminal } from '../tui/xterm.js';
import { hyperlinks, type Hyperlink } from '../tui/xterm-cells.js';
import type { ViewSink } from './virtual-terminal.js';

/** How long the status line says why the view is cropped, as long as baton's own messages stay. */
export const NOTE_MS = 8000;

export interface Size {
  cols: number;
  rows: number;
}

/** Rows of the view above the pane (the tab bar) and below it (compose bar, status line). */
export interface ChromeRows {
  top: number;
  bottom: number;
  /** The tab bar and the status line laid out for `width`, as bytes (their blank tail left to erase); undefined: the view's rows, cut. */
  rowsAt?(width: number): { tabBar: string; status: string } | undefined;
}

const cup = (y: number, x: number) => `\x1b[${y + 1};${x + 1}H`;
const HIDE_CURSOR = '\x1b[?25l';
const SHOW_CURSOR = '\x1b[?25h';

export class CroppedView implements ViewSink {
  private readonly mirror: Terminal;
  /** The client's own tab bar (row 0) and status line (row 1), laid out for its width. */
  private own: { term: Terminal; write: (data: string) => void; bytes: string } | undefined;
  private readonly parse: (data: string) => void;
  private readonly decoder = new StringDecoder('utf8');
  private readonly writer: RowWriter;
  private readonly cell: IBufferCell;
  private readonly links: (id: number) => Hyperlink | undefined;
  /** What each of the client's rows shows now (undefined: unknown, written whole next time). */
  private shown: (RowSignature | undefined)[] = [];
  private note: string | undefined;
  /** The note is on the client's last row now. */
  private noteShown = false;
  /** Where the client's cursor was put last ('hidden', or 'y,x'); undefined: not known. */
  private cursorAt: string | undefined;
  private noteTimer: NodeJS.Timeout | undefined;
  private scheduled: NodeJS.Immediate | undefined;
  private congested = false;
  private disposed = false;

  constructor(
    private readonly out: ViewSink,
    private size: Size,
    view: Size,
    private readonly chrome: () => ChromeRows,
    caps: TerminalCaps,
    note: string,
  ) {
    this.mirror = createTerminal(view.cols, view.rows, 0);
    const sync = writeSyncOf(this.mirror);
    this.parse = sync ?? ((data) => this.mirror.write(data, () => this.schedule()));
    this.writer = new RowWriter(caps);
    this.cell = this.mirror.buffer.active.getNullCell();
    this.links = hyperlinks(this.mirror);
    this.note = note;
    this.noteTimer = setTimeout(() => {
      this.note = undefined;
      this.noteShown = false;
      this.shown[this.size.rows - 1] = undefined;
      this.schedule();
    }, NOTE_MS);
  }

  /** The view's bytes: replayed into the mirror; the client is drawn once they are parsed. Never congested towards the view. */
  write(data: Buffer): boolean {
    if (this.disposed) return true;
    this.parse(this.decoder.write(data));
    this.schedule();
    return true;
  }

  onDrain(): void {
    // write() never says congested: the client's own socket is waited for in draw().
  }

  /** The client or the view changed size; the view redraws itself after a resize, the mirror follows. */
  resize(size: Size, view: Size, note: string): void {
    if (view.cols !== this.mirror.cols || view.rows !== this.mirror.rows) this.mirror.resize(view.cols, view.rows);
    this.size = size;
    if (this.note !== undefined) this.note = note;
    this.forget();
    this.schedule();
  }

  dispose(): void {
    this.disposed = true;
    if (this.noteTimer) clearTimeout(this.noteTimer);
    if (this.scheduled) clearImmediate(this.scheduled);
    this.mirror.dispose();
    this.own?.term.dispose();
  }

  /** What the client's terminal shows is not known (it was resized, or missed frames): every row is written whole next. */
  private forget(): void {
    this.shown = [];
    this.noteShown = false;
    this.cursorAt = undefined;
  }

  private schedule(): void {
    if (this.scheduled || this.disposed) return;
    this.scheduled = setImmediate(() => {
      this.scheduled = undefined;
      this.draw();
    });
  }

  /** Which row of the view the client's row `y` shows; undefined for none (the client is taller). */
  private sourceRow(y: number, { top, bottom }: ChromeRows): number | undefined {
    const { rows } = this.size;
    const viewRows = this.mirror.rows;
    if (rows >= viewRows) return y < viewRows ? y : undefined;
    const t = Math.min(top, rows);
    const b = Math.min(bottom, rows - t);
    return y >= rows - b ? viewRows - (rows - y) : y;
  }

  /** The client's own tab bar and status line as an emulator's two lines, when the view lays them out for its width. */
  private ownRows(chrome: ChromeRows) {
    const { cols } = this.size;
    const rows = chrome.rowsAt?.(cols);
    if (!rows) return undefined;
    if (this.own?.term.cols !== cols) {
      this.own?.term.dispose();
      const term = createTerminal(cols, 2, 0);
      const sync = writeSyncOf(term);
      // (Without a synchronous parse, the rows are drawn from what was parsed by then, and again at the next frame.)
      this.own = { term, write: sync ?? ((data) => term.write(data)), bytes: '' };
    }
    const bytes = `\x1b[H${rows.tabBar}\x1b[K\x1b[2;1H${rows.status}\x1b[K`;
    if (bytes !== this.own.bytes) {
      this.own.bytes = bytes;
      this.own.write(bytes);
    }
    return this.own.term.buffer.active;
  }

  private draw(): void {
    if (this.disposed || this.congested) return;
    const { cols, rows } = this.size;
    const buf = this.mirror.buffer.active;
    let bytes = '';
    let cursor: { x: number; y: number } | undefined;
    const chrome = this.chrome();
    const own = this.ownRows(chrome);
    for (let y = 0; y < rows; y++) {
      const src = this.sourceRow(y, chrome);
      if (src !== undefined && src === buf.cursorY) cursor = { x: buf.cursorX, y };
      if (y === rows - 1 && this.note !== undefined) continue;
      const line =
        src === undefined
          ? undefined
          : own && src === 0
            ? own.getLine(0)
            : own && src === this.mirror.rows - 1
              ? own.getLine(1)
              : buf.getLine(buf.viewportY + src);
      const row = this.writer.line(line, this.cell, { y, x0: 0, width: cols, toEdge: true }, this.links, undefined, this.shown[y]);
      this.shown[y] = row.signature;
      bytes += row.bytes;
    }
    if (this.note !== undefined && !this.noteShown) {
      // Drawn in the status line's own colours, over it; written whole again once it is gone.
      const status = buf.getLine(buf.viewportY + this.mirror.rows - 1)?.getCell(0, this.cell);
      const sgr = status ? cellSgr(status, this.writer.caps) : SGR_RESET;
      bytes += `${cup(rows - 1, 0)}${sgr}${fit(this.note, cols)}\x1b[K${SGR_RESET}`;
      this.shown[rows - 1] = undefined;
      this.noteShown = true;
    }
    // The view's cursor where the client shows its row and column, else none.
    const at = cursor && cursor.x < cols && !cursorHidden(this.mirror) ? cursor : undefined;
    const cursorAt = at ? `${at.y},${at.x}` : 'hidden';
    if (!bytes && cursorAt === this.cursorAt) return;
    this.cursorAt = cursorAt;
    bytes = (bytes ? HIDE_CURSOR + bytes : '') + (at ? cup(at.y, at.x) + SHOW_CURSOR : HIDE_CURSOR);
    if (!this.out.write(Buffer.from(bytes, 'utf8'))) {
      this.congested = true;
      this.out.onDrain(() => {
        this.congested = false;
        this.forget();
        this.schedule();
      });
    }
  }
}

/** `text` in at most `cols` cells (ASCII: one cell a character), cut with "…". */
function fit(text: string, cols: number): string {
  return text.length <= cols ? text : cols <= 1 ? text.slice(0, cols) : text.slice(0, cols - 1) + '…';
}
