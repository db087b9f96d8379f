// What a pane's program has shown: the terminal emulator (@xterm/headless) fed with the
// program's output, and the compact history of lines that scrolled off its top, numbered
// as one sequence of lines (history, then the emulator's scrollback and screen). It takes
// bytes and answers questions about lines; it knows nothing of PTYs or of blessed's
// screen, so a test can feed it captured output. It must never write to a program.

import { paintRow, type BlessedRow } from './cells.js';
import { burstActive, burstSettled } from './burst-gc.js';
import { parseFlood } from './flood-lines.js';
import { History } from './history.js';
import { historyText, historyWrapped, paintHistory, uncompacted } from './history-line.js';
import {
  createTerminal,
  cursorHidden,
  cursorShape,
  keepScrolledUpLines,
  shrinkParseBuffer,
  writeSyncOf,
  type CursorShape,
  type IBufferCell,
  type IBufferLine,
  type IDisposable,
  type Terminal,
} from './xterm.js';
import { ScrollbackTap } from './xterm-scrollback.js';
import { heldAgain, shedScrollback } from './xterm-shed.js';

import { DEFAULT_SCROLLBACK } from './scrollback.js';

export { DEFAULT_SCROLLBACK };
/**
 * Scrollback lines left in the emulator at full width; older ones move to the compact
 * History. Small, because xterm keeps 12 bytes for every cell of every line.
 */
const HOT_SCROLLBACK = 200;
/** Quiet time before history lines are compacted, and how many per event-loop turn. */
const COMPACT_AFTER_QUIET_MS = 150;
const COMPACT_BATCH = 250;
/**
 * History lines left uncompacted (full width, 12 bytes a cell) at most, per pane. Their
 * buffers go back to malloc once compacted, which keeps the pages: with 1000 a pane, 8
 * panes that had shown a burst kept ~10 MB of them resident.
 */
const MAX_PENDING_HISTORY = 250;
/** A chunk longer than xterm's first parse buffer (4096 characters) grows it. */
const LONG_CHUNK = 4096;

/** Characters of output parsed at most between two calls of parse()'s `between`. */
const PARSE_PIECE = 16 * 1024;

/** Lines by absolute number, as scroll mode reads them (see PaneScreen). */
export interface LineSource {
  readonly cols: number;
  /** Number of the oldest line kept. */
  readonly firstLine: number;
  /** One past the newest line. */
  readonly endLine: number;
  /** Number of the line in the first row of the live screen. */
  readonly screenTop: number;
  /** The program shows its full-screen view (the alternate screen), which keeps no scrollback. */
  readonly fullScreen: boolean;
  cursor(): { x: number; y: number };
  lineText(n: number): string;
  isWrapped(n: number): boolean;
}

export class PaneScreen implements LineSource {
  readonly term: Terminal;
  /** Scrollback that left the emulator (normal screen only). */
  readonly history: History;
  private readonly tap: ScrollbackTap | undefined;
  private readonly archiveCell: IBufferCell;
  private readonly writeSync: ((data: string) => void) | undefined;
  private readonly disposables: IDisposable[] = [];
  private compactTimer: NodeJS.Timeout | undefined;
  private historyGrew = false;
  /** Lines the history had taken (dropped + kept) when it last settled. */
  private settledLines = 0;
  private disposed = false;
  /** Full-width lines the emulator keeps above its screen (but none while a flood has shed them). */
  private readonly hot: number;
  private shedding = false;
  /** A flood's run is pushing everything the emulator holds into the history: its scrollback goes now (xterm-shed.ts). */
  private readonly shed = (): boolean => {
    if (this.shedding) return false;
    // (An ED 3 earlier in this chunk that trimmed nothing must not take this trim for its own.)
    this.tap?.settle();
    // What the emulator lets go now stays in the history: room for it first.
    this.history.setCap(this.scrollback);
    this.shedding = shedScrollback(this.term);
    if (!this.shedding) this.syncCap();
    return this.shedding;
  };

  /**
   * The history keeps what the scrollback setting allows beyond what the emulator holds above
   * its screen: fewer lines as the emulator fills again after a shed, as xterm itself would
   * let the oldest go.
   */
  private syncCap(): void {
    if (this.tap) this.history.setCap(Math.max(0, this.scrollback + this.term.rows - this.term.buffer.normal.length));
  }

  constructor(
    cols: number,
    rows: number,
    private readonly scrollback = DEFAULT_SCROLLBACK,
  ) {
    const hot = Math.min(scrollback, HOT_SCROLLBACK);
    this.hot = hot;
    this.term = createTerminal(cols, rows, hot);
    this.archiveCell = this.term.buffer.normal.getNullCell();
    this.history = new History(scrollback - hot, (l) => this.tap?.release(l), MAX_PENDING_HISTORY, this.term.buffer.normal.getNullCell());
    this.tap =
      scrollback > hot
        ? ScrollbackTap.attach(
            this.term,
            (line) => {
              this.history.push(line);
              this.historyGrew = true;
            },
            () => this.history.clear(),
          )
        : undefined;
    // Without the tap, xterm keeps the whole scrollback itself.
    if (!this.tap) {
      this.term.options.scrollback = scrollback;
      this.history.cap = 0;
    }
    const keep = keepScrolledUpLines(this.term);
    if (keep) this.disposables.push(keep);
    this.writeSync = writeSyncOf(this.term);
  }

  /**
   * Parse program output now and return true; or return false, having done nothing, when
   * this xterm cannot parse synchronously (the caller then queues it with term.write()).
   * `between` is called between the pieces of a long parse (the pane reads its PTY then).
   */
  parse(data: string, between?: () => void): boolean {
    const writeSync = this.writeSync;
    if (!writeSync || this.disposed) return false;
    burstActive();
    // In pieces, `between` after each: the emulator parses a few MB a second before V8 has
    // optimised it, so a large chunk it cannot skip would keep the PTY unread for long. (The
    // parser keeps its state across writes, a split character included.)
    const write = between
      ? (s: string) => {
          for (let at = 0; at < s.length; at += PARSE_PIECE) {
            writeSync(s.length <= PARSE_PIECE ? s : s.slice(at, at + PARSE_PIECE));
            between();
          }
        }
      : writeSync;
    this.tap?.ensure();
    // Only with the tap: skipped lines go to the history, which needs the emulator's own
    // scrollback to leave through it, in order, first.
    if (!this.tap || !parseFlood(data, this.term, write, this.history, this.archiveCell, this.shed)) write(data);
    this.tap?.settle();
    this.syncCap();
    // (A long chunk grew xterm's parse buffer: the quiet moment after it gives that back.)
    if (this.historyGrew || data.length > LONG_CHUNK) {
      this.historyGrew = false;
      this.scheduleCompaction();
    }
    return true;
  }

  resize(cols: number, rows: number): void {
    this.tap?.ensure();
    this.term.resize(cols, rows);
    this.syncCap();
  }

  get cols(): number {
    return this.term.cols;
  }

  get rows(): number {
    return this.term.rows;
  }

  cursor(): { x: number; y: number; visible: boolean; shape: CursorShape } {
    const b = this.term.buffer.active;
    return { x: b.cursorX, y: b.cursorY, visible: !cursorHidden(this.term), shape: cursorShape(this.term) };
  }

  /**
   * Compact the history once output has paused (each new chunk pushes the moment back), a
   * batch (or one sealed block) per turn of the event loop, so neither a flood nor a
   * keystroke waits for it.
   */
  private scheduleCompaction(): void {
    if (this.compactTimer) this.compactTimer.refresh();
    else this.compactTimer = setTimeout(() => this.compactSome(), COMPACT_AFTER_QUIET_MS);
  }

  private compactSome(): void {
    this.compactTimer = undefined;
    if (this.disposed) return;
    this.history.compact(COMPACT_BATCH, this.archiveCell);
    if (this.history.pending + this.history.staged > 0 || this.history.sealable) this.compactTimer = setTimeout(() => this.compactSome(), 0);
    else {
      // Quiet and compacted: what the burst grew for its own speed goes, not kept for days.
      shrinkParseBuffer(this.term);
      if (this.shedding) {
        this.shedding = false;
        heldAgain(this.term, this.hot);
      }
      this.tap?.emptyPool();
      const taken = this.history.dropped + this.history.length;
      burstSettled(taken - this.settledLines);
      this.settledLines = taken;
    }
  }

  // ---- lines by absolute number: archived history, then the emulator's buffer ----
  // Numbers only grow: a line keeps its number as it moves from the emulator to the history,
  // and numbers of lines dropped off the start are never reused. In the alternate screen
  // there is no history: the numbers are the alternate buffer's rows.

  get fullScreen(): boolean {
    return this.term.buffer.active.type !== 'normal';
  }

  get firstLine(): number {
    return this.fullScreen ? 0 : this.history.dropped;
  }

  get endLine(): number {
    return this.screenTop - this.term.buffer.active.baseY + this.term.buffer.active.length;
  }

  get screenTop(): number {
    return (this.fullScreen ? 0 : this.history.dropped + this.history.length) + this.term.buffer.active.baseY;
  }

  private locate(n: number): { archived: number } | { buffer: number } | undefined {
    const base = this.fullScreen ? 0 : this.history.dropped;
    const archived = this.fullScreen ? 0 : this.history.length;
    const i = n - base;
    if (i < 0) return undefined;
    if (i < archived) return { archived: i };
    const b = i - archived;
    return b < this.term.buffer.active.length ? { buffer: b } : undefined;
  }

  /** Text of line `n` (trailing blanks trimmed). */
  lineText(n: number): string {
    const at = this.locate(n);
    if (!at) return '';
    if ('archived' in at) return historyText(this.history.get(at.archived)!);
    return (this.term.buffer.active.getLine(at.buffer)?.translateToString(true) ?? '').replace(/\s+$/, '');
  }

  /** Whether line `n` continues line n-1 (the program's text wrapped there). */
  isWrapped(n: number): boolean {
    const at = this.locate(n);
    if (!at) return false;
    if ('archived' in at) return historyWrapped(this.history.get(at.archived)!);
    return this.term.buffer.active.getLine(at.buffer)?.isWrapped ?? false;
  }

  /**
   * Line `n` with every cell's attributes, while it has them: on the screen, in the
   * emulator's scrollback, or in the history not compacted yet. Undefined once compacted
   * (paintLine draws it then) or when there is no such line.
   */
  fullLine(n: number): IBufferLine | undefined {
    const at = this.locate(n);
    if (!at) return undefined;
    if ('archived' in at) return uncompacted(this.history.get(at.archived)!);
    return this.term.buffer.active.getLine(at.buffer);
  }

  /** Paint line `n` into a blessed row (blank when there is no such line). */
  paintLine(n: number, dest: BlessedRow, x0: number, width: number, invert?: { start: number; end: number }): boolean {
    const at = this.locate(n);
    if (at && 'archived' in at) return paintHistory(this.history.get(at.archived)!, this.archiveCell, dest, x0, width, invert);
    const buf = this.term.buffer.active;
    return paintRow(at ? buf.getLine(at.buffer) : undefined, this.archiveCell, dest, x0, width, invert);
  }

  /** Plain text of a viewport row. */
  rowText(y: number): string {
    const b = this.term.buffer.active;
    return b.getLine(b.baseY + y)?.translateToString(true) ?? '';
  }

  /**
   * Plain text of a viewport row with its faint (dim) cells blank: TUIs draw a placeholder, a
   * suggestion or ghost text in an empty input box faint, and what the user typed plain.
   */
  rowTextUndimmed(y: number): string {
    const b = this.term.buffer.active;
    const line = b.getLine(b.baseY + y);
    if (!line) return '';
    const cell = b.getNullCell();
    let out = '';
    for (let x = 0; x < line.length; x++) {
      line.getCell(x, cell);
      const w = cell.getWidth();
      if (w === 0) continue;
      out += cell.isDim() ? ' '.repeat(w) : cell.getChars() || ' ';
    }
    return out.trimEnd();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.compactTimer) clearTimeout(this.compactTimer);
    this.compactTimer = undefined;
    for (const d of this.disposables) d.dispose();
    this.term.dispose();
  }
}
