// The one error type for expected failures: a message that names the thing, the exit
// code the CLI leaves with, and a hint saying what to do. A stack trace means a bug.

export const EXIT = {
  ok: 0,
  /** Unexpected failure (a bug). */
  internal: 1,
  badInput: 2,
  agentNotInstalled: 3,
  agentFailed: 4,
  refused: 5,
  // Bad input about git and entries, each its own code so scripts (and the TUI) can tell them
  // apart and offer the way out: a tab fork instead of a worktree one, another --name, ...
  /** The directory is not in a git repository (a worktree fork, baton worktree ...). */
  notARepository: 6,
  /** HEAD is detached: a worktree fork has no branch to start from and be measured against. */
  detachedHead: 7,
  /** The repository has no commits yet. */
  noCommits: 8,
  /** A seq that is no entry of the conversation, or one hidden by a reset. */
  noSuchEntry: 9,
  /** The branch or directory a worktree fork would make already exists. */
  alreadyExists: 10,
  /** The worktree is locked (git worktree lock). */
  worktreeLocked: 11,
  /** No baton server runs under that name (baton attach, ls, kill-server). */
  noServer: 12,
  /** The baton server went away while a client was attached. */
  lostServer: 13,
  /** `--host` needs OpenSSH's client, and there is no `ssh` to run. */
  noSsh: 14,
  /** ssh could not reach or log in to the host (its host key, the login, the network, a timeout). */
  sshFailed: 15,
  /** The host has no baton that can proxy (not on its PATH, not runnable, or too old for `baton proxy`). */
  noRemoteBaton: 16,
  /** `baton agents install` could not reach the npm registry (nothing was installed). */
  registryUnreachable: 17,
  /** `baton agents install` reached the registry, but npm could not install the CLI (nothing was installed). */
  installFailed: 18,
  /** The user cancelled a turn (Ctrl-C, SIGTERM, a hangup): 128 + SIGINT, as shells report it. */
  cancelled: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export class BatonError extends Error {
  readonly exitCode: ExitCode;
  readonly hint: string | undefined;

  constructor(message: string, exitCode: ExitCode, hint?: string) {
    super(message);
    this.name = 'BatonError';
    this.exitCode = exitCode;
    this.hint = hint;
  }
}

export const badInput = (message: string, hint?: string) => new BatonError(message, EXIT.badInput, hint);
export const refused = (message: string, hint?: string) => new BatonError(message, EXIT.refused, hint);
export const notARepository = (message: string, hint?: string) => new BatonError(message, EXIT.notARepository, hint);
export const detachedHead = (message: string, hint?: string) => new BatonError(message, EXIT.detachedHead, hint);
export const noCommits = (message: string, hint?: string) => new BatonError(message, EXIT.noCommits, hint);
export const noSuchEntry = (message: string, hint?: string) => new BatonError(message, EXIT.noSuchEntry, hint);
export const alreadyExists = (message: string, hint?: string) => new BatonError(message, EXIT.alreadyExists, hint);
export const worktreeLocked = (message: string, hint?: string) => new BatonError(message, EXIT.worktreeLocked, hint);
export const noServer = (message: string, hint?: string) => new BatonError(message, EXIT.noServer, hint);
