// Signals to processes baton started, and ending them: a whole process group (SIGTERM, a
// grace period, SIGKILL, resolved once the group is gone) or a set of pids found again each
// round (daemons that left the group). Never throws for a process that is already gone.
// It must never signal by name, nor pid 0 or a negative pid through signalPid (kill(0)
// and kill(-1) reach this process's own group and every process the user owns), nor
// group 1 or below through signalGroup.

import { alive, groupExists } from './alive.js';
import { groupAlive } from './members.js';

const POLL_MS = 25;
/** While a group still answers signal 0, a scan of /proc (to tell zombies apart) at most this often. */
const SCAN_MS = 250;

/** Sends `signal` to process `pid`; false when it is gone or not ours. */
export function signalPid(pid: number, signal: NodeJS.Signals | 0): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Sends `signal` to every process of group `pgid`; false when the group is gone or not ours. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  if (!Number.isInteger(pgid) || pgid <= 1) return false;
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Polls `cond` until it holds (true) or `ms` have passed (false). */
export async function waitUntil(cond: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (cond()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/**
 * A test for "group `pgid` has no live member" cheap enough to poll: signal 0 to the group
 * answers most polls (ESRCH: nobody is left) without reading /proc; only while the group
 * still answers does a scan, at most every SCAN_MS, tell whether all that is left is zombies.
 */
function groupGoneTest(pgid: number): () => boolean {
  let nextScan = 0;
  return () => {
    if (!groupExists(pgid)) return true;
    if (Date.now() < nextScan) return false;
    nextScan = Date.now() + SCAN_MS;
    return !groupAlive(pgid);
  };
}

/**
 * Ends process group `pgid`: SIGTERM, then SIGKILL to whatever is left after `graceMs`,
 * and resolves once no live member is left (or 5 s after the SIGKILL: a process in
 * uninterruptible sleep cannot be hurried). Resolves at once for a group that is gone.
 */
export async function endGroup(pgid: number, graceMs: number): Promise<void> {
  const gone = groupGoneTest(pgid);
  if (gone()) return;
  signalGroup(pgid, 'SIGTERM');
  if (await waitUntil(gone, graceMs)) return;
  signalGroup(pgid, 'SIGKILL');
  await waitUntil(gone, 5000);
}

export interface EndPidsOptions {
  /** Time between the SIGTERM and the first SIGKILL. Default 2000 ms. */
  graceMs?: number;
  /** At most this many rounds of finding and signalling. Default 20. */
  rounds?: number;
}

/**
 * Ends, by pid, the processes `find()` names: SIGTERM first, then rounds of SIGSTOP +
 * SIGKILL until `find()` names none, because a daemon's restart loop (codex's
 * pid-update-loop) can start new processes while the first ones die. Frozen first, so none
 * of them can start another before it is killed. `find()` is asked once per round; the
 * wait within a round checks only the pids signalled. Returns every pid it signalled.
 */
export async function endPids(find: () => number[], opts: EndPidsOptions = {}): Promise<number[]> {
  const graceMs = opts.graceMs ?? 2000;
  const rounds = opts.rounds ?? 20;
  const all = new Set<number>();
  for (let round = 0; round < rounds; round++) {
    const pids = find().filter((pid) => pid !== process.pid);
    if (!pids.length) break;
    for (const pid of pids) all.add(pid);
    if (round === 0) {
      for (const pid of pids) signalPid(pid, 'SIGTERM');
    } else {
      for (const pid of pids) signalPid(pid, 'SIGSTOP');
      for (const pid of pids) signalPid(pid, 'SIGKILL');
    }
    let left = pids;
    await waitUntil(() => (left = left.filter(alive)).length === 0, round === 0 ? graceMs : 1000);
  }
  return [...all];
}
