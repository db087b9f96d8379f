// Lines of a pane's scrollback taken as xterm drops them (ScrollbackTap), so history.ts can
// keep more than xterm does. Part of the door to @xterm/headless (xterm.ts): it wraps the
// methods of xterm's private line list, and nothing outside these xterm*.ts files does.

import type { Terminal as XTerminal } from './xterm.js';
import { snapshotLine, type HeldLine, type InternalLine, type RawLine } from './xterm-lines.js';

interface CircularList {
  readonly length: number;
  readonly maxLength: number;
  get(i: number): unknown;
  push(...a: unknown[]): unknown;
  recycle(...a: unknown[]): unknown;
  splice(...a: unknown[]): unknown;
  shiftElements(...a: unknown[]): unknown;
  trimStart(...a: unknown[]): unknown;
}

/**
 * Line objects kept for reuse per pane; beyond this they are left to the GC. A flood past
 * MAX_PENDING_HISTORY gives back one line for each it takes, so a few suffice; the rest sat
 * idle (256 a pane held 2.4 MB for 8 panes of 100 columns).
 */
const POOL_MAX = 64;

const normalLines = (term: XTerminal): CircularList | undefined =>
  (term as unknown as { _core?: { _bufferService?: { buffers?: { normal?: { lines?: CircularList } } } } })._core?._bufferService?.buffers?.normal?.lines;

/**
 * Hands over each line of the normal screen's scrollback just before xterm drops it, so it
 * can be kept elsewhere: xterm overwrites a dropped line in place, so this wraps the methods
 * of its (private) line list that drop lines. `erase` is called instead when the program
 * erased the scrollback (ED 3, `clear`). Returns undefined when this xterm's internals are
 * not the expected shape; the caller then keeps all scrollback in xterm.
 */
export class ScrollbackTap {
  private list: CircularList | undefined;
  private erasing = false;
  /** Line objects given back (history evicted or compacted them), for xterm to reuse. */
  private pool: InternalLine[] = [];

  private constructor(
    private readonly term: XTerminal,
    private readonly onDrop: (line: RawLine | HeldLine) => void,
    private readonly onErase: () => void,
  ) {}

  /** A held line the history no longer needs: xterm gets it back for a new line. */
  release(h: HeldLine): void {
    if (this.pool.length < POOL_MAX) this.pool.push(h.line);
  }

  /** Lets the pooled lines go (the pane is quiet: a flood primes the pool again as it starts). */
  emptyPool(): void {
    this.pool = [];
  }

  static attach(term: XTerminal, onDrop: (line: RawLine | HeldLine) => void, onErase: () => void): ScrollbackTap | undefined {
    const list = normalLines(term);
    const methods = ['push', 'recycle', 'splice', 'shiftElements', 'trimStart', 'get'] as const;
    if (!list || !methods.every((m) => typeof list[m] === 'function') || typeof list.maxLength !== 'number') return undefined;
    const probe = list.get(0) as Partial<InternalLine> | undefined;
    if (!probe || !(probe._data instanceof Uint32Array) || typeof probe._combined !== 'object' || typeof probe.getTrimmedLength !== 'function')
      return undefined;
    const tap = new ScrollbackTap(term, onDrop, onErase);
    // ED 3 clears the scrollback through trimStart; those lines are erased, not archived.
    term.parser.registerCsiHandler({ final: 'J' }, (params) => {
      if (params[0] === 3) {
        tap.erasing = true;
        onErase();
      }
      return false;
    });
    tap.ensure();
    return tap;
  }

  /** Re-wrap after a reset replaced the list (RIS builds a new one, and scrollback is gone then). */
  ensure(): void {
    const list = normalLines(this.term);
    if (!list || list === this.list) return;
    if (this.list) this.onErase();
    this.list = list;
    const drop = (n: number) => {
      for (let i = 0; i < Math.min(n, list.length); i++) this.onDrop(snapshotLine(list.get(i) as InternalLine));
    };
    const wrap = (name: 'push' | 'recycle' | 'splice' | 'shiftElements' | 'trimStart', trimmed: (...a: number[]) => number) => {
      const orig = list[name].bind(list) as (...a: unknown[]) => unknown;
      (list as unknown as Record<string, unknown>)[name] = (...a: unknown[]) => {
        if (name === 'trimStart' && this.erasing) this.erasing = false;
        else drop(trimmed(...(a as number[])));
        return orig(...a);
      };
    };
    wrap('push', () => (list.length === list.maxLength ? 1 : 0));
    // The flood path (every line scrolled out of a full buffer): take xterm's line object
    // itself and put a pooled one in its slot, so xterm blanks that one instead. No copy, and
    // no allocation once the pool is primed by the history giving lines back.
    const l = list as unknown as { _array?: unknown[]; _startIndex?: number; recycle(): unknown };
    if (Array.isArray(l._array) && typeof l._startIndex === 'number') {
      const recycle = l.recycle.bind(l);
      l.recycle = () => {
        const slot = l._startIndex! % list.maxLength;
        const old = l._array![slot] as InternalLine;
        l._array![slot] = this.pool.pop() ?? old.clone();
        this.onDrop({ kind: 'held', line: old });
        return recycle();
      };
    } else {
      wrap('recycle', () => 1);
    }
    wrap('splice', (_start, deleteCount, ...items) => list.length - (deleteCount ?? 0) + items.length - list.maxLength);
    wrap('shiftElements', (start, count, offset) => (offset! > 0 ? start! + count! + offset! - list.maxLength : 0));
    wrap('trimStart', (n) => Math.min(n!, list.length));
  }

  /** End of a parse: an ED 3 that trimmed nothing must not swallow a later trim. */
  settle(): void {
    this.erasing = false;
  }
}
