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
