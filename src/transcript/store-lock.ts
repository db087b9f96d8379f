// One writer per conversation: a `lock` file in the conversation's directory naming the
// owner (pid, hostname, start time). Creation is atomic (write a private temp file, then
// link(2) it into place, which fails if a lock exists). A lock whose pid is gone on this
// host, or whose pid now belongs to a younger process, is stale and taken over; a live one
// is refused with exit 5 naming the pid. Readers never take the lock.
// It must never remove or replace a lock held by a live process.

import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync, fsyncSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { refused } from '../errors.js';
import { exists, readStat } from '../proc/index.js';
import { fsFailureCode, notePath } from '../fs-failure.js';
import { FILE_MODE, LOCK_FILE, openPrivate } from './store-home.js';

export interface LockOwner {
  pid: number;
  hostname: string;
  /** ISO-8601 time the owning process started. */
  started: string;
  /** Linux: the process's start time in clock ticks since boot (/proc/PID/stat field 22), to detect a reused pid. */
  procStart?: string;
  /** Tells two locks of the same process apart. */
  token: string;
}

export type LockState = 'live' | 'stale';

export interface LockHolder {
  /** Undefined when the lock file could not be parsed. */
  owner: LockOwner | undefined;
  state: LockState;
}

export interface Lock {
  readonly path: string;
  readonly owner: LockOwner;
  /** Removes the lock if it is still ours. Safe to call twice. */
  release(): void;
}

/** A lock file that cannot be parsed is someone mid-creation for this long, then stale. */
const UNREADABLE_GRACE_MS = 10_000;

const PROCESS_STARTED = new Date(Date.now() - process.uptime() * 1000).toISOString();

function procStart(pid: number): string | undefined {
  const s = readStat(pid);
  return s ? String(s.startTicks) : undefined;
}

function me(): LockOwner {
  const o: LockOwner = { pid: process.pid, hostname: hostname(), started: PROCESS_STARTED, token: randomBytes(6).toString('hex') };
  const ps = procStart(process.pid);
  if (ps) o.procStart = ps;
  return o;
}

/** Live unless it is provably gone: same host and (dead pid, or the pid now names a process started later). */
export function ownerState(o: LockOwner): LockState {
  if (o.hostname !== hostname()) return 'live';
  if (!exists(o.pid)) return 'stale';
  if (o.procStart !== undefined) {
    const now = procStart(o.pid);
    if (now !== undefined && now !== o.procStart) return 'stale';
  }
  return 'live';
}

function parseOwner(raw: string): LockOwner | undefined {
  try {
    const o = JSON.parse(raw) as Partial<LockOwner>;
    if (typeof o.pid === 'number' && Number.isInteger(o.pid) && o.pid > 0 && typeof o.hostname === 'string' && typeof o.token === 'string') {
      return o as LockOwner;
    }
  } catch {
    // fall through
  }
  return undefined;
}

type Seen = { raw: string; owner: LockOwner | undefined; mtimeMs: number } | 'gone';

function look(path: string): Seen {
  try {
    const raw = readFileSync(path, 'utf8');
    const mtimeMs = statSync(path).mtimeMs;
    return { raw, owner: parseOwner(raw), mtimeMs };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw e;
  }
}

function stateOf(seen: Exclude<Seen, 'gone'>): LockState {
  if (seen.owner) return ownerState(seen.owner);
  return Date.now() - seen.mtimeMs > UNREADABLE_GRACE_MS ? 'stale' : 'live';
}

/** Who holds the lock of a conversation directory, if anyone. For listings and retention; takes nothing. */
export function lockHolder(dir: string): LockHolder | undefined {
  const seen = look(join(dir, LOCK_FILE));
  if (seen === 'gone') return undefined;
  return { owner: seen.owner, state: stateOf(seen) };
}

/** Writes `owner` to a fresh private temp file next to `path` and returns its name. */
function writeTemp(path: string, owner: LockOwner): string {
  const tmp = `${path}.${owner.pid}.${randomBytes(4).toString('hex')}.tmp`;
  let fd: number;
  try {
    fd = openPrivate(tmp, 'wx');
  } catch (e) {
    // A read-only or foreign directory: said of the lock, not of a temp name.
    if (fsFailureCode(e)) (e as NodeJS.ErrnoException).path = path;
    throw e;
  }
  try {
    writeSync(fd, JSON.stringify(owner) + '\n');
    fsyncSync(fd);
  } catch (e) {
    // A full disk: the empty temp file is ours and must not stay behind.
    closeSync(fd);
    unlinkQuiet(tmp);
    throw notePath(e, path);
  }
  closeSync(fd);
  return tmp;
}

function tryCreate(path: string, owner: LockOwner): boolean {
  const tmp = writeTemp(path, owner);
  try {
    linkSync(tmp, path);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP') return tryCreateExclusive(path, owner);
    throw e;
  } finally {
    unlinkQuiet(tmp);
  }
}

// Filesystems without hard links: O_EXCL still makes creation atomic; a reader may briefly
// see an empty file, which the grace period for unreadable locks covers.
function tryCreateExclusive(path: string, owner: LockOwner): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', FILE_MODE);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
  try {
    writeSync(fd, JSON.stringify(owner) + '\n');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return true;
}

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Replaces a stale lock with ours. Two processes may find the same stale lock; a takeover
 * mutex (created O_EXCL) lets one of them re-check it and rename its own over it, so the
 * lock file never disappears and never names two owners.
 */
function takeOver(path: string, staleRaw: string, owner: LockOwner): boolean {
  const mutex = `${path}.takeover`;
  if (!tryCreateExclusive(mutex, owner)) {
    const other = look(mutex);
    if (other !== 'gone' && stateOf(other) === 'stale') unlinkQuiet(mutex);
    else sleep(20);
    return false;
  }
  try {
    const now = look(path);
    if (now === 'gone' || now.raw !== staleRaw) return false;
    renameSync(writeTemp(path, owner), path);
    return true;
  } finally {
    unlinkQuiet(mutex);
  }
}

/**
 * Takes the writer lock of the conversation in `dir`, taking over a stale one.
 * Throws BatonError exit 5 naming the pid when another live baton holds it.
 */
export function acquireLock(dir: string, conversation: string): Lock {
  const path = join(dir, LOCK_FILE);
  const owner = me();
  for (let attempt = 0; attempt < 50; attempt++) {
    if (tryCreate(path, owner)) return makeLock(path, owner);
    const seen = look(path);
    if (seen === 'gone') continue;
    if (stateOf(seen) === 'live') throw heldBy(conversation, seen.owner, path);
    if (takeOver(path, seen.raw, owner)) return makeLock(path, owner);
  }
  throw refused(`could not take the lock of conversation ${conversation}: it keeps changing hands`, 'try again in a moment');
}

function heldBy(conversation: string, o: LockOwner | undefined, path: string) {
  if (!o) return refused(`conversation ${conversation} is being opened by another baton`, 'try again in a moment');
  if (o.pid === process.pid && o.hostname === hostname()) {
    return refused(`conversation ${conversation} is already open in this baton (pid ${o.pid})`, 'use the tab that has it open');
  }
  const where = o.hostname === hostname() ? `pid ${o.pid}` : `pid ${o.pid} on ${o.hostname}`;
  const hint =
    o.hostname === hostname()
      ? 'close it there first; baton transcript show works while it is open'
      : `close it there first; if that baton is gone, delete ${path}`;
  return refused(`conversation ${conversation} is open in another baton (${where})`, hint);
}

function makeLock(path: string, owner: LockOwner): Lock {
  let held = true;
  return {
    path,
    owner,
    release() {
      if (!held) return;
      held = false;
      const seen = look(path);
      // Only ever remove our own lock: if it was (wrongly) taken over, it is not ours to delete.
      if (seen !== 'gone' && seen.owner?.token === owner.token) unlinkQuiet(path);
    },
  };
}

function unlinkQuiet(p: string) {
  try {
    unlinkSync(p);
  } catch {
    // already gone
  }
}
