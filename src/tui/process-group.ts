// Ending what a pane started: the process groups of a terminal session, found in /proc,
// and signals sent to whole groups. Never a bare pid: a pid may have been reused by then.

import { readdirSync, readFileSync } from 'node:fs';

/**
 * Process groups in the session led by `sid` (the PTY's program is a session leader), from
 * /proc. Empty where /proc is not there.
 */
export function sessionGroups(sid: number): number[] {
  const groups = new Set<number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const name of entries) {
    if (name.charCodeAt(0) > 57) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(f[3]) === sid && Number(f[2]) > 0) groups.add(Number(f[2]));
    } catch {
      // Gone while reading.
    }
  }
  return [...groups];
}

/** Signal a whole process group; a group that is gone already is fine. Never a bare pid: it may have been reused. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // Gone already.
  }
}
