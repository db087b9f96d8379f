// A pane: one program in a PTY (node-pty) feeding what it shows (PaneScreen: the terminal
// emulator and its history). It owns both and keeps the emulator's screen current, and pauses
// the PTY while the emulator lags behind. What happens is told through events any number of
// listeners may hold: which rows changed (each viewer keeps its own account of what it has
// yet to paint), output parsed, title, bell, clipboard, exit. It draws nothing itself (see
// pane-view.ts) and must never outlive dispose(): the process group is ended by its pid,
// never by name, and every listener is let go.

import * as pty from 'node-pty';
import type { BlessedRow } from './cells.js';
import type { History } from './history.js';
import { DEFAULT_SCROLLBACK, PaneScreen, type LineSource } from './pane-screen.js';
import { DisposableStore, Emitter, type Event } from '../lifecycle/index.js';
import { readStat, sessionGroups, signalGroup } from '../proc/index.js';
import { PtyDrain } from './pty-drain.js';
import { type InputProgress, PtyInput, type PtyInputOptions } from './pty-input.js';
import { FLOOD_READ, READ_AHEAD_MS, ReadAhead, SHOWN_READ_AHEAD_MS } from './read-ahead.js';
import { onRefreshRows, type CursorShape, type Terminal } from './xterm.js';

export { DEFAULT_SCROLLBACK } from './pane-screen.js';

export interface PaneLaunch {
  command: string;
  args: string[];
  /** Additions to (or, with `replaceEnv`, the whole of) the environment. */
  env: Record<string, string | undefined>;
  cwd: string;
}

export interface PaneOptions extends PaneLaunch {
  cols: number;
  rows: number;
  /** Lines kept above the screen; xterm stores ~12 bytes per cell, so this is what memory scales with. */
  scrollback?: number;
  /** The base environment the launch's env is added to (default: process.env). */
  baseEnv?: NodeJS.ProcessEnv;
  /** When and how often a slow write's progress is told (tests). */
  input?: PtyInputOptions;
}

/** Without synchronous parsing: bytes queued in the emulator at which the PTY is paused, and resumed again. */
const HIGH_WATER = 256 * 1024;
const LOW_WATER = 32 * 1024;

export interface PaneExit {
  exitCode: number;
  signal?: number;
}

/** Rows of the live screen (viewport-relative, inclusive); may reach past the last row. */
export interface RowRange {
  start: number;
  end: number;
}

/** What the screen shows changed: these rows, or (no rows) only the cursor or the modes. */
export interface PaneChange {
  rows?: RowRange;
}

export class Pane implements LineSource {
  /** What the program has shown: the emulator and the history above it. */
  readonly screen: PaneScreen;
  readonly term: Terminal;
  readonly pid: number;
  exited: PaneExit | undefined;
  private readonly pty: pty.IPty;
  /** Everything the pane holds besides the PTY and the emulator: its subscriptions, emitters, timer. */
  private readonly owned = new DisposableStore();
  private queued = 0;
  private paused = false;
  private disposed = false;
  private readonly exitPromise: Promise<PaneExit>;
  private readonly hasRefreshSignal: boolean;
  private readonly changeEmitter = this.owned.add(new Emitter<PaneChange>());
  private readonly outputEmitter = this.owned.add(new Emitter<void>());
  private readonly titleEmitter = this.owned.add(new Emitter<string>());
  private readonly bellEmitter = this.owned.add(new Emitter<void>());
  private readonly clipboardEmitter = this.owned.add(new Emitter<string>());
  private readonly exitEmitter = this.owned.add(new Emitter<PaneExit>());
  /** What the screen shows changed (each viewer accumulates the rows it has yet to paint). */
  readonly onChange: Event<PaneChange> = this.changeEmitter.event;
  /** Program output was parsed into the emulator (once per chunk read from the PTY, or per few ms of a flood's). */
  readonly onOutput: Event<void> = this.outputEmitter.event;
  /** The program set its title (OSC 0/2). */
  readonly onTitle: Event<string> = this.titleEmitter.event;
  /** The program rang the bell, for the app to pass on (only the tab in front does, as in tmux). */
  readonly onBell: Event<void> = this.bellEmitter.event;
  /** The program set the clipboard (OSC 52; the payload as it sent it), for the app to pass on. */
  readonly onClipboard: Event<string> = this.clipboardEmitter.event;
  /**
   * The program exited (fired once). A listener subscribed after that hears nothing: read
   * `exited`, or await waitExit().
   */
  readonly onExit: Event<PaneExit> = this.exitEmitter.event;
  /** Bytes the program wrote, for benches and tests that wait for output to be parsed. */
  bytesIn = 0;
  bytesParsed = 0;

  private readonly input: PtyInput;
  /**
   * Input the program takes slowly (a large paste into a program that reads it a piece at a
   * time): how much is written, once it has taken a while, every so often, and when it is all
   * in (pty-input.ts). Keys written meanwhile wait behind it.
   */
  readonly onInput: Event<InputProgress>;
  /** A flood's reads wait a moment to be parsed together (see read-ahead.ts). */
  private readonly readAhead = new ReadAhead(
    (data) => this.parse(data),
    (room) => {
      if (this.drawn) this.drain?.drain(room, this.deliver);
    },
  );
  /** Reads the PTY between the pieces of a parse, so the program never waits for it (pty-drain.ts). */
  private readonly drain: PtyDrain | undefined;
  private readonly deliver = (data: string): void => this.onPtyData(data);
  /**
   * Called by the emulator's parse between its pieces: what the program wrote meanwhile is
   * read, in the pane drawn only. A pane out of sight keeps the kernel's own throttle: read
   * in parses, its flood held an ACP card in front back (npm run bench -- acp-card, mid-turn
   * with a neighbour flooding: p95 111 ms against 37 ms without the reads, load 8).
   */
  private readonly between = (): void => {
    if (this.drawn) this.drain?.drain(this.readAhead.room, this.deliver);
  };
  private drawn = false;

  constructor(opts: PaneOptions) {
    this.screen = new PaneScreen(opts.cols, opts.rows, opts.scrollback ?? DEFAULT_SCROLLBACK);
    this.term = this.screen.term;
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...(opts.baseEnv ?? process.env), ...opts.env })) if (v !== undefined) env[k] = v;
    // The emulator is an xterm; programs must not assume the outer terminal's quirks.
    env.TERM = 'xterm-256color';
    // It takes 24-bit colour, whatever the outer terminal is: baton draws each cell itself,
    // passing it on where that terminal has it, else in the nearest of the 256 xterm colours
    // (row-writer.ts), so a program may send its own colours rather than pick a 256-colour
    // fallback (or warn that true colour is missing).
    env.COLORTERM = 'truecolor';
    // A program in a pane is inside baton, not directly inside the user's tmux: tmux's own
    // escapes (passthrough, its clipboard) would reach baton's emulator, never tmux.
    delete env.TMUX;
    delete env.TMUX_PANE;
    this.pty = pty.spawn(opts.command, opts.args, { name: 'xterm-256color', cols: opts.cols, rows: opts.rows, cwd: opts.cwd, env });
    this.pid = this.pty.pid;
    this.input = new PtyInput(this.pty, opts.input);
    this.onInput = this.input.onProgress;
    this.drain = new PtyDrain(this.pty);

    this.exitPromise = new Promise((resolve) => {
      // (node-pty's own subscriptions end with the PTY: its exit is their last event.)
      this.pty.onExit((e) => {
        // What the program wrote last is on the screen before anyone hears it ended.
        this.readAhead.flush();
        this.exited = { exitCode: e.exitCode, signal: e.signal };
        this.exitEmitter.fire(this.exited);
        resolve(this.exited);
      });
    });
    this.pty.onData((data) => this.onPtyData(data));

    const refresh = onRefreshRows(this.term, (start, end) => this.changed(start, end));
    this.hasRefreshSignal = refresh !== undefined;
    if (refresh) this.owned.add(refresh);
    const all = () => this.changed(0, this.term.rows - 1);
    this.owned.add(
      // Fallback when xterm's private changed-rows signal is missing: repaint everything.
      this.term.onWriteParsed(() => (refresh ? this.changeEmitter.fire({}) : all())),
    );
    this.owned.add(this.term.onCursorMove(() => this.changeEmitter.fire({})));
    this.owned.add(this.term.buffer.onBufferChange(all));
    // Answers to the program's queries (cursor position, device attributes) go back to it.
    this.owned.add(this.term.onData((d) => this.write(d)));
    this.owned.add(this.term.onTitleChange((t) => this.titleEmitter.fire(t)));
    this.owned.add(this.term.onBell(() => this.bellEmitter.fire()));
    // The emulator has no clipboard; the terminal the user sits at has one.
    this.owned.add(
      this.term.parser.registerOscHandler(52, (payload) => {
        this.clipboardEmitter.fire(payload);
        return true;
      }),
    );
  }

  private onPtyData(data: string): void {
    if (this.disposed) return;
    this.bytesIn += data.length;
    this.readAhead.take(data);
  }

  private parse(data: string): void {
    if (this.disposed) return;
    const len = data.length;
    // A short read (an echo, a prompt) is parsed without reading the PTY after it: the program
    // has paused, so the read would find nothing, and Node says so (EAGAIN) by throwing, which
    // cost each keystroke's echo about 0.1 ms (npm run bench -- pane, traced by hand).
    if (this.screen.parse(data, len >= FLOOD_READ ? this.between : undefined)) {
      this.bytesParsed += len;
      // writeSync fires no onWriteParsed: tell the viewers here.
      if (!this.hasRefreshSignal) this.changed(0, this.term.rows - 1);
      else this.changeEmitter.fire({});
      this.outputEmitter.fire();
      return;
    }
    this.queued += len;
    this.term.write(data, () => {
      this.queued -= len;
      this.bytesParsed += len;
      if (!this.disposed) this.outputEmitter.fire();
      if (this.paused && this.queued < LOW_WATER) {
        this.paused = false;
        if (!this.disposed && !this.holdTimer) this.pty.resume();
      }
    });
    if (!this.paused && this.queued > HIGH_WATER) {
      this.paused = true;
      this.pty.pause();
    }
  }

  private changed(start: number, end: number): void {
    this.changeEmitter.fire({ rows: { start, end } });
  }

  get cols(): number {
    return this.term.cols;
  }

  get rows(): number {
    return this.term.rows;
  }

  /** Input for the program, as bytes from the keyboard (never re-encoded). */
  write(data: string): void {
    if (this.exited || this.disposed) return;
    this.input.write(data);
  }

  /** Input still on its way into the program (undefined: none). */
  inputProgress(): InputProgress | undefined {
    return this.input.progress();
  }

  /**
   * Stop reading this pane's PTY for a while (the program blocks once the kernel buffer is
   * full): lets a keystroke's echo in another pane through ahead of this one's flood.
   */
  hold(ms: number): void {
    if (this.exited || this.disposed) return;
    if (this.holdTimer) clearTimeout(this.holdTimer);
    else if (!this.paused) this.pty.pause();
    this.holdTimer = setTimeout(() => {
      this.holdTimer = undefined;
      if (!this.paused && !this.disposed) this.pty.resume();
    }, ms);
  }
  private holdTimer: NodeJS.Timeout | undefined;

  /**
   * The pane is drawn (the tab in front) or not: a drawn pane's flood is parsed about once a
   * frame, as often as what is drawn changes, and its PTY read during the parse too; one out
   * of sight in half-frame pieces, so the tab in front is never held long behind a
   * neighbour's parse (see read-ahead.ts).
   */
  shown(drawn: boolean): void {
    this.drawn = drawn;
    this.readAhead.waitMs = drawn ? SHOWN_READ_AHEAD_MS : READ_AHEAD_MS;
  }

  /** Pasted text: wrapped in bracketed-paste markers only when the program asked for them. */
  paste(text: string): void {
    if (this.term.modes.bracketedPasteMode) this.write(`\x1b[200~${text}\x1b[201~`);
    else this.write(text.replace(/\r?\n/g, '\r'));
  }

  /** Focus in/out, reported only to programs that enabled focus events (DECSET 1004). */
  focus(focused: boolean): void {
    if (this.term.modes.sendFocusMode) this.write(focused ? '\x1b[I' : '\x1b[O');
  }

  resize(cols: number, rows: number): void {
    cols = Math.max(2, Math.floor(cols));
    rows = Math.max(1, Math.floor(rows));
    if (cols === this.term.cols && rows === this.term.rows) return;
    // Bytes read before the resize were written for the old size.
    this.readAhead.flush();
    this.screen.resize(cols, rows);
    if (!this.exited && !this.disposed) {
      try {
        this.pty.resize(cols, rows);
      } catch {
        // The process may have exited between the check and the ioctl.
      }
    }
    this.changed(0, this.term.rows - 1);
  }

  cursor(): { x: number; y: number; visible: boolean; shape: CursorShape } {
    return this.screen.cursor();
  }

  // ---- lines by absolute number (see PaneScreen) ----

  /** Scrollback that left the emulator (normal screen only). */
  get history(): History {
    return this.screen.history;
  }

  get fullScreen(): boolean {
    return this.screen.fullScreen;
  }

  get firstLine(): number {
    return this.screen.firstLine;
  }

  get endLine(): number {
    return this.screen.endLine;
  }

  get screenTop(): number {
    return this.screen.screenTop;
  }

  lineText(n: number): string {
    return this.screen.lineText(n);
  }

  isWrapped(n: number): boolean {
    return this.screen.isWrapped(n);
  }

  paintLine(n: number, dest: BlessedRow, x0: number, width: number, invert?: { start: number; end: number }): boolean {
    return this.screen.paintLine(n, dest, x0, width, invert);
  }

  rowText(y: number): string {
    return this.screen.rowText(y);
  }

  /** A viewport row's text with its faint cells blank (pane-screen.ts rowTextUndimmed). */
  rowTextUndimmed(y: number): string {
    return this.screen.rowTextUndimmed(y);
  }

  /**
   * Whether a job other than the program itself holds the terminal (a shell running a
   * command). Linux only: reads the tty's foreground process group from /proc.
   */
  hasForegroundJob(): boolean {
    if (this.exited) return false;
    const tpgid = readStat(this.pid)?.tpgid ?? -1;
    return tpgid > 0 && tpgid !== this.pid;
  }

  /** The program's exit, whenever it comes. */
  waitExit(): Promise<PaneExit> {
    return this.exitPromise;
  }

  /**
   * End everything the program started in its terminal session: its process group and the
   * groups of jobs a shell put in the background (SIGHUP, as a closing terminal would;
   * SIGKILL after `graceMs`), wait for the program to be reaped, and free the emulator.
   * Only processes that left the session themselves (daemons) outlive a pane.
   */
  async dispose(graceMs = 1500): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.readAhead.dispose();
    this.drain?.dispose();
    this.input.dispose();
    if (this.holdTimer) clearTimeout(this.holdTimer);
    this.holdTimer = undefined;
    const groups = sessionGroups(this.pid);
    for (const g of groups) signalGroup(g, 'SIGHUP');
    if (!this.exited) {
      // A paused PTY may hold back the exit notification behind unread output.
      this.pty.resume();
      signalGroup(this.pid, 'SIGHUP');
      const timer = setTimeout(() => signalGroup(this.pid, 'SIGKILL'), graceMs);
      await this.exitPromise;
      clearTimeout(timer);
    }
    // Children that ignored SIGHUP and outlived the group's leader still share its pgid
    // (or their job's), and the session id: they are ended without a second chance.
    for (const g of new Set([this.pid, ...groups, ...sessionGroups(this.pid)])) signalGroup(g, 'SIGKILL');
    // Listeners heard the exit above; now they are let go, with the emulator's subscriptions.
    this.owned.dispose();
    this.screen.dispose();
  }
}
