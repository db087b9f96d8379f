// Test terminal: runs a command in a real PTY (node-pty) and reconstructs its screen with a
// real terminal emulator (@xterm/headless, Unicode 11 widths), so tests assert on what a
// person would see. Waiting is always polling for a condition with a deadline. Everything
// it starts is ended by process group. A command given no XDG_RUNTIME_DIR gets a socket
// directory of its own, so a baton it runs never meets another test's baton server (nor the
// user's); kill() ends the servers started there, by pid.
// Waiting without a screen (until) is in wait.ts, which does not load node-pty.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pty from 'node-pty';
import headless from '@xterm/headless';
import unicode11 from '@xterm/addon-unicode11';
import type { Terminal } from '@xterm/headless';
import { alive, endPids, signalGroup } from '../../src/proc/index.js';
import { keyBytes } from '../../src/tui/key-parse.js';
import { registerGraphemeWidths } from './grapheme-width.js';

const { Terminal: TerminalCtor } = headless as unknown as { Terminal: typeof Terminal };
const { Unicode11Addon } = unicode11 as unknown as { Unicode11Addon: new () => never };

export interface TermOptions {
  cols?: number;
  rows?: number;
  cwd?: string;
  /** The whole environment of the command (not merged with the test's). */
  env: Record<string, string | undefined>;
  /** The terminal joins emoji sequences into one glyph, as kitty or WezTerm do (see grapheme-width.ts). */
  graphemes?: boolean;
}

export type ScreenPredicate = RegExp | string | ((screen: string, term: TestTerminal) => boolean);

export class TestTerminal {
  readonly term: Terminal;
  readonly pid: number;
  private readonly proc: pty.IPty;
  exitCode: number | undefined;
  readonly exited: Promise<number>;
  /** Everything the command wrote, for assertions on escape sequences (OSC 52). */
  output = '';
  /** The socket directory made for this command (when its env named none). */
  private ownRuntime: string | undefined;

  constructor(argv: string[], opts: TermOptions) {
    const cols = opts.cols ?? 100;
    const rows = opts.rows ?? 30;
    this.term = new TerminalCtor({ cols, rows, scrollback: 1000, allowProposedApi: true });
    this.term.loadAddon(new Unicode11Addon());
    this.term.unicode.activeVersion = '11';
    if (opts.graphemes) registerGraphemeWidths(this.term);
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(opts.env)) if (v !== undefined) env[k] = v;
    if (env.XDG_RUNTIME_DIR === undefined) {
      this.ownRuntime = mkdtempSync(join(tmpdir(), 'baton-term-run-'));
      env.XDG_RUNTIME_DIR = this.ownRuntime;
    }
    // node-pty sets TERM to `name`: the environment's TERM is the terminal this one plays.
    this.proc = pty.spawn(argv[0]!, argv.slice(1), { name: env.TERM ?? 'xterm-256color', cols, rows, cwd: opts.cwd ?? process.cwd(), env });
    this.pid = this.proc.pid;
    this.proc.onData((d) => {
      this.output += d;
      this.term.write(d, () => {
        for (const l of this.parsed) l();
      });
    });
    // Answer the program's terminal queries the way a real terminal would.
    this.term.onData((d) => {
      if (this.exitCode === undefined) this.proc.write(d);
    });
    this.exited = new Promise((resolve) => {
      this.proc.onExit((e) => {
        // node-pty reports the exit after the last output was read, but the emulator parses
        // asynchronously: the end is told once the screen shows everything written before it.
        this.term.write('', () => {
          this.exitCode = e.exitCode;
          resolve(e.exitCode);
        });
      });
    });
  }

  private parsed: (() => void)[] = [];

  /** Calls `listener` each time output from the command has been parsed onto the screen; the function returned unsubscribes. */
  onParsed(listener: () => void): () => void {
    const l = () => listener();
    this.parsed = [...this.parsed, l];
    return () => {
      this.parsed = this.parsed.filter((x) => x !== l);
    };
  }

  /** The visible screen, rows joined with newlines, trailing spaces trimmed. */
  screenText(): string {
    return this.rows().join('\n');
  }

  rows(): string[] {
    const b = this.term.buffer.active;
    const out: string[] = [];
    for (let y = 0; y < this.term.rows; y++) out.push((b.getLine(b.viewportY + y)?.translateToString(true) ?? '').trimEnd());
    return out;
  }

  /** Row n of the screen (0-based; negative counts from the bottom). */
  row(n: number): string {
    const rows = this.rows();
    return rows[n < 0 ? rows.length + n : n] ?? '';
  }

  cursor(): { x: number; y: number } {
    const b = this.term.buffer.active;
    return { x: b.cursorX, y: b.cursorY };
  }

  /** Poll until the predicate holds on the screen; on timeout, fail with the screen in the message. */
  async waitFor(pred: ScreenPredicate, timeoutMs = 30_000, what?: string): Promise<string> {
    const test = (s: string) => (typeof pred === 'string' ? s.includes(pred) : pred instanceof RegExp ? pred.test(s) : pred(s, this));
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await new Promise<void>((r) => this.term.write('', r));
      const screen = this.screenText();
      if (test(screen)) return screen;
      if (Date.now() > deadline) {
        throw new Error(`timed out after ${timeoutMs} ms waiting for ${what ?? String(pred)}; screen was:\n${screen}\n---`);
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** Wait until the predicate stops holding. */
  waitForGone(pred: RegExp | string, timeoutMs = 30_000): Promise<string> {
    return this.waitFor((s) => (typeof pred === 'string' ? !s.includes(pred) : !pred.test(s)), timeoutMs, `${String(pred)} to go away`);
  }

  /** Type text as keystrokes (bytes as they are). */
  type(text: string): void {
    this.proc.write(text);
  }

  /**
   * Type text, written to the terminal before this returns (type() goes through node-pty's
   * writer, which writes from libuv's thread pool a moment later): for a test that must
   * know the bytes are there, e.g. before it lets a stopped program run again.
   */
  typeNow(text: string): void {
    const fd = (this.proc as unknown as { fd?: unknown }).fd;
    if (typeof fd !== 'number') throw new Error('this node-pty build gives no file descriptor to write to');
    const buf = Buffer.from(text, 'utf8');
    for (let off = 0; off < buf.length; ) {
      try {
        off += writeSync(fd, buf, off);
      } catch (e) {
        // The master is non-blocking: a full input queue is retried.
        if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      }
    }
  }

  /**
   * Press a named key: "C-b", "Enter", "PageUp", "M-x", "?". Cursor keys are encoded the way
   * a terminal does in the mode the program set (DECCKM: ESC O A instead of ESC [ A).
   */
  press(...keys: string[]): void {
    for (const k of keys) {
      let bytes = keyBytes(k);
      if (bytes === undefined) throw new Error(`unknown key name ${k}`);
      if (this.term.modes.applicationCursorKeysMode && /^\x1b\[[ABCDHF]$/.test(bytes)) bytes = '\x1bO' + bytes[2];
      this.proc.write(bytes);
    }
  }

  /** Paste as a terminal with bracketed paste would deliver it. */
  paste(text: string): void {
    this.proc.write(`\x1b[200~${text}\x1b[201~`);
  }

  resize(cols: number, rows: number): void {
    this.term.resize(cols, rows);
    this.proc.resize(cols, rows);
  }

  /** End the command's process group (TERM, then KILL after graceMs) and wait for it. */
  async kill(graceMs = 3000): Promise<void> {
    if (this.exitCode === undefined) {
      signalGroup(this.pid, 'SIGTERM');
      const t = setTimeout(() => signalGroup(this.pid, 'SIGKILL'), graceMs);
      await this.exited;
      clearTimeout(t);
    }
    signalGroup(this.pid, 'SIGKILL');
    this.term.dispose();
    if (this.ownRuntime) {
      const dir = join(this.ownRuntime, 'baton');
      const servers = () =>
        existsSync(dir)
          ? readdirSync(dir)
              .filter((n) => n.endsWith('.lock'))
              .map((n) => lockPid(join(dir, n)))
              .filter((p) => p > 1 && alive(p))
          : [];
      await endPids(servers, { graceMs: 3000 });
      rmSync(this.ownRuntime, { recursive: true, force: true });
    }
  }
}

/** The pid in a server's lock file; NaN once it is gone (the server removes it as it ends, between the listing and the read). */
function lockPid(file: string): number {
  try {
    return Number(readFileSync(file, 'utf8').trim());
  } catch {
    return Number.NaN;
  }
}
