// Which processes belong together: the members of a process group, the groups of a
// terminal session, the children of a process. Linux keeps no index of these, so each
// answer is a scan of every /proc/<pid>/stat: its cost grows with the host's process
// count. Call these when something ends (a tab closes, a group is stopped), never on a
// timer of an idle baton. Never throws; a process that exits mid-scan is skipped.

import { readdirSync } from 'node:fs';
import { groupExists } from './alive.js';
import { isZombie, readStat, type ProcStat } from './stat.js';

/** The pids /proc lists, this process's included; undefined where there is no /proc. */
export function allPids(): number[] | undefined {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const out: number[] = [];
  for (const name of names) {
    const c = name.charCodeAt(0);
    if (c >= 48 && c <= 57 && /^\d+$/.test(name)) out.push(Number(name));
  }
  return out;
}

/** The stat of every process (zombies included); empty where there is no /proc. */
export function processes(): ProcStat[] {
  const out: ProcStat[] = [];
  for (const pid of allPids() ?? []) {
    const s = readStat(pid);
    if (s) out.push(s);
  }
  return out;
}

/**
 * Pids of the live (non-zombie) processes in group `pgid`. Zombies are left out: they
 * hold no resources and wait only for their parent (or init) to reap them.
 */
export function groupMembers(pgid: number): number[] {
  // A group nobody is in cannot be signalled: no scan needed to say it is empty.
  if (!groupExists(pgid)) return [];
  const pids = allPids();
  // No procfs (macOS): the group exists, and that is all that can be known.
  if (!pids) return [pgid];
  const out: number[] = [];
  for (const pid of pids) {
    const s = readStat(pid);
    if (s && s.pgrp === pgid && !isZombie(s)) out.push(pid);
  }
  return out;
}

/** Any live (non-zombie) process in group `pgid`. */
export function groupAlive(pgid: number): boolean {
  return groupMembers(pgid).length > 0;
}

/**
 * The process groups of the session led by `sid` (a PTY's program is a session leader):
 * the leader's own and those of jobs a shell put in the background. Zombies count (their
 * group may hold live members). Empty where there is no /proc.
 */
export function sessionGroups(sid: number): number[] {
  const groups = new Set<number>();
  for (const s of processes()) if (s.session === sid && s.pgrp > 0) groups.add(s.pgrp);
  return [...groups];
}

/** Pids whose parent is `pid` (zombies included). Empty where there is no /proc. */
export function childrenOf(pid: number): number[] {
  return processes()
    .filter((s) => s.ppid === pid)
    .map((s) => s.pid);
}
