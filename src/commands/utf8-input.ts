// Input that must be UTF-8 (a message to send): bytes that are not are refused with exit 2
// naming where, instead of being replaced by U+FFFD and carried into the transcript, the
// brief and every export. Node decodes argv as UTF-8 and replaces such bytes silently;
// on Linux /proc/self/cmdline still holds the bytes as they were given.
// It must never refuse valid text, U+FFFD typed on purpose included.

import { isUtf8 } from 'node:buffer';
import { badInput } from '../errors.js';
import { cmdlineBytes } from '../proc/index.js';

/** The byte offset of the first byte that is not part of valid UTF-8, or -1. */
export function firstInvalidUtf8(buf: Uint8Array): number {
  if (isUtf8(buf)) return -1;
  for (let i = 0; i < buf.length; ) {
    const b = buf[i]!;
    const n = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (n === 0 || i + n > buf.length || !isUtf8(buf.subarray(i, i + n))) return i;
    i += n;
  }
  return -1;
}

/** Throws exit 2 when buf is not UTF-8, naming `what` and the first bad byte. */
export function requireUtf8(buf: Uint8Array, what: string): void {
  const at = firstInvalidUtf8(buf);
  if (at < 0) return;
  const byte = buf[at]!.toString(16).toUpperCase().padStart(2, '0');
  throw badInput(
    `${what} is not valid UTF-8 (byte 0x${byte} at byte ${at}); nothing was sent`,
    'convert it to UTF-8 first (for example: iconv -f LATIN1 -t UTF-8) and send it again',
  );
}

/**
 * The bytes `value` was given as on this process's command line, when Node replaced some
 * of them (the value holds U+FFFD and a raw argument decodes to it); undefined otherwise,
 * and wherever /proc/self/cmdline cannot be read.
 */
export function rawArgBytes(value: string): Buffer | undefined {
  if (!value.includes('\uFFFD')) return undefined;
  for (const arg of cmdlineBytes('self') ?? []) {
    if (!isUtf8(arg) && arg.toString('utf8') === value) return arg;
  }
  return undefined;
}

/** Throws exit 2 when the command-line argument `value` was not UTF-8 as given. */
export function requireUtf8Arg(value: string, what: string): void {
  const raw = rawArgBytes(value);
  if (raw) requireUtf8(raw, what);
}
