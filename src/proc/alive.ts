// Whether a process or a process group is there, asked of the kernel with signal 0 (which
// delivers nothing) and, for zombies, of /proc. Never throws.
// It must never probe pid 0 or a negative pid: kill(0) and kill(-1) address this process's
// own group and every process the user owns.

import { isZombie, readStat } from './stat.js';

const isPid = (n: number) => Number.isInteger(n) && n > 0;

/**
 * The kernel has an entry for `pid`: running, stopped, or a zombie not yet reaped. A
 * process of another user (EPERM) exists too.
 */
export function exists(pid: number): boolean {
  if (!isPid(pid)) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Some process (a zombie included) is in process group `pgid`. */
export function groupExists(pgid: number): boolean {
  if (!isPid(pgid) || pgid === 1) return false;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * `pid` is a live process: it exists and is not a zombie (a zombie still answers signal 0,
 * but holds nothing and waits only to be reaped). Without /proc, existing is all there is.
 */
export function alive(pid: number): boolean {
  if (!exists(pid)) return false;
  const s = readStat(pid);
  if (s) return !isZombie(s);
  return readStat('self') === undefined;
}
