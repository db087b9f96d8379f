// How a baton server makes its name its own: one per user and name. A lock file holds the
// running server's pid (taken with O_EXCL; one whose pid is gone is stale and taken over),
// and a socket left by a server that died is noticed (nothing answers on it) and replaced.
// It never removes a lock that holds another live pid, nor a socket a server answers on.

import { closeSync, constants, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { createConnection } from 'node:net';
import { alive } from '../proc/index.js';
import { checkSocketFile, type SocketPlace } from './socket-place.js';

/** True when a server answers on the socket. */
export function serverAnswers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createConnection(path);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/**
 * Takes the server's lock (O_EXCL, holding this pid). A lock whose pid is gone is stale and
 * is taken over; one whose pid lives means another server of this name runs: false.
 */
export function takeLock(path: string): boolean {
  for (let i = 0; i < 3; i++) {
    try {
      const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let pid = NaN;
    try {
      pid = Number(readFileSync(path, 'utf8').trim());
    } catch {
      continue;
    }
    if (Number.isInteger(pid) && pid > 0 && alive(pid)) return false;
    try {
      unlinkSync(path);
    } catch {
      // Another starter removed it first.
    }
  }
  return false;
}

/** Removes the lock at `path` if this process holds it. */
export function releaseLock(path: string): void {
  try {
    if (readFileSync(path, 'utf8').trim() === String(process.pid)) unlinkSync(path);
  } catch {
    // Not ours, or gone.
  }
}

/**
 * Makes `place` this process's to listen on: its lock taken, and a socket left there by a
 * server that is gone removed (said through `log`). False when another server of this name
 * runs (its lock's pid lives, or it answers on the socket); the lock is then not kept.
 */
export async function claimPlace(place: SocketPlace, log: (line: string) => void): Promise<boolean> {
  if (!takeLock(place.lock)) return false;
  try {
    checkSocketFile(place.path);
    if (await serverAnswers(place.path)) {
      releaseLock(place.lock);
      return false;
    }
    log(`a socket was left by a server that is gone: replaced (${place.path})`);
    unlinkSync(place.path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
      releaseLock(place.lock);
      throw e;
    }
  }
  return true;
}
