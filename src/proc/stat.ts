// What /proc says about one process: its stat line parsed into named fields, and when it
// started. The parsing is pure (a unit test feeds it text); the readers return undefined
// where the process is gone or there is no /proc (macOS), and never throw.
// It must never locate fields by splitting the whole line: the command name (field 2) may
// hold spaces and parentheses, so the fields after it are counted from the LAST ')'.

import { readFileSync } from 'node:fs';

/** The fields of /proc/<pid>/stat that baton reads (proc(5) numbers them from 1). */
export interface ProcStat {
  pid: number;
  /** The command name, at most 15 bytes, as the kernel keeps it (field 2). */
  comm: string;
  /** One letter: R running, S sleeping, D disk, Z zombie, T stopped, X dead, ... (field 3). */
  state: string;
  ppid: number;
  /** Process group id (field 5). */
  pgrp: number;
  /** Session id (field 6). */
  session: number;
  /** The foreground process group of the process's terminal, -1 without one (field 8). */
  tpgid: number;
  /** CPU time in user and kernel mode, in clock ticks (fields 14, 15). */
  utime: number;
  stime: number;
  /** When the process started, in clock ticks since boot (field 22): with the pid, names a process uniquely. */
  startTicks: number;
}

/** USER_HZ: /proc counts times in clock ticks, 100 per second on Linux (every architecture baton runs on). */
export const TICKS_PER_SECOND = 100;

/** Parses one /proc/<pid>/stat line; undefined when it is not one. */
export function parseStat(text: string): ProcStat | undefined {
  const open = text.indexOf(' (');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  const pid = Number(text.slice(0, open));
  // After "(comm) ": field 3 is at index 0.
  const f = text.slice(close + 2).split(' ');
  if (!Number.isInteger(pid) || f.length < 20 || !/^[A-Za-z]$/.test(f[0]!)) return undefined;
  const n = (i: number) => Number(f[i]);
  return {
    pid,
    comm: text.slice(open + 2, close),
    state: f[0]!,
    ppid: n(1),
    pgrp: n(2),
    session: n(3),
    tpgid: n(5),
    utime: n(11),
    stime: n(12),
    startTicks: n(19),
  };
}

/** A process that has exited and waits to be reaped (Z) or is being torn down (X): it holds nothing. */
export function isZombie(s: ProcStat): boolean {
  return s.state === 'Z' || s.state === 'X' || s.state === 'x';
}

/** The stat of `pid` ('self' for this process); undefined when it is gone or /proc is not there. */
export function readStat(pid: number | 'self'): ProcStat | undefined {
  try {
    // utf8: a command name in UTF-8 reads as written; bytes that are not UTF-8 become U+FFFD
    // one by one and never swallow the ASCII ')' after them.
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The boot time (ms since the epoch) from the text of /proc/stat. */
export function parseBootTime(procStat: string): number | undefined {
  const m = /^btime (\d+)$/m.exec(procStat);
  return m ? Number(m[1]) * 1000 : undefined;
}

/**
 * When this machine booted (ms since the epoch); undefined without /proc. Read each time:
 * the kernel derives it from the wall clock, which may have been stepped since.
 */
export function bootTime(): number | undefined {
  try {
    return parseBootTime(readFileSync('/proc/stat', 'utf8'));
  } catch {
    return undefined;
  }
}

/** When the process of `s` started, in ms since the epoch, given the boot time. */
export function startedAtMs(s: ProcStat, bootMs: number): number {
  return bootMs + (s.startTicks / TICKS_PER_SECOND) * 1000;
}

/** The resident set size in KiB from the text of /proc/<pid>/status (its VmRSS line). */
export function parseResidentKb(status: string): number | undefined {
  const m = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  return m ? Number(m[1]) : undefined;
}

/** How much memory `pid` holds resident, in KiB; undefined when it is gone or there is no /proc. */
export function residentKb(pid: number): number | undefined {
  try {
    return parseResidentKb(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return undefined;
  }
}
