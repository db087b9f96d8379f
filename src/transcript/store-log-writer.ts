// Writing the transcript log (`transcript.jsonl`, format in store-log.ts): a new log with
// its header, the header of a log left empty, and the buffered appender that fsyncs only at
// sync points (turn ends, handoffs).
// It must never rewrite, truncate or reorder the file. The one exception is its own append
// that failed part-way (a full disk): those bytes are taken back, so the log still ends
// with its last whole entry, and the writer refuses every later append rather than leave
// a silent gap in the seqs.

import { closeSync, fdatasyncSync, fstatSync, ftruncateSync, writeSync } from 'node:fs';
import { notePath } from '../fs-failure.js';
import { openPrivate } from './store-home.js';
import type { LogHeader } from './store-log.js';
import type { Entry } from './types.js';

/** The line an entry is stored as. An unknown entry goes back out exactly as it was read. */
export function entryLine(e: Entry): string {
  return JSON.stringify(e.kind === 'unknown' ? e.raw : e);
}

export const headerLine = (h: LogHeader) => JSON.stringify(h);

/** Creates a new log holding only the header, durably. Fails if the file exists. */
export function createLog(path: string, header: LogHeader): void {
  const fd = openPrivate(path, 'wx');
  try {
    writeAll(fd, Buffer.from(headerLine(header) + '\n'));
    fdatasyncSync(fd);
  } catch (e) {
    throw notePath(e, path);
  } finally {
    closeSync(fd);
  }
}

/**
 * Gives a log that holds no line yet (read as `empty`: a file left at zero bytes) its
 * header, durably, before a writer appends the first entry after it. Appends only.
 */
export function appendHeader(path: string, header: LogHeader, opts: { endsWithNewline: boolean }): void {
  const fd = openPrivate(path, 'a');
  try {
    writeAll(fd, Buffer.from((opts.endsWithNewline ? '' : '\n') + headerLine(header) + '\n'));
    fdatasyncSync(fd);
  } catch (e) {
    throw notePath(e, path);
  } finally {
    closeSync(fd);
  }
}

const FLUSH_BYTES = 1024 * 1024;

/**
 * Appends entry lines to an existing log. Lines are buffered and written in one go at the
 * next sync point, when the buffer grows past 1 MiB, or at the end of the current event
 * loop turn, so a streamed turn costs a few writes instead of one per entry, and a
 * crash of baton (not of the machine) loses nothing that was handed over.
 */
export class LogWriter {
  private fd: number | undefined;
  private pending: string[] = [];
  private pendingBytes = 0;
  private scheduled = false;
  private needsNewline: boolean;
  /** Set by the first write that failed; every later append, sync and close throws it. */
  private failure: unknown;

  constructor(
    private readonly path: string,
    opts: { endsWithNewline: boolean },
  ) {
    this.fd = openPrivate(path, 'a');
    this.needsNewline = !opts.endsWithNewline;
  }

  get closed() {
    return this.fd === undefined;
  }

  append(entries: readonly Entry[], sync: boolean): void {
    this.check();
    for (const e of entries) {
      const line = entryLine(e) + '\n';
      this.pending.push(line);
      this.pendingBytes += line.length;
    }
    if (sync) this.sync();
    else if (this.pendingBytes >= FLUSH_BYTES) this.flush();
    else if (!this.scheduled && this.pending.length) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        try {
          this.flush();
        } catch (e) {
          // Nobody is on the stack to catch it; the next append, sync or close rethrows it.
          this.failure = e;
        }
      });
    }
  }

  /** Hands buffered lines to the OS (survives a crash of this process, not of the machine). */
  flush(): void {
    if (this.fd === undefined || !this.pending.length) return;
    this.check();
    let text = this.pending.join('');
    // After a torn last line the next entry must not be glued onto the fragment.
    if (this.needsNewline) text = '\n' + text;
    this.pending = [];
    this.pendingBytes = 0;
    const size = fstatSync(this.fd).size;
    try {
      writeAll(this.fd, Buffer.from(text));
    } catch (e) {
      this.fail(e, size);
    }
    this.needsNewline = false;
  }

  /** Flushes and fsyncs: everything appended so far is on disk when this returns. */
  sync(): void {
    this.check();
    this.flush();
    if (this.fd === undefined) return;
    try {
      fdatasyncSync(this.fd);
    } catch (e) {
      this.fail(e);
    }
  }

  /** Syncs and closes; the descriptor is closed even when the sync fails (which is thrown). */
  close(): void {
    if (this.fd === undefined) return;
    try {
      this.sync();
    } finally {
      closeSync(this.fd);
      this.fd = undefined;
    }
  }

  /**
   * A write that failed (a full disk, an I/O error): the bytes it got onto the file are
   * taken back (the log ends with its last whole entry, no torn line), and the writer
   * stays failed, so no later entry lands after a gap.
   */
  private fail(e: unknown, size?: number): never {
    if (size !== undefined && this.fd !== undefined) {
      try {
        ftruncateSync(this.fd, size);
      } catch {
        // Best effort: a fragment left behind reads as a torn line, reported on load.
      }
    }
    this.failure = notePath(e, this.path);
    throw this.failure;
  }

  private check() {
    if (this.failure !== undefined) throw this.failure;
    if (this.fd === undefined) throw new Error('transcript log is closed');
  }
}

function writeAll(fd: number, buf: Buffer) {
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
}
