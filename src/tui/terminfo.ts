// Reads a compiled terminfo entry (term(5): the legacy 16-bit and the ncurses 6 32-bit
// format, with the extended capabilities such as Tc, RGB, Smulx) for the few facts the
// renderer asks about the terminal the user sits at. blessed cannot read the 32-bit format
// that Debian 12 ships, so this is baton's own reader. It only reads files; a missing,
// unreadable or malformed entry is `undefined`, never an error.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Terminfo {
  names: string[];
  /** Capabilities by short name: booleans true, numbers as numbers, strings as their raw bytes. */
  caps: Map<string, boolean | number | string>;
}

const MAGIC_16 = 0o432;
const MAGIC_32 = 0o1036;

/** The standard capabilities baton asks about, at their fixed index in the compiled entry. */
const STD_NUMBERS: Record<number, string> = { 13: 'colors' };
const STD_STRINGS: Record<number, string> = { 30: 'dim', 311: 'sitm' };

/** Where ncurses looks for an entry, in its order. */
export function terminfoDirs(env: NodeJS.ProcessEnv): string[] {
  const dirs: string[] = [];
  if (env.TERMINFO) dirs.push(env.TERMINFO);
  if (env.HOME) dirs.push(join(env.HOME, '.terminfo'));
  for (const d of (env.TERMINFO_DIRS ?? '').split(':')) dirs.push(d || '/usr/share/terminfo');
  dirs.push('/etc/terminfo', '/lib/terminfo', '/usr/share/terminfo', '/usr/lib/terminfo');
  return [...new Set(dirs)];
}

/** The entry for `term` from the first directory that has it, or undefined. */
export function readTerminfo(term: string, env: NodeJS.ProcessEnv): Terminfo | undefined {
  // A name with a path separator could read any file; terminfo names never have one.
  if (!term || term.includes('/') || term.startsWith('.')) return undefined;
  for (const dir of terminfoDirs(env)) {
    for (const sub of [term[0]!, term.charCodeAt(0).toString(16)]) {
      let buf: Buffer;
      try {
        buf = readFileSync(join(dir, sub, term));
      } catch {
        continue;
      }
      return parseTerminfo(buf);
    }
  }
  return undefined;
}

/** Parse a compiled entry; undefined when it is not one. */
export function parseTerminfo(buf: Buffer): Terminfo | undefined {
  try {
    return parse(buf);
  } catch {
    return undefined;
  }
}

function parse(buf: Buffer): Terminfo | undefined {
  if (buf.length < 12) return undefined;
  const magic = buf.readInt16LE(0);
  if (magic !== MAGIC_16 && magic !== MAGIC_32) return undefined;
  const numSize = magic === MAGIC_32 ? 4 : 2;
  const readNum = (at: number) => (numSize === 4 ? buf.readInt32LE(at) : buf.readInt16LE(at));
  const [namesSize, boolCount, numCount, strCount, strTableSize] = [2, 4, 6, 8, 10].map((o) => buf.readInt16LE(o)) as [number, number, number, number, number];
  const caps = new Map<string, boolean | number | string>();
  let at = 12;
  const names = buf.toString('latin1', at, at + namesSize - 1).split('|');
  at += namesSize + boolCount;
  if (at % 2) at++;
  for (let i = 0; i < numCount; i++) {
    const name = STD_NUMBERS[i];
    const v = readNum(at + i * numSize);
    if (name && v >= 0) caps.set(name, v);
  }
  at += numCount * numSize;
  const strOffsets = at;
  at += strCount * 2;
  const table = at;
  for (let i = 0; i < strCount; i++) {
    const name = STD_STRINGS[i];
    const off = buf.readInt16LE(strOffsets + i * 2);
    if (name && off >= 0) caps.set(name, cString(buf, table + off));
  }
  at += strTableSize;
  if (at % 2) at++;
  if (at + 10 <= buf.length) readExtended(buf, at, numSize, caps);
  return { names, caps };
}

/** The extended section: its own booleans, numbers and strings, then their names. */
function readExtended(buf: Buffer, at: number, numSize: number, caps: Map<string, boolean | number | string>): void {
  const [bools, nums, strs] = [0, 2, 4].map((o) => buf.readInt16LE(at + o)) as [number, number, number];
  if (bools < 0 || nums < 0 || strs < 0) return;
  at += 10;
  const boolAt = at;
  at += bools;
  if (at % 2) at++;
  const numAt = at;
  at += nums * numSize;
  const strOffAt = at;
  at += strs * 2;
  const nameOffAt = at;
  at += (bools + nums + strs) * 2;
  const table = at;
  // Names follow the last string value in the table.
  let valuesEnd = 0;
  const values: (string | undefined)[] = [];
  for (let i = 0; i < strs; i++) {
    const off = buf.readInt16LE(strOffAt + i * 2);
    if (off < 0) {
      values.push(undefined);
      continue;
    }
    const v = cString(buf, table + off);
    values.push(v);
    valuesEnd = Math.max(valuesEnd, off + Buffer.byteLength(v, 'latin1') + 1);
  }
  const nameOf = (i: number) => cString(buf, table + valuesEnd + buf.readInt16LE(nameOffAt + i * 2));
  for (let i = 0; i < bools; i++) if (buf[boolAt + i] === 1) caps.set(nameOf(i), true);
  for (let i = 0; i < nums; i++) {
    const v = numSize === 4 ? buf.readInt32LE(numAt + i * 4) : buf.readInt16LE(numAt + i * 2);
    if (v >= 0) caps.set(nameOf(bools + i), v);
  }
  for (let i = 0; i < strs; i++) if (values[i] !== undefined) caps.set(nameOf(bools + nums + i), values[i]!);
}

function cString(buf: Buffer, at: number): string {
  const end = buf.indexOf(0, at);
  if (end < 0) throw new Error('unterminated string');
  return buf.toString('latin1', at, end);
}
