// Where a baton server listens: a Unix socket `NAME.sock` in a directory only its user may
// enter, never a TCP port. `$XDG_RUNTIME_DIR/baton` when the session has one (a per-user
// tmpfs), else `baton-<uid>` under the temp dir. The directory is made 0700; one that
// exists is checked before use: it must be a real directory (not a link), owned by this
// user, with no access for group or others. Anything else is refused with a message that
// names it, since another user could then read the socket's traffic or plant a socket of
// their own. A server name is one of baton's names: letters, digits, `.`, `_`, `-`.

import { lstatSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { badInput, refused } from '../errors.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const DEFAULT_SERVER = 'default';

export interface SocketPlace {
  dir: string;
  path: string;
  /** Where the server writes its log and its lock (next to the socket). */
  lock: string;
}

export function checkServerName(name: string): string {
  if (!NAME.test(name) || name.includes('..')) {
    throw badInput(`"${name}" is not a usable server name`, 'use letters, digits, ".", "_" and "-" (like tmux -L NAME), at most 64 characters');
  }
  return name;
}

/** The directory sockets live in for this user, from the environment (not created). */
export function socketDir(env: NodeJS.ProcessEnv, uid = process.getuid?.() ?? 0): string {
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime?.startsWith('/')) return join(runtime, 'baton');
  return join(env.TMPDIR?.startsWith('/') ? env.TMPDIR : tmpdir(), `baton-${uid}`);
}

/**
 * Checks that `dir` is a directory of this user's, closed to everyone else; makes it (0700)
 * when it is missing and `create` is set. Throws a BatonError (exit 5) otherwise.
 */
export function ensurePrivateDir(dir: string, opts: { create: boolean; uid?: number }): void {
  const uid = opts.uid ?? process.getuid?.() ?? 0;
  if (opts.create) {
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  const st = lstatSync(dir);
  const hint = `remove it (baton makes it again, 0700) or point XDG_RUNTIME_DIR / TMPDIR elsewhere`;
  if (st.isSymbolicLink() || !st.isDirectory())
    throw refused(
      `${dir} is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a directory'}; baton keeps its server socket only in a directory of its own`,
      hint,
    );
  if (st.uid !== uid) throw refused(`${dir} belongs to another user (uid ${st.uid}); baton will not use its socket there`, hint);
  if ((st.mode & 0o077) !== 0) {
    throw refused(
      `${dir} is open to other users (mode ${(st.mode & 0o777).toString(8)}); baton keeps its socket only in a directory no one else can enter (0700)`,
      `chmod 700 ${dir}, or ${hint}`,
    );
  }
}

/** Checks a socket found at `path`: this user's, 0600 or tighter. */
export function checkSocketFile(path: string, uid = process.getuid?.() ?? 0): void {
  const st = lstatSync(path);
  if (!st.isSocket()) throw refused(`${path} is not a socket`, `remove it; baton makes its socket there`);
  if (st.uid !== uid) throw refused(`the socket ${path} belongs to another user (uid ${st.uid})`, 'remove it, or use another server name (-L NAME)');
  if ((st.mode & 0o077) !== 0)
    throw refused(`the socket ${path} is open to other users (mode ${(st.mode & 0o777).toString(8)})`, `remove it (a running server makes it again, 0600)`);
}

/** Where server `name` listens, its directory checked (and made when `create`). */
export function socketPlace(env: NodeJS.ProcessEnv, name = DEFAULT_SERVER, opts: { create: boolean } = { create: true }): SocketPlace {
  checkServerName(name);
  const dir = socketDir(env);
  ensurePrivateDir(dir, opts);
  return { dir, path: join(dir, `${name}.sock`), lock: join(dir, `${name}.lock`) };
}
