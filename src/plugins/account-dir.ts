// Where a baton account of an agent CLI lives: `$XDG_CONFIG_HOME/baton/accounts/<driver>/<account>`
// (XDG default ~/.config). Every driver isolates an account's config there through the CLI's
// own variable; the name is checked here once, so a bad one is the same clear error (exit 2)
// whichever CLI it was given to, and can never name a path outside the accounts directory.

import { homedir } from 'node:os';
import { join } from 'node:path';
import { BatonError, EXIT } from '../errors.js';

const ACCOUNT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The user's config base: an absolute XDG_CONFIG_HOME, else ~/.config. */
export function configBase(env: NodeJS.ProcessEnv): string {
  return env.XDG_CONFIG_HOME?.startsWith('/') ? env.XDG_CONFIG_HOME : join(env.HOME || homedir(), '.config');
}

export function accountDir(env: NodeJS.ProcessEnv, driver: string, account: string): string {
  if (!ACCOUNT_NAME.test(account)) {
    throw new BatonError(
      `account name "${account}" is not usable`,
      EXIT.badInput,
      'use letters, digits, ".", "_" and "-" (at most 64), starting with a letter or digit',
    );
  }
  return join(configBase(env), 'baton', 'accounts', driver, account);
}
