// Scroll mode (prefix [): a cursor over the pane's scrollback. PgUp/PgDn/arrows move,
// g/G go to top/bottom, / searches upwards (n/N repeat) and wraps around at either end, as
// tmux's copy mode does, so whatever is on the screen is found wherever the cursor stands;
// v starts a selection, y or Enter copies it to the clipboard with OSC 52, q or Esc leaves.
// A program in its full-screen view (the alternate screen) keeps no scrollback: the screen
// is all there is, and the status line says so. The program keeps running and its output
// keeps arriving underneath; the view stays where the user put it. It reads lines through
// a LineSource (the pane's history and emulator alike) and never writes to the PTY.

import type { LineSource } from './pane-screen.js';
import type { Highlight } from './pane-view.js';

/** The part of the pane's view scroll mode drives (see PaneView). */
export interface ScrollView {
  readonly height: number;
  /** Absolute line number shown in the first row; undefined = live. */
  scrollTop: number | undefined;
  highlights: Highlight[];
}

export interface ScrollHost {
  view: ScrollView;
  /** Show a message (or the search prompt) in the status line; undefined restores the hints. */
  status(text: string | undefined): void;
  /** Redraw the pane and put the terminal cursor at a screen position. */
  redraw(cursor: { x: number; y: number } | undefined): void;
  /** Send text to the outer terminal's clipboard. */
  copy(text: string): void;
  /** Scroll mode has ended. */
  leave(): void;
}

export interface BlessedKey {
  name?: string;
  full?: string;
  ctrl?: boolean;
  shift?: boolean;
}

interface Pos {
  line: number;
  col: number;
}

export class ScrollMode {
  private top: number;
  private cur: Pos;
  private mark: Pos | undefined;
  private match: Highlight | undefined;
  private query = '';
  /** While set, keys edit the search prompt. */
  private prompt: string | undefined;
  /** Which screen the line numbers belong to: they start again when the program switches. */
  private fullScreen: boolean;

  constructor(
    private readonly pane: LineSource,
    private readonly host: ScrollHost,
  ) {
    this.fullScreen = pane.fullScreen;
    this.top = 0;
    this.cur = { line: 0, col: 0 };
    this.toLive();
    this.update();
  }

  /** The view and cursor where the live screen and the program's cursor are. */
  private toLive(): void {
    const c = this.pane.cursor();
    this.top = this.pane.screenTop;
    this.cur = { line: this.pane.screenTop + c.y, col: c.x };
  }

  private get height(): number {
    return this.host.view.height;
  }

  private get firstLine(): number {
    return this.pane.firstLine;
  }

  private get lastLine(): number {
    return this.pane.endLine - 1;
  }

  private get maxTop(): number {
    return Math.max(this.firstLine, this.pane.endLine - this.height);
  }

  private lineText(n: number): string {
    return this.pane.lineText(n);
  }

  /** The text between the mark and the cursor, lines joined with newlines (wrapped rows rejoined). */
  selection(): string | undefined {
    if (!this.mark) return undefined;
    const [a, b] = compare(this.mark, this.cur) <= 0 ? [this.mark, this.cur] : [this.cur, this.mark];
    let out = '';
    for (let n = a.line; n <= b.line; n++) {
      const text = this.lineText(n);
      const from = n === a.line ? a.col : 0;
      const to = n === b.line ? b.col + 1 : text.length;
      out += text.slice(from, to);
      if (n < b.line && !this.pane.isWrapped(n + 1)) out += '\n';
    }
    return out.replace(/[ ]+$/g, '');
  }

  handleKey(ch: string | undefined, key: BlessedKey): void {
    if (this.prompt !== undefined) return this.promptKey(ch, key);
    const page = Math.max(1, this.height - 1);
    switch (key.full ?? key.name) {
      case 'q':
      case 'escape':
      case 'C-c':
        return this.host.leave();
      case 'pageup':
      case 'C-b':
        this.top = clamp(this.top - page, this.firstLine, this.maxTop);
        this.cur.line = clamp(this.cur.line - page, this.firstLine, this.lastLine);
        break;
      case 'pagedown':
      case 'C-f':
        this.top = clamp(this.top + page, this.firstLine, this.maxTop);
        this.cur.line = clamp(this.cur.line + page, this.firstLine, this.lastLine);
        break;
      case 'up':
      case 'k':
        this.cur.line = Math.max(this.firstLine, this.cur.line - 1);
        break;
      case 'down':
      case 'j':
        this.cur.line = Math.min(this.lastLine, this.cur.line + 1);
        break;
      case 'left':
      case 'h':
        this.cur.col = Math.max(0, this.cur.col - 1);
        break;
      case 'right':
      case 'l':
        this.cur.col = Math.min(this.pane.cols - 1, this.cur.col + 1);
        break;
      case 'home':
      case 'g':
        this.top = this.firstLine;
        this.cur = { line: this.firstLine, col: 0 };
        break;
      case 'end':
      case 'S-g':
        this.top = this.maxTop;
        this.cur = { line: this.lastLine, col: 0 };
        break;
      case '0':
        this.cur.col = 0;
        break;
      case '$':
        this.cur.col = Math.max(0, this.lineText(this.cur.line).length - 1);
        break;
      case 'v':
      case 'space':
        this.mark = this.mark ? undefined : { ...this.cur };
        break;
      case 'y':
      case 'enter': {
        const text = this.selection();
        if (text === undefined) {
          this.host.status('nothing selected: v starts a selection');
          return this.update(false);
        }
        this.host.copy(text);
        this.host.leave();
        return;
      }
      case '/':
        this.prompt = '';
        return this.update();
      case 'n':
        return this.search(this.query, -1);
      case 'S-n':
        return this.search(this.query, 1);
      default:
        if (ch === '/') {
          this.prompt = '';
          return this.update();
        }
        return;
    }
    this.update();
  }

  private promptKey(ch: string | undefined, key: BlessedKey): void {
    const name = key.full ?? key.name;
    if (name === 'escape' || name === 'C-c') {
      this.prompt = undefined;
    } else if (name === 'enter') {
      this.query = this.prompt ?? '';
      this.prompt = undefined;
      return this.search(this.query, -1);
    } else if (name === 'backspace') {
      this.prompt = (this.prompt ?? '').slice(0, -1);
    } else if (ch && !key.ctrl && ch >= ' ') {
      this.prompt = (this.prompt ?? '') + ch;
    }
    this.update();
  }

  /**
   * Search from the cursor: dir -1 upwards (older), +1 downwards, case-insensitive; past
   * the first or last line it wraps around to the other end, as tmux's copy mode does.
   */
  search(query: string, dir: -1 | 1): void {
    if (!query) return this.update();
    const q = query.toLowerCase();
    const first = this.firstLine;
    const count = this.lastLine - first + 1;
    const { line, col } = this.cur;
    // Lines in search order from the cursor's, wrapping at the ends; the cursor's line is
    // visited twice: its part on the search's side of the cursor first, the rest last.
    for (let k = 0; k <= count; k++) {
      const n = first + mod(line - first + dir * k, count);
      const text = this.lineText(n).toLowerCase();
      let i = dir < 0 ? text.lastIndexOf(q) : text.indexOf(q);
      if (k === 0) i = dir < 0 ? (col > 0 ? text.lastIndexOf(q, col - 1) : -1) : text.indexOf(q, col + 1);
      else if (k === count && (dir < 0 ? i < col : i > col)) i = -1;
      if (i < 0) continue;
      const wrapped = k > 0 && (dir < 0 ? n >= line : n <= line);
      this.cur = { line: n, col: i };
      this.match = { line: n, start: i, end: i + [...query].length };
      if (n < this.top || n >= this.top + this.height) this.top = clamp(n - Math.floor(this.height / 2), first, this.maxTop);
      if (!wrapped) return this.update();
      this.host.status(`/${query}: search wrapped around to the ${dir < 0 ? 'bottom' : 'top'}`);
      return this.update(false);
    }
    this.match = undefined;
    this.host.status(`not found: ${query}`);
    this.update(false);
  }

  private update(resetStatus = true): void {
    if (this.pane.fullScreen !== this.fullScreen) {
      // The program entered or left its full-screen view: the old numbers mean nothing now.
      this.fullScreen = this.pane.fullScreen;
      this.mark = undefined;
      this.match = undefined;
      this.toLive();
    }
    // Lines may have fallen off the start of the history since the last key.
    if (this.cur.line < this.firstLine) this.cur.line = this.firstLine;
    if (this.cur.line < this.top) this.top = this.cur.line;
    if (this.cur.line >= this.top + this.height) this.top = this.cur.line - this.height + 1;
    this.top = clamp(this.top, this.firstLine, this.maxTop);
    const view = this.host.view;
    view.scrollTop = this.top;
    view.highlights = [...this.selectionHighlights(), ...(this.match ? [this.match] : [])];
    if (this.prompt !== undefined) this.host.status(`/${this.prompt}`);
    else if (resetStatus) {
      const at = this.pane.endLine - this.top - this.height;
      const where = this.fullScreen ? "no scrollback in this program's full-screen view" : at > 0 ? `${at} lines up` : 'bottom';
      const keys = this.fullScreen ? '↑↓' : 'PgUp/PgDn ↑↓';
      this.host.status(`[scroll${this.mark ? ': selecting' : ''}] ${where} · ${keys} · / search · v select · y copy · q leave`);
    }
    this.host.redraw({ x: this.cur.col, y: this.cur.line - this.top });
  }

  private selectionHighlights(): Highlight[] {
    if (!this.mark) return [];
    const [a, b] = compare(this.mark, this.cur) <= 0 ? [this.mark, this.cur] : [this.cur, this.mark];
    const out: Highlight[] = [];
    for (let n = Math.max(a.line, this.top); n <= Math.min(b.line, this.top + this.height - 1); n++) {
      out.push({ line: n, start: n === a.line ? a.col : 0, end: n === b.line ? b.col + 1 : this.pane.cols });
    }
    return out;
  }
}

function mod(a: number, n: number): number {
  return ((a % n) + n) % n;
}

function compare(a: Pos, b: Pos): number {
  return a.line - b.line || a.col - b.col;
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}
