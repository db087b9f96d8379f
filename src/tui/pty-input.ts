// Keystrokes and pastes into a PTY, in order. node-pty's own writer goes through libuv's
// thread pool (fs.write) for every keystroke, which on a busy machine adds milliseconds to
// each echo; this writes to the master fd directly. The fd is non-blocking: what the kernel
// does not take now (a large paste) is retried shortly. It never reads the PTY.

import { writeSync } from 'node:fs';

/**
 * What this takes of node-pty's handle: its writer, used where the build exposes no `fd`.
 * Stated here, not imported from pane.ts (node-pty's one door), which imports this module.
 */
export interface PtyWriter {
  write(data: string): void;
}

export class PtyInput {
  private queue: Buffer[] = [];
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly fd: number | undefined;

  constructor(private readonly pty: PtyWriter) {
    const fd = (pty as unknown as { fd?: unknown }).fd;
    this.fd = typeof fd === 'number' ? fd : undefined;
  }

  write(data: string): void {
    if (this.closed) return;
    // Without a file descriptor (another node-pty build), node-pty's own writer it is.
    if (this.fd === undefined) return this.pty.write(data);
    this.queue.push(Buffer.from(data, 'utf8'));
    if (this.queue.length === 1) this.flush(this.fd);
  }

  private flush(fd: number): void {
    this.timer = undefined;
    while (this.queue.length > 0 && !this.closed) {
      const buf = this.queue[0]!;
      let n: number;
      try {
        n = writeSync(fd, buf);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EAGAIN') {
          this.timer = setTimeout(() => this.flush(fd), 2);
          return;
        }
        // EIO and friends: the program is gone; its exit is reported by the pane.
        this.queue = [];
        return;
      }
      if (n < buf.length) this.queue[0] = buf.subarray(n);
      else this.queue.shift();
    }
  }

  dispose(): void {
    this.closed = true;
    this.queue = [];
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
