// Reads what a program has written to its PTY while the pane is busy parsing, so a flooding
// program is not held up by the parse. The kernel keeps only ~64 KB of a PTY's output unread
// (a few ms of `seq`), and node-pty's reader runs only between turns of the event loop: a
// parse of a few ms, or a frame, filled that buffer and the program blocked until the next
// turn (each bench round's flood, on a fresh server whose code V8 has not optimised yet,
// spent a fifth of its time so). Between the pieces of a parse the pane calls drain(), which
// reads the master fd directly (non-blocking: it never waits) and hands the text on as if
// node-pty had read it. Bounded by the caller (it stops at what its read-ahead may hold).
//
// Order and decoding stay node-pty's: it reads only while node-pty's stream is flowing with
// nothing buffered (so nothing read before is still to come), and decodes with that
// stream's own UTF-8 decoder (a character split across reads is joined either way). It
// reads nothing once the stream is paused (the pane holds it back), closed (the fd may be
// another file's by then) or saw an error; where node-pty is not the expected shape it does
// nothing at all. Part of pane.ts's door to node-pty.

import { readSync } from 'node:fs';

/** node-pty's read stream, as far as this reads it (Node's Readable and net.Socket). */
interface PtyStream {
  readonly readableFlowing: boolean | null;
  readonly readableLength: number;
  readonly destroyed: boolean;
  readonly _handle?: unknown;
  readonly _readableState?: { decoder?: { write(b: Buffer): string } | null };
}

/** A PTY read returns at most a page (4 KB on Linux): a few of them fit. */
const READ_SIZE = 16 * 1024;

export class PtyDrain {
  private readonly fd: number | undefined;
  private readonly stream: PtyStream | undefined;
  private buf: Buffer | undefined;
  private stopped = false;

  /**
   * `pty`: node-pty's handle (IPty), read by its shape alone: taken as an object so this
   * module need not import pane.ts, which imports it.
   */
  constructor(pty: object) {
    const p = pty as unknown as { _fd?: unknown; _socket?: PtyStream };
    const s = p._socket;
    const ok = typeof p._fd === 'number' && !!s && typeof s._readableState?.decoder?.write === 'function';
    this.fd = ok ? (p._fd as number) : undefined;
    this.stream = ok ? s : undefined;
  }

  /**
   * Reads what waits in the PTY now, up to about `max` characters, each read handed to
   * `deliver` decoded; returns the characters delivered (0 when nothing waited or it may not
   * read now).
   */
  drain(max: number, deliver: (data: string) => void): number {
    const s = this.stream;
    if (this.stopped || this.fd === undefined || !s) return 0;
    let got = 0;
    while (got < max) {
      // Closed: its fd is closed and its number may be another file's.
      if (s.destroyed || !s._handle) {
        this.stopped = true;
        break;
      }
      if (s.readableFlowing !== true || s.readableLength > 0) break;
      const decoder = s._readableState?.decoder;
      if (!decoder) break;
      this.buf ??= Buffer.allocUnsafe(READ_SIZE);
      let n: number;
      try {
        n = readSync(this.fd, this.buf, 0, READ_SIZE, null);
      } catch (e) {
        // EAGAIN: nothing more now. EIO and friends: the program's side is closed; node-pty's
        // own reader sees it too and reports the end (the pane hears the exit from it).
        if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') this.stopped = true;
        break;
      }
      if (n <= 0) {
        this.stopped = true;
        break;
      }
      const text = decoder.write(this.buf.subarray(0, n));
      got += text.length;
      if (text.length > 0) deliver(text);
    }
    return got;
  }

  /** Reads nothing more (the pane is going away). */
  dispose(): void {
    this.stopped = true;
    this.buf = undefined;
  }
}
