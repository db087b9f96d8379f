// Where a process is and what it holds, from /proc/<pid>: its executable, working
// directory, command line, environment and open files; and the processes found under a
// directory by those (what a CLI left behind in its home). Readers return undefined where
// the process is gone, is another user's, or there is no /proc, and never throw.
// It must never decide by a process's name: names are anyone's to choose.

import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { allPids } from './members.js';

/** The path a /proc link names, without the " (deleted)" the kernel adds once the file is gone. */
export function linkPath(target: string): string {
  return target.replace(/ \(deleted\)$/, '');
}

/** NUL-separated /proc text (cmdline, environ) as its items; the trailing NUL ends the last one. */
export function splitNul(text: string): string[] {
  const items = text.split('\0');
  if (items.at(-1) === '') items.pop();
  return items;
}

function link(pid: number, name: string): string | undefined {
  try {
    return linkPath(readlinkSync(`/proc/${pid}/${name}`));
  } catch {
    return undefined;
  }
}

function nulFile(pid: number | 'self', name: string): string[] | undefined {
  try {
    return splitNul(readFileSync(`/proc/${pid}/${name}`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The executable `pid` runs. */
export function exeOf(pid: number): string | undefined {
  return link(pid, 'exe');
}

/** The working directory of `pid`. */
export function cwdOf(pid: number): string | undefined {
  return link(pid, 'cwd');
}

/** The command line of `pid` ('self' for this process), one item per argument. */
export function cmdlineOf(pid: number | 'self'): string[] | undefined {
  return nulFile(pid, 'cmdline');
}

/**
 * The command line of `pid` as the bytes it was given, one Buffer per argument: Node
 * decodes argv as UTF-8 and replaces what is not; this is what was really there.
 */
export function cmdlineBytes(pid: number | 'self'): Buffer[] | undefined {
  let raw: Buffer;
  try {
    raw = readFileSync(`/proc/${pid}/cmdline`);
  } catch {
    return undefined;
  }
  const out: Buffer[] = [];
  for (let start = 0; start < raw.length; ) {
    let end = raw.indexOf(0, start);
    if (end < 0) end = raw.length;
    out.push(raw.subarray(start, end));
    start = end + 1;
  }
  return out;
}

/** The environment `pid` started with, as NAME=value items. */
export function environOf(pid: number): string[] | undefined {
  return nulFile(pid, 'environ');
}

export interface OpenFile {
  fd: number;
  /** What the descriptor names: a path, or the kernel's "pipe:[…]", "socket:[…]", "anon_inode:…". */
  target: string;
}

/** The open file descriptors of `pid`, in fd order; undefined when they cannot be listed. */
export function openFiles(pid: number): OpenFile[] | undefined {
  let names: string[];
  try {
    names = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return undefined;
  }
  const out: OpenFile[] = [];
  for (const name of names) {
    const target = link(pid, `fd/${name}`);
    if (target !== undefined) out.push({ fd: Number(name), target });
  }
  return out.sort((a, b) => a.fd - b.fd);
}

/** A test for "is `dir` or lies under it" (absolute paths), with `dir` resolved once. */
export function underDir(dir: string): (path: string | undefined) => boolean {
  const base = resolve(dir);
  const prefix = base.endsWith(sep) ? base : base + sep;
  return (path) => path !== undefined && (path === base || path.startsWith(prefix));
}

export type PlaceKind = 'exe' | 'cwd' | 'cmdline';

/**
 * Pids of processes (this one left out) whose executable, working directory or any
 * command-line argument (as `by` picks; all three by default) is `dir` or under it. Reads
 * every process's /proc entry: its cost grows with the host's process count.
 */
export function processesUnder(dir: string, by: readonly PlaceKind[] = ['exe', 'cwd', 'cmdline']): number[] {
  const under = underDir(dir);
  const out: number[] = [];
  for (const pid of allPids() ?? []) {
    if (pid === process.pid) continue;
    // The cheapest reads first; the first match decides.
    if (
      (by.includes('exe') && under(exeOf(pid))) ||
      (by.includes('cwd') && under(cwdOf(pid))) ||
      (by.includes('cmdline') && (cmdlineOf(pid) ?? []).some(under))
    ) {
      out.push(pid);
    }
  }
  return out;
}
