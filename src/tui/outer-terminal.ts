// State baton sets on the terminal the user sits at, written only when it changes: where
// the cursor is and whether it shows, its shape (DECSCUSR), and how that terminal encodes
// cursor and keypad keys. Keys are forwarded to the program in front as that terminal
// encodes them, so its encoding must be the one the program asked for. It writes escape
// sequences through blessed's program and keeps no other state.

import type blessed from './blessed.js';
import type { CursorShape } from './xterm.js';

const SHAPE_CODE = { block: 2, underline: 4, bar: 6 } as const;

type KeyModes = { applicationCursorKeysMode: boolean; applicationKeypadMode: boolean };

/** What the terminal's cursor follows of the pane in front (a Pane). */
export interface CursorSource {
  readonly exited: unknown;
  cursor(): { x: number; y: number; visible: boolean; shape: CursorShape };
  readonly term: { modes: KeyModes };
}

/** What covers or stands in for the pane, and where the pane starts on screen. */
export interface CursorCover {
  /** An overlay is open: it draws its own caret (the compose bar's is an inverted cell). */
  overlay: boolean;
  /** Scroll mode is open: its cursor stands in for the program's. */
  scroll: { cursor: { x: number; y: number } | undefined } | undefined;
  left: number;
  top: number;
}

export class OuterTerminal {
  private cursorState = '';
  private shapeState = '';
  private modesState = '';

  constructor(private readonly program: blessed.BlessedProgram) {}

  /** Forget what was set: the terminal may be another one now (a client attached); all is sent again. */
  reset(): void {
    this.cursorState = '';
    this.shapeState = '';
    this.modesState = '';
  }

  /** Show the cursor at a screen position, or hide it (undefined). */
  cursor(at: { x: number; y: number } | undefined): void {
    const state = at ? `${at.x},${at.y}` : 'hidden';
    if (state === this.cursorState) return;
    this.cursorState = state;
    if (at) {
      this.program.cup(at.y, at.x);
      this.program.showCursor();
    } else {
      this.program.hideCursor();
    }
  }

  /** The shape the program in front asked for; undefined is the terminal's own default. */
  shape(shape: CursorShape): void {
    const code = shape ? String(SHAPE_CODE[shape.style] - (shape.blink ? 1 : 0)) : '0';
    if (code === this.shapeState) return;
    this.shapeState = code;
    this.program.write(`\x1b[${code} q`);
  }

  /**
   * The cursor, its shape and the key modes for the pane in front: hidden under an overlay;
   * scroll mode's in scroll mode; else the program's own where it shows it (none once it exited).
   */
  follow(pane: CursorSource | undefined, cover: CursorCover): void {
    let at: { x: number; y: number } | undefined;
    if (cover.overlay) {
      this.cursor(undefined);
      this.keyModes(pane?.term.modes);
      return;
    }
    if (pane) {
      if (cover.scroll) at = cover.scroll.cursor;
      else {
        const c = pane.cursor();
        if (c.visible && !pane.exited) at = { x: c.x, y: c.y };
        this.shape(c.shape);
      }
    }
    this.cursor(at && { x: cover.left + at.x, y: cover.top + at.y });
    this.keyModes(pane?.term.modes);
  }

  /**
   * Cursor keys (DECCKM) and keypad (DECKPAM) as the program in front set them; both off
   * when there is none. blessed turns both on when it starts.
   */
  keyModes(m: KeyModes | undefined): void {
    const want = `${m?.applicationCursorKeysMode ? 1 : 0}${m?.applicationKeypadMode ? 1 : 0}`;
    if (want === this.modesState) return;
    this.modesState = want;
    this.program.write((want[0] === '1' ? '\x1b[?1h' : '\x1b[?1l') + (want[1] === '1' ? '\x1b=' : '\x1b>'));
  }
}

/**
 * Reads the terminal's size again before keys are routed. The kernel tells of a resize
 * by a signal, apart from the bytes typed after it, and Node hands baton the bytes first
 * when both wait (libuv runs signal callbacks after the other I/O of a poll): on a busy
 * machine or a slow link, keys typed after a resize reached the program before its
 * pane was resized (its `stty size` said the old size). A changed size emits the output's
 * 'resize' here, as the signal would have (the signal then finds nothing changed).
 */
export function refreshOuterSize(output: NodeJS.WriteStream): void {
  const out = output as NodeJS.WriteStream & { _refreshSize?: () => void };
  if (!out.isTTY || typeof out._refreshSize !== 'function') return;
  try {
    out._refreshSize();
  } catch {
    // The terminal is gone (a hangup): its own handler says so.
  }
}
