// A flood's output is read ahead of parsing, a few milliseconds' worth at a time, so the
// emulator parses it in large chunks: in a large chunk almost every line scrolls past unseen
// and is never parsed (flood-lines.ts), where a PTY read (4 KB on Linux) is ~600 lines of
// `seq`, of which the emulator must parse the last ~230 it can hold. Reading goes on while
// bytes wait, so the program is not held up. Bounded: past MAX_READ_AHEAD the bytes are parsed
// at once, and while that runs at most MAX_READ_AHEAD more are read (between its pieces, in
// the pane drawn), then nothing: the kernel's buffer fills and the program blocks. A short read (a keystroke's echo, a prompt, the end of a burst) is
// parsed at once with whatever waits before it, so nothing interactive waits; but once a
// flood has SUSTAINED characters waiting, a short read is mostly the reader catching up with
// the program for a moment (on a busy machine, many times a second), so it waits for the
// timer with the rest: each parse costs the emulator the screenful it holds whatever its
// size, so parsing at every catch-up cost more than the flood's bytes did. Just before a
// parse it tops up with what the program has written meanwhile (`read`: PtyDrain), and what
// arrives while a parse runs (read between its pieces) waits for the next one, right after it
// when it ends with a short read as above, else for the timer. Owns one timer
// and the bytes waiting; it knows nothing of what it parses.

/** A read at least this long is part of a flood: it waits for more. */
export const FLOOD_READ = 2048;
/**
 * How long a flood's bytes may wait for more, out of sight: half a frame at 60 frames a second.
 * (A frame halves the parses of a flood but doubles each: a neighbour tab's flood then held
 * an ACP card back, p95 at a turn's start 12.8 ms against 8.9.)
 */
export const READ_AHEAD_MS = 8;
/** The same for the pane drawn (in front): a frame, as often as what is drawn changes. */
export const SHOWN_READ_AHEAD_MS = 16;
/** Characters waiting past which a short read no longer ends the wait: a flood is under way. */
export const SUSTAINED = 32 * 1024;
/** Characters read ahead past which they are parsed at once. */
export const MAX_READ_AHEAD = 256 * 1024;

export class ReadAhead {
  private chunks: string[] = [];
  private size = 0;
  private timer: NodeJS.Timeout | undefined;
  private disposed = false;
  /** A parse runs: what is taken now waits (for the timer), never parsed inside it. */
  private busy = false;
  /** What was taken during the parse that runs ends with a short read, little before it. */
  private soon = false;
  /** How long a flood's bytes wait (READ_AHEAD_MS, or SHOWN_READ_AHEAD_MS for the pane drawn). */
  waitMs = READ_AHEAD_MS;

  /**
   * `read(room)`, when given, reads what the program has written and not been read yet, up
   * to about `room` characters, into take(): called before each parse of what waits.
   */
  constructor(
    private readonly parse: (data: string) => void,
    private readonly read?: (room: number) => void,
  ) {}

  /** Characters that may still be read ahead before what waits must be parsed. */
  get room(): number {
    return Math.max(0, MAX_READ_AHEAD - this.size);
  }

  /** Characters read and not parsed yet. */
  get waiting(): number {
    return this.size;
  }

  /** Bytes read from the PTY, in order. */
  take(data: string): void {
    if (this.disposed) return;
    if (this.busy) {
      this.queue(data);
      this.soon = data.length < FLOOD_READ && this.size - data.length < SUSTAINED;
      return;
    }
    if (this.size === 0 && data.length < FLOOD_READ) {
      this.run(data);
      return;
    }
    this.queue(data);
    if ((data.length < FLOOD_READ && this.size - data.length < SUSTAINED) || this.size >= MAX_READ_AHEAD) this.flush();
  }

  /** Parses whatever waits, now (before a resize or the exit, which must come after it). */
  flush(): void {
    if (this.busy || this.disposed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.size === 0) return;
    this.busy = true;
    try {
      this.read?.(this.room);
    } finally {
      this.busy = false;
    }
    const data = this.chunks.length === 1 ? this.chunks[0]! : this.chunks.join('');
    this.chunks = [];
    this.size = 0;
    this.run(data);
  }

  private queue(data: string): void {
    this.chunks.push(data);
    this.size += data.length;
    this.timer ??= setTimeout(() => this.flush(), this.waitMs);
  }

  private run(data: string): void {
    this.busy = true;
    this.soon = false;
    try {
      this.parse(data);
    } finally {
      this.busy = false;
    }
    // What was read during the parse ended with a short read (the program paused): it is
    // parsed right after, as a short read is, not a frame later.
    if (this.soon && this.size > 0 && !this.disposed) {
      this.soon = false;
      if (this.timer) clearTimeout(this.timer);
      this.timer = setTimeout(() => this.flush(), 0);
    }
  }

  /** Drops what waits: the pane is going away. */
  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.chunks = [];
    this.size = 0;
  }
}
