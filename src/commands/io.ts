// Where commands write and what they read of their surroundings, so a test can run a
// command in-process and read what it printed. terminalSafe() is the one door to the
// user's terminal: main() wraps whatever Io it is given with it, so no string from a
// transcript, a plugin or an agent CLI reaches stdout or stderr with its control
// characters, whichever command printed it.

import { stripControls } from '../transcript/sanitize.js';

export interface Io {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  columns?: number;
  /** All of standard input, when the command may read it (a message piped to `baton chat`). */
  readStdin?(): Promise<Buffer>;
  /** Standard input is a terminal (nothing was piped). */
  stdinIsTTY?: boolean;
  /**
   * Present when standard error is a terminal: shows `line` as the one status line, redrawn
   * in place (a progress bar); '' clears it. Callers without it print progress as lines.
   */
  status?(line: string): void;
}

/**
 * The process's stdout and stderr. A reader that goes away (`baton transcript list | head
 * -3`) makes the next write fail with EPIPE: from then on that stream's output is dropped
 * and the command ends as it would have, quietly, instead of dying on an unhandled
 * 'error' event with a stack trace.
 */
export function processIo(): Io {
  const out = quietOnEpipe(process.stdout);
  const err = quietOnEpipe(process.stderr);
  return {
    out,
    err,
    env: process.env,
    cwd: process.cwd(),
    columns: process.stdout.columns,
    stdinIsTTY: process.stdin.isTTY === true,
    ...(process.stderr.isTTY ? { status: (line: string) => err(`\r\x1b[K${line}`) } : {}),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const c of process.stdin) chunks.push(c as Buffer);
      return Buffer.concat(chunks);
    },
  };
}

function quietOnEpipe(stream: NodeJS.WriteStream): (text: string) => void {
  let gone = false;
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    gone = true;
  });
  return (text) => {
    if (!gone) stream.write(text);
  };
}

/** An Io that keeps what was printed, for tests and for callers that want the text. */
export function bufferIo(env: NodeJS.ProcessEnv, cwd: string, stdin?: string | Buffer): Io & { stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  return {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    env,
    cwd,
    columns: 100,
    stdinIsTTY: stdin === undefined,
    ...(stdin !== undefined ? { readStdin: async () => Buffer.from(stdin) } : {}),
    stdout: () => out,
    stderr: () => err,
  };
}

/**
 * The same Io, printing only what cannot act on a terminal: escape sequences and C0/C1
 * control characters (ESC, BEL, NUL, CSI 0x9b, CR, ...) are removed, newlines and tabs
 * kept (stripControls). baton's own output never needs one; a title, an author, a model
 * name, a driver's version string or an agent's text might carry one.
 */
export function terminalSafe(io: Io): Io {
  return {
    ...io,
    out: (t) => io.out(stripControls(t)),
    err: (t) => io.err(stripControls(t)),
    // The status line's own redraw is the one control sequence baton writes; its text is stripped.
    ...(io.status ? { status: (t: string) => io.status!(stripControls(t)) } : {}),
  };
}

const RAW_CONTROLS = /[\u007f-\u009f]/g;

/**
 * JSON for stdout that terminalSafe() passes unchanged: JSON.stringify escapes C0 controls
 * itself but writes DEL and C1 (0x9b is a CSI to many terminals) raw; they are written as
 * \u escapes instead, which any JSON reader turns back into the same string.
 */
export function jsonText(value: unknown, space?: number): string {
  return (JSON.stringify(value, null, space) ?? 'null').replace(RAW_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
