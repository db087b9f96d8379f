// A flood's lines that scroll past unseen are never parsed. When a chunk of program output
// holds many complete lines of plain text (printable ASCII, shorter than the screen is wide,
// each ended by CR LF: `seq`, most logs) and the emulator is in the state where each such line
// prints as just its text on a fresh line (xterm-plain.ts), the emulator parses only the last
// lines it can hold; the earlier ones go straight to the history as the text they are
// (History.appendPlain, plain-span.ts), in order after the lines the emulator let go.
// Screen, scrollback and line numbers come out exactly as if every byte had been parsed (a
// test holds the two ways together); any other chunk is parsed whole, as before.

import type { IBufferCell, Terminal } from './xterm.js';
import type { History } from './history.js';
import { plainLinesCapacity } from './xterm-plain.js';

/** Lines a chunk must have beyond what the emulator holds before skipping is worth its checks. */
export const MIN_SKIP = 64;

/** Where each plain line found by plainLines() starts; starts[n] is just past the last CR LF. */
let starts = new Int32Array(1024);

/**
 * Counts the complete plain lines at `from`: each printable ASCII (0x20-0x7e), at most
 * `maxLen` long, then CR LF. Their starts are left in `starts`.
 */
export function plainLines(data: string, from: number, maxLen: number): number {
  const len = data.length;
  // Grown before the scan, to the most lines the rest can hold (a CR LF each): a branch taken
  // inside the loop once in a while had no type feedback and threw V8's optimised loop away
  // (~10 ns a character, a third of a flood's parse in a profile of a fresh server). The
  // array's pages are the OS's zero pages until written: only the lines found cost memory.
  const most = ((len - from) >> 1) + 2;
  if (starts.length < most) starts = new Int32Array(Math.max(most, 2 * starts.length));
  const s = starts;
  let n = 0;
  let at = from;
  for (;;) {
    let j = at;
    let c = 0;
    while (j < len) {
      c = data.charCodeAt(j);
      if (c < 0x20 || c > 0x7e) break;
      j++;
    }
    if (j + 1 >= len || c !== 13 || data.charCodeAt(j + 1) !== 10 || j - at > maxLen) break;
    s[n++] = at;
    at = j + 2;
  }
  s[n] = at;
  return n;
}

/** The starts left by the last plainLines(). */
export const lineStarts = (): Int32Array => starts;

/**
 * Parses `data` into `term` (with `parse`, xterm's synchronous write), skipping the plain
 * lines that would scroll past the emulator's reach into `history`. Returns false, having
 * parsed nothing, when the chunk holds no such flood; the caller then parses it whole.
 * `shed`, when given, lets the emulator's scrollback go to the history at once (returning
 * whether it went), when a run of lines would push all of it there anyway.
 */
export function parseFlood(data: string, term: Terminal, parse: (s: string) => void, history: History, cell: IBufferCell, shed?: () => boolean): boolean {
  // A flood's chunk is KBs long; a short one cannot hold enough lines.
  if (data.length < 4 * MIN_SKIP) return false;
  const maxLen = term.cols - 1;
  /** data[0, done) is parsed (or skipped). */
  let done = 0;
  for (let at = 0; ; ) {
    // The next run of enough plain lines; they start on a fresh line, after a CR LF.
    let from = -1;
    let n = 0;
    while (n < MIN_SKIP) {
      const crlf = data.indexOf('\r\n', at);
      if (crlf < 0) break;
      from = crlf + 2;
      n = plainLines(data, from, maxLen);
      at = Math.max(from, starts[n]!);
    }
    if (n < MIN_SKIP) break;
    const end = starts[n]!;
    parse(data.slice(done, from));
    done = end;
    let held = plainLinesCapacity(term);
    /** Lines of the run parsed before the skip (starts[first] is where the rest begin). */
    let first = 0;
    // A screen not yet full (a fresh tab, after `clear`): the cursor reaches the bottom row
    // within a screenful of lines, and from there the rest may be skipped. (The first flood
    // in a new tab was parsed whole: ~250 ms of a seq 1 1000000 on a fresh server.)
    if (held === 0 && n - term.rows >= MIN_SKIP) {
      first = term.rows;
      parse(data.slice(from, starts[first]));
      held = plainLinesCapacity(term);
    }
    // Every line the emulator holds leaves for the history in this run: its scrollback may
    // leave now, and the emulator parses a screenful of the run, not screen and scrollback.
    if (n - first - held >= MIN_SKIP && shed?.()) held = plainLinesCapacity(term);
    const skip = n - first - held;
    // (The parser remembers no printed character across a CR LF, REP's: nothing else to keep.)
    if (held === 0 || skip < MIN_SKIP) {
      parse(data.slice(starts[first]!, end));
      continue;
    }
    // The emulator takes the last lines it can hold: every line it held before leaves for the
    // history, in order; then the skipped lines follow them there. Each line leaving is staged
    // at once, which hands its line object back for the next (else xterm's lines are cloned).
    // When the skipped lines alone fill the history, every line the emulator lets go now
    // would be dropped again at once: it is counted, never kept (most parses of a fast flood).
    const pending = history.maxPending;
    history.maxPending = 0;
    history.discarding = skip >= history.cap;
    try {
      parse(data.slice(starts[first + skip]!, end));
    } finally {
      history.maxPending = pending;
      history.discarding = false;
    }
    history.appendPlain(data, starts, first, first + skip, cell);
  }
  if (done === 0) return false;
  if (done < data.length) parse(data.slice(done));
  return true;
}
