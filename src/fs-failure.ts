// What a file-system error means to the user, for the errno codes that describe the
// machine's state rather than a bug in baton: a full disk, a read-only or foreign
// directory, a path through a file. fsFailure turns such an error into the BatonError
// (exit 2) the CLI and the TUI print as one message and a hint. Pure: it reads no disk.
// It must never turn an error it does not recognise into a BatonError: an unexpected
// errno (ENOENT, EBADF, ...) is a bug and keeps its stack trace.

import { BatonError, EXIT } from './errors.js';

/** The words for each errno that is the machine's state, not a bug. */
const CAUSES: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOTDIR: 'a part of the path is a file, not a directory',
  EISDIR: 'it is a directory',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the path is too long',
  EIO: 'an input/output error (the disk may be failing)',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files on the system',
};

/** What the failing call was doing, by the syscall Node names in the error. */
const VERBS: Record<string, string> = {
  open: 'cannot open',
  mkdir: 'cannot create',
  mkdtemp: 'cannot create',
  scandir: 'cannot read',
  opendir: 'cannot read',
  read: 'cannot read',
  stat: 'cannot look at',
  lstat: 'cannot look at',
  chmod: 'cannot change the mode of',
  fchmod: 'cannot change the mode of',
  rename: 'cannot write',
  link: 'cannot write',
  write: 'cannot write',
  fsync: 'cannot write',
  fdatasync: 'cannot write',
  ftruncate: 'cannot write',
  copyfile: 'cannot write',
  unlink: 'cannot remove',
  rmdir: 'cannot remove',
  rm: 'cannot remove',
};

export interface FsFailureOptions {
  /** baton's state directory: a path under it gets hints that name BATON_HOME. */
  home?: string;
  /** The file the error is about when the error itself does not say (a write on a descriptor). */
  path?: string;
}

/** The errno code of err when it is one of the machine-state codes above. */
export function fsFailureCode(err: unknown): string | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && Object.hasOwn(CAUSES, code) ? code : undefined;
}

/** Records which file a descriptor-level error (write, fsync) was about, for fsFailure. */
export function notePath(err: unknown, path: string): unknown {
  if (err instanceof Error && fsFailureCode(err) && !(err as NodeJS.ErrnoException).path) {
    (err as NodeJS.ErrnoException).path = path;
  }
  return err;
}

const under = (path: string, dir: string) => path === dir || path.startsWith(dir.endsWith('/') ? dir : dir + '/');

function hintFor(code: string, inHome: boolean): string {
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return inHome
        ? 'free some space on that disk (or set BATON_HOME to a directory on another one) and run it again; what was saved before is intact'
        : 'free some space on that disk and run it again';
    case 'EROFS':
      return inHome
        ? 'set BATON_HOME to a directory on a writable file system, or remount this one read-write'
        : 'remount the file system read-write, or work in a directory on a writable one';
    case 'EACCES':
    case 'EPERM':
      return inHome
        ? 'give your user access to it (its owner and modes), or set BATON_HOME to a directory of your own'
        : 'give your user access to it (its owner and modes)';
    case 'ENOTDIR':
      return inHome ? 'set BATON_HOME to a directory (it is created when missing), or unset it' : 'check the path: one of its parents is a file';
    default:
      return inHome ? 'check that directory, or set BATON_HOME to another one' : 'check that file and its directory';
  }
}

/**
 * The BatonError (exit 2) for a file-system error that describes the machine's state,
 * naming the file and what went wrong; undefined for any other error (a bug).
 */
export function fsFailure(err: unknown, opts: FsFailureOptions = {}): BatonError | undefined {
  if (err instanceof BatonError) return err;
  const code = fsFailureCode(err);
  if (!code) return undefined;
  const e = err as NodeJS.ErrnoException;
  const path = e.path ?? opts.path;
  const verb = (e.syscall && VERBS[e.syscall]) ?? 'cannot use';
  const what = path ? `${verb} ${clean(path)}` : `${verb} a file`;
  const inHome = !!(path && opts.home && under(path, opts.home));
  return new BatonError(`${what}: ${CAUSES[code]} (${code})`, EXIT.badInput, hintFor(code, inHome));
}

/** A path made safe to print: no control characters. */
function clean(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
}
