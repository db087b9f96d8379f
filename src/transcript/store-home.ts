// Where conversations live on disk and what their ids look like: `$BATON_HOME`, the
// `conversations/<id>/` directories, id minting and validation, and the private-mode
// helpers every store file goes through (dirs 0700, files 0600, whatever the umask).
// It must never accept a user-given id that could name a path outside `conversations/`.

import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { badInput } from '../errors.js';

export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;

export const TRANSCRIPT_FILE = 'transcript.jsonl';
export const META_FILE = 'meta.json';
export const LOCK_FILE = 'lock';
export const PRUNE_LOG = 'prune.log';

/**
 * `$BATON_HOME`, else `$XDG_STATE_HOME/baton`, else `~/.local/state/baton`. Relative values
 * are ignored, as XDG says. A home that exists but is not a directory (a file, /dev/null)
 * is refused here, before any command reads or writes under it.
 */
export function resolveHome(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env.BATON_HOME;
  if (explicit && !isAbsolute(explicit)) {
    throw badInput(`BATON_HOME must be an absolute path (got "${printable(explicit)}")`, 'set BATON_HOME to an absolute directory, or unset it');
  }
  const xdg = env.XDG_STATE_HOME;
  const home = explicit ? explicit : xdg && isAbsolute(xdg) ? join(xdg, 'baton') : join(env.HOME || homedir(), '.local', 'state', 'baton');
  checkHome(home, explicit ? 'BATON_HOME' : "baton's state directory");
  return home;
}

function checkHome(home: string, label: string): void {
  let isDir: boolean;
  try {
    isDir = statSync(home).isDirectory();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOTDIR') return; // missing (made on first write) or unreadable (reported where it is used)
    throw badInput(
      `${label} ${printable(home)} is not a directory: a part of that path is a file`,
      'set BATON_HOME to a directory (it is created when missing), or unset it',
    );
  }
  if (!isDir) throw badInput(`${label} ${printable(home)} is not a directory`, 'set BATON_HOME to a directory (it is created when missing), or unset it');
}

export const conversationsDir = (home: string) => join(home, 'conversations');

// Ids: the creation time in base36 milliseconds (8 characters until 2059) followed by
// 4 random base36 characters. Lowercase alphanumerics only, so an id is always a single
// safe path component; the time prefix keeps `ls` and the list in creation order.
const ID_RE = /^[0-9a-z]{4,40}$/;
const TIME_WIDTH = 8;

export function newConversationId(now: Date = new Date()): string {
  const time = now.getTime().toString(36).padStart(TIME_WIDTH, '0');
  let rand = '';
  for (const b of randomBytes(4)) rand += (b % 36).toString(36);
  return time + rand;
}

export const isConversationId = (id: string) => ID_RE.test(id);

/** Orders ids by creation: shorter time prefixes are older. */
export const compareIds = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

export const noConversation = (id: string) => badInput(`no conversation ${printable(id)}`, 'baton transcript list shows the conversations there are');

/** Directory of a conversation whose id came from a user; refuses anything that is not an id. */
export function conversationDir(home: string, id: string): string {
  if (!isConversationId(id)) throw noConversation(id);
  return join(conversationsDir(home), id);
}

/** A user-typed string made safe to print in a message: no control characters, bounded length. */
export function printable(s: string): string {
  const clean = s.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return clean.length > 80 ? clean.slice(0, 77) + '...' : clean;
}

/**
 * Creates `dir` and its missing parents, one mkdir each, and fails on the first one that
 * cannot be made. Not `mkdirSync(..., { recursive: true })`: on a file system that refuses
 * new directories while their parent exists (anything under /proc answers ENOENT) Node's
 * recursive mkdir retries forever, freezing the process at 100% CPU.
 */
export function makeDirs(dir: string, mode: number = DIR_MODE): void {
  const missing: string[] = [];
  for (let at = resolve(dir); ; ) {
    try {
      statSync(at);
      break; // exists: mkdir below says so if it is not a directory
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    missing.push(at);
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d, { mode });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' && statSync(d).isDirectory()) continue; // made meanwhile by someone else
      if (code === 'ENOENT') {
        // The parent exists (it was there or was just made): the file system itself refuses.
        throw badInput(
          `cannot create ${printable(d)}: that file system does not allow a directory there (ENOENT)`,
          "use a directory on an ordinary disk (for baton's state: set BATON_HOME to one)",
        );
      }
      throw e;
    }
  }
}

/**
 * Creates `dir` (and missing parents) as 0700. mkdir's mode is filtered by the umask, so
 * the mode is set again explicitly; an existing directory that is group/other accessible
 * is tightened when we own it.
 */
export function ensurePrivateDir(dir: string): void {
  makeDirs(dir, DIR_MODE);
  const st = statSync(dir);
  if ((st.mode & 0o777) !== DIR_MODE && (process.getuid === undefined || st.uid === process.getuid())) {
    chmodSync(dir, DIR_MODE);
  }
}

/** Opens (creating if needed) a file as 0600 regardless of umask. Returns the fd. */
export function openPrivate(path: string, flags: string): number {
  const fd = openSync(path, flags, FILE_MODE);
  try {
    // The create mode passes through the umask, and an existing file keeps its mode.
    const st = statSync(path);
    if ((st.mode & 0o777) !== FILE_MODE) chmodSync(path, FILE_MODE);
  } catch (e) {
    closeSync(fd);
    throw e;
  }
  return fd;
}

/** Makes a directory entry (a created or renamed file) durable. Best effort where dirs cannot be opened. */
export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some filesystems refuse fsync on a directory; the data files themselves are synced.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
