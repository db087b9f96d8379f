// Ending what codex's TUI leaves behind. Codex 0.171's TUI copies its binary to
// `$CODEX_HOME/packages/app-server-daemon/releases/…` and starts a detached
// `codex app-server --managed-daemon` plus a `daemon pid-update-loop` (parent pid 1) that
// outlive it. baton launches the TUI with `--no-daemon`, so it should start none; this is
// the sweep for when one appears anyway (a user's own args, another version): processes
// whose executable lives under the CODEX_HOME that run used, started after the run began
// (a daemon the user started themselves is left alone), ended by pid, never by name.

import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { resolve, sep } from 'node:path';

/** USER_HZ: /proc start times are in clock ticks, 100 per second on Linux. */
const TICKS_PER_SECOND = 100;

function bootTimeMs(): number | undefined {
  try {
    const m = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
    return m ? Number(m[1]) * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** When a process started (ms since the epoch), from /proc/<pid>/stat. */
function startedAt(pid: number, boot: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z' || fields[0] === 'X') return undefined; // a zombie holds nothing
    return boot + (Number(fields[19]) / TICKS_PER_SECOND) * 1000;
  } catch {
    return undefined;
  }
}

export interface DaemonQuery {
  /** The CODEX_HOME the run used. */
  codexHome: string;
  /** Only processes started at or after this (a second of slack for clock-tick rounding). */
  startedAfter?: Date;
}

/** Pids of live processes whose executable is under `codexHome` (this process excluded). */
export function codexDaemons(q: DaemonQuery): number[] {
  const prefix = resolve(q.codexHome) + sep;
  const boot = bootTimeMs();
  const after = q.startedAfter ? q.startedAfter.getTime() - 1000 : undefined;
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    let exe: string;
    try {
      exe = readlinkSync(`/proc/${pid}/exe`).replace(/ \(deleted\)$/, '');
    } catch {
      continue; // gone, or not ours to look at
    }
    if (!exe.startsWith(prefix)) continue;
    const started = boot === undefined ? undefined : startedAt(pid, boot);
    if (started === undefined && boot !== undefined) continue;
    if (after !== undefined && started !== undefined && started < after) continue;
    out.push(pid);
  }
  return out;
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Ends codex daemons of a run by pid: SIGTERM, then rounds of SIGSTOP + SIGKILL until none
 * is left (the pid-update loop may start a new app-server while the old one dies). Returns
 * every pid it signalled.
 */
export async function endCodexDaemons(q: DaemonQuery, graceMs = 1500): Promise<number[]> {
  const all = new Set<number>();
  for (let round = 0; round < 10; round++) {
    const pids = codexDaemons(q);
    if (!pids.length) break;
    for (const pid of pids) all.add(pid);
    if (round === 0) {
      for (const pid of pids) signal(pid, 'SIGTERM');
    } else {
      // Frozen first, so none of them can start another before it is killed.
      for (const pid of pids) signal(pid, 'SIGSTOP');
      for (const pid of pids) signal(pid, 'SIGKILL');
    }
    const deadline = Date.now() + (round === 0 ? graceMs : 1000);
    while (Date.now() < deadline && codexDaemons(q).some((p) => pids.includes(p))) await sleep(25);
  }
  return [...all];
}
