// Incremental tail of a growing line-oriented log (a CLI's own JSONL session log): reads
// from the last offset only, never the whole file again, driven by chokidar. Tolerates a
// partial last line (a writer mid-append) by holding it back until its newline arrives,
// and a truncated or replaced file by starting over from the top. Never writes the log.

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { watchPath, type PathWatcher } from './watch-path.js';

const CHUNK = 64 * 1024;
const NEWLINE = 0x0a;
/**
 * chokidar drops a 'change' that comes within 50 ms of the previous one for the same path
 * (it throttles without a trailing event), so every event also schedules one more read
 * just after that window: the last append of a burst is never left unread.
 */
const TRAILING_READ_MS = 75;
const YIELD_EVERY = 16;

export interface TailLinesOptions {
  /** Byte offset to start at: 0 for the whole file, or a saved `offset` to continue. */
  from?: number;
  /** One complete line (without its newline); `end` is the offset just after it. */
  onLine(line: string, end: number): void;
  /** The file shrank or was replaced; reading restarts at offset 0. */
  onReset?(): void;
  /** Follow changes with chokidar (default true). Without it, call `poll()`. */
  watch?: boolean;
  /** A read that failed (or an `onLine` that threw) while following changes. */
  onError?(error: Error): void;
}

export interface LogTail {
  readonly path: string;
  /** Offset just after the last complete line delivered: save it to continue later. */
  readonly offset: number;
  /** Read whatever was appended since the last read. */
  poll(): Promise<void>;
  dispose(): Promise<void>;
}

class Tail implements LogTail {
  readonly path: string;
  private readPos: number;
  private pending: Buffer = Buffer.alloc(0);
  private ino: number | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private watcher: PathWatcher | undefined;
  private trailing: NodeJS.Timeout | undefined;
  private disposed = false;
  private readonly opts: TailLinesOptions;

  constructor(path: string, opts: TailLinesOptions) {
    this.path = path;
    this.opts = opts;
    this.readPos = opts.from ?? 0;
  }

  get offset(): number {
    return this.readPos - this.pending.length;
  }

  start(): void {
    if (this.opts.watch === false) return;
    const read = () => void this.poll().catch((err) => this.opts.onError?.(err as Error));
    this.watcher = watchPath(this.path, { dir: false }, (event) => {
      if (event !== 'add' && event !== 'change') return;
      read();
      if (this.trailing) clearTimeout(this.trailing);
      this.trailing = setTimeout(read, TRAILING_READ_MS);
    });
  }

  async ready(): Promise<void> {
    await this.watcher?.ready;
  }

  // Reads are serialized: a change that lands during a read schedules exactly one more.
  poll(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.readMore();
      } while (this.again && !this.disposed);
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private reset(): void {
    this.readPos = 0;
    this.pending = Buffer.alloc(0);
    this.opts.onReset?.();
  }

  // Synchronous reads in 64 KiB chunks, yielding to the event loop every 1 MiB: an append
  // of a few records costs microseconds instead of queueing behind the libuv thread pool,
  // and a large first read never blocks the loop for long.
  private async readMore(): Promise<void> {
    let fd: number;
    try {
      fd = openSync(this.path, 'r');
    } catch {
      return; // not there (yet, or any more): a later 'add' brings us back
    }
    try {
      const st = fstatSync(fd);
      if (this.ino !== undefined && st.ino !== this.ino) this.reset();
      else if (st.size < this.readPos) this.reset();
      this.ino = st.ino;
      const buf = Buffer.allocUnsafe(CHUNK);
      for (let n = 1; !this.disposed; n++) {
        const bytesRead = readSync(fd, buf, 0, CHUNK, this.readPos);
        if (bytesRead === 0) break;
        this.readPos += bytesRead;
        this.consume(buf.subarray(0, bytesRead));
        if (n % YIELD_EVERY === 0) await new Promise((r) => setImmediate(r));
      }
    } finally {
      closeSync(fd);
    }
  }

  // Split on newline bytes, not characters: a UTF-8 sequence cut by a read boundary stays
  // in `pending` with the rest of its line.
  private consume(chunk: Buffer): void {
    const data = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    const base = this.readPos - data.length;
    let start = 0;
    for (let i = data.indexOf(NEWLINE); i !== -1; i = data.indexOf(NEWLINE, start)) {
      let end = i;
      if (end > start && data[end - 1] === 0x0d) end--;
      if (end > start) this.opts.onLine(data.toString('utf8', start, end), base + i + 1);
      start = i + 1;
    }
    this.pending = Buffer.from(data.subarray(start));
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    if (this.trailing) clearTimeout(this.trailing);
    await this.watcher?.close();
    await this.running;
  }
}

/** Follow the lines appended to `path`. Reads what is already there past `from` first. */
export async function tailLines(path: string, opts: TailLinesOptions): Promise<LogTail> {
  const t = new Tail(path, opts);
  t.start();
  await t.ready();
  await t.poll();
  return t;
}

export interface TailJsonlOptions {
  from?: number;
  /** One parsed record; `end` is the offset just after its line. */
  onRecord(record: unknown, end: number): void;
  /** A line that is not JSON: skipped, reported here. */
  onInvalid?(line: string, error: Error, end: number): void;
  onReset?(): void;
  watch?: boolean;
  onError?(error: Error): void;
}

/** Follow a JSONL log: one JSON value per line, unparseable lines skipped and reported. */
export function tailJsonl(path: string, opts: TailJsonlOptions): Promise<LogTail> {
  return tailLines(path, {
    from: opts.from,
    onReset: opts.onReset,
    onError: opts.onError,
    watch: opts.watch,
    onLine(line, end) {
      let record: unknown;
      try {
        record = JSON.parse(line);
      } catch (err) {
        opts.onInvalid?.(line, err as Error, end);
        return;
      }
      opts.onRecord(record, end);
    },
  });
}
