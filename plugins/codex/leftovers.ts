// Ending what codex's TUI leaves behind. Codex 0.171's TUI copies its binary to
// `$CODEX_HOME/packages/app-server-daemon/releases/…` and starts a detached
// `codex app-server --managed-daemon` plus a `daemon pid-update-loop` (parent pid 1) that
// outlive it. baton launches the TUI with `--no-daemon`, so it should start none; this is
// the sweep for when one appears anyway (a user's own args, another version): processes
// whose executable lives under the CODEX_HOME that run used, started after the run began
// (a daemon the user started themselves is left alone), ended by pid, never by name.

import { bootTime, endPids, isZombie, processesUnder, readStat, startedAtMs } from '../../src/plugins/kit.js';

export interface DaemonQuery {
  /** The CODEX_HOME the run used. */
  codexHome: string;
  /** Only processes started at or after this (a second of slack for clock-tick rounding). */
  startedAfter?: Date;
}

/** Pids of live processes whose executable is under `codexHome` (this process excluded). */
export function codexDaemons(q: DaemonQuery): number[] {
  const boot = bootTime();
  const after = q.startedAfter ? q.startedAfter.getTime() - 1000 : undefined;
  return processesUnder(q.codexHome, ['exe']).filter((pid) => {
    if (boot === undefined) return true; // no start times to go by
    const s = readStat(pid);
    if (!s || isZombie(s)) return false; // gone, or a zombie that holds nothing
    return after === undefined || startedAtMs(s, boot) >= after;
  });
}

/**
 * Ends codex daemons of a run by pid: SIGTERM, then rounds of SIGSTOP + SIGKILL until none
 * is left (the pid-update loop may start a new app-server while the old one dies). Returns
 * every pid it signalled.
 */
export function endCodexDaemons(q: DaemonQuery, graceMs = 1500): Promise<number[]> {
  return endPids(() => codexDaemons(q), { graceMs, rounds: 10 });
}
