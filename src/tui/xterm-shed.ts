// A flood's emulator holds its screen only, for as long as the flood lasts. The flood shortcut
// (flood-lines.ts) parses, of each chunk, as many lines as the emulator holds: its screen and
// its full-width scrollback (HOT_SCROLLBACK, pane-screen.ts), 229 lines for a 30-row pane,
// though a chunk of 40k lines pushes every one of them into the history anyway. That fixed
// part was most of a chunk's cost: ~4 ms before V8 has optimised xterm's parser (a fresh
// server's first flood parses ~35 chunks), 0.7 ms after. Shed, the emulator's scrollback
// leaves for the history at once, in order, as it would have line by line, and a chunk parses
// only a screenful; once the pane is quiet the emulator takes full-width lines again (the
// history keeps what left, as it keeps everything older). Part of the door to @xterm/headless
// (xterm.ts): it sets xterm's private line list as xterm's own resize does, and does nothing
// when that list is not the expected shape.

import type { Terminal as XTerminal } from './xterm.js';

interface ShedBuffer {
  ybase: number;
  ydisp: number;
  savedY: number;
  lines?: { length: number; maxLength: number; trimStart(n: number): void };
}

const normalBuffer = (term: XTerminal): ShedBuffer | undefined => {
  const b = (term as unknown as { _core?: { _bufferService?: { buffers?: { normal?: ShedBuffer } } } })._core?._bufferService?.buffers?.normal;
  return b && typeof b.ybase === 'number' && typeof b.ydisp === 'number' && typeof b.savedY === 'number' && typeof b.lines?.trimStart === 'function'
    ? b
    : undefined;
};

/**
 * The normal buffer's scrollback leaves it now (through trimStart, which the scrollback tap
 * hands to the history) and it holds the screen's rows only, until heldAgain(). Returns
 * whether it did (false: nothing to shed, or not the expected shape).
 */
export function shedScrollback(term: XTerminal): boolean {
  const b = normalBuffer(term);
  const lines = b?.lines;
  if (!b || !lines || lines.maxLength <= term.rows) return false;
  // As xterm's Buffer.resize trims a scrollback it no longer keeps.
  const excess = lines.length - term.rows;
  if (excess > 0) {
    lines.trimStart(excess);
    b.ybase = Math.max(b.ybase - excess, 0);
    b.ydisp = Math.max(b.ydisp - excess, 0);
    b.savedY = Math.max(b.savedY - excess, 0);
  }
  lines.maxLength = term.rows;
  return true;
}

/** The normal buffer keeps `scrollback` lines above the screen again (from now on: none come back). */
export function heldAgain(term: XTerminal, scrollback: number): void {
  const lines = normalBuffer(term)?.lines;
  const want = term.rows + scrollback;
  // (A resize since the shed already grew it back.)
  if (lines && lines.maxLength < want) lines.maxLength = want;
}
