// Where `baton chat` takes the message from: the argument, a file (`--file PATH`), or
// standard input (`-`, or a pipe with no argument). A long message never has to be put on the
// command line (Linux refuses one argv string over 128 KiB with E2BIG, and `ps` shows argv to
// every user of the machine). The bytes must be UTF-8; an empty message is refused.
// It reads; it never writes.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { badInput } from '../errors.js';
import type { Io } from './io.js';
import { requireUtf8, requireUtf8Arg } from './utf8-input.js';

/** Larger messages are refused rather than read into memory whole. */
export const MESSAGE_MAX_BYTES = 64 * 1024 * 1024;

export interface MessageSource {
  prompt?: string;
  file?: string;
}

function fromBytes(buf: Buffer, what: string): string {
  if (buf.length > MESSAGE_MAX_BYTES)
    throw badInput(
      `${what} is ${buf.length} bytes, over baton's ${MESSAGE_MAX_BYTES}-byte limit for one message`,
      'send it in parts, or put it in a file the agent reads',
    );
  requireUtf8(buf, what);
  return buf.toString('utf8');
}

function readFile(path: string, cwd: string): Buffer {
  try {
    return readFileSync(resolve(cwd, path));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : (e as Error).message;
    throw badInput(`cannot read the message from --file ${path}: ${why}`, 'give the path of a readable file, or - for standard input');
  }
}

/** The message to send, from wherever it was given. */
export async function readMessage(given: MessageSource, io: Io): Promise<string> {
  // yargs hands a `-` argument over as '' (and an empty argument says nothing either): both
  // mean "no message here", so a pipe is read (a terminal is not: that is no message at all).
  const dash = given.prompt === '' || given.prompt === '-';
  const src: MessageSource = { ...given, ...(dash ? { prompt: undefined } : {}) };
  const fromStdin = src.file === '-' || (dash && !io.stdinIsTTY);
  if (src.prompt !== undefined && src.file !== undefined) {
    throw badInput('the message was given twice (an argument and --file)', 'give it once: as an argument, with --file PATH, or on standard input');
  }
  let text: string;
  if (fromStdin || (src.prompt === undefined && src.file === undefined)) {
    if (!fromStdin && (!io.readStdin || io.stdinIsTTY)) {
      throw badInput('no message to send', 'give it as an argument, with --file PATH, or on standard input (`-`)');
    }
    if (!io.readStdin) throw badInput('no standard input to read the message from', 'give it as an argument or with --file PATH');
    text = fromBytes(await io.readStdin(), 'the message on standard input');
  } else if (src.file !== undefined) {
    text = fromBytes(readFile(src.file, io.cwd), `the message in ${src.file}`);
  } else {
    requireUtf8Arg(src.prompt!, 'the message');
    text = src.prompt!;
  }
  if (!text.trim()) throw badInput('the message is empty; nothing was sent', 'write something to send');
  return text;
}
