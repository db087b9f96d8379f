// Where a baton account of an agent CLI lives: `$BATON_HOME/accounts/<driver>/<account>`
// (BATON_HOME defaults to `$XDG_STATE_HOME/baton`), every directory on the way 0700. Every
// driver isolates an account's config there through the CLI's own variable; the name is
// checked here once, so a bad one is the same clear error (exit 2) whichever CLI it was
// given to, and can never name a path outside the accounts directory.
// The account `default` is the CLI's own configuration (no variable set): it has no
// directory here, and asking for one is refused rather than silently making a second one.

import { join } from 'node:path';
import { BatonError, EXIT } from '../errors.js';
import { ensurePrivateDir, resolveHome } from '../transcript/store-home.js';

export { configBase } from './config-base.js';

/** The account that is the CLI's own configuration, as it is outside baton. */
export const DEFAULT_ACCOUNT = 'default';

// One path component: no separator, cannot be "." or "..", hidden, or read as an option.
const ACCOUNT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Refuses (exit 2) a name that is not a usable account name; `default` passes. */
export function checkAccountName(account: string): void {
  if (ACCOUNT_NAME.test(account)) return;
  const shown = account.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?').slice(0, 80);
  const why =
    account === '' ? 'it is empty' : /[/\\]/.test(account) ? 'it holds a path separator' : account.startsWith('.') ? 'it starts with a dot' : undefined;
  throw new BatonError(
    `account name "${shown}" is not usable${why ? ` (${why})` : ''}`,
    EXIT.badInput,
    'use letters, digits, ".", "_" and "-" (at most 64), starting with a letter or digit; no path separators',
  );
}

/** `$BATON_HOME/accounts`: every agent's accounts, one directory per agent. */
export function accountsRoot(env: NodeJS.ProcessEnv): string {
  return join(resolveHome(env), 'accounts');
}

/** The directory of account `account` of `driver` (not created). */
export function accountDir(env: NodeJS.ProcessEnv, driver: string, account: string): string {
  checkAccountName(account);
  if (account === DEFAULT_ACCOUNT) {
    throw new BatonError(
      `the account "${DEFAULT_ACCOUNT}" of ${driver} is the CLI's own configuration, not a directory of baton's`,
      EXIT.badInput,
      'run without an account to use it',
    );
  }
  return join(accountsRoot(env), driver, account);
}

/** accountDir(), created (with its parents) as 0700 whatever the umask. */
export function ensureAccountDir(env: NodeJS.ProcessEnv, driver: string, account: string): string {
  const dir = accountDir(env, driver, account);
  ensurePrivateDir(accountsRoot(env));
  ensurePrivateDir(join(accountsRoot(env), driver));
  ensurePrivateDir(dir);
  return dir;
}
