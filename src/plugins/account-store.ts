// The accounts baton knows for each agent, as directories under `$BATON_HOME/accounts/<agent>/`
// (account-dir.ts), and which one an agent runs under when none is named: the file
// `.default` in the agent's directory (hidden, so it can never be taken for an account: a
// name never starts with a dot). The account `default` is the CLI's own configuration and
// always exists; it has no directory. Files 0600, directories 0700.
// It never reads or writes what is inside an account (the CLI's own files): the drivers do.

import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BatonError, EXIT, badInput } from '../errors.js';
import type { HarnessDriver } from './api.js';
import { accountDir, accountsRoot, checkAccountName, DEFAULT_ACCOUNT, ensureAccountDir } from './account-dir.js';

const DEFAULT_FILE = '.default';

/** The accounts of `agent` baton has made, sorted (without `default`, which is not a directory). */
export function listAccounts(env: NodeJS.ProcessEnv, agent: string): string[] {
  const dir = join(accountsRoot(env), agent);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((n) => !n.startsWith('.') && isDir(join(dir, n))).sort();
}

/** Whether `account` of `agent` exists (`default` always does). Refuses a bad name (exit 2). */
export function accountExists(env: NodeJS.ProcessEnv, agent: string, account: string): boolean {
  checkAccountName(account);
  return account === DEFAULT_ACCOUNT || isDir(accountDir(env, agent, account));
}

/** Makes account `account` of `agent` (its directory, 0700). Refuses `default` and one that exists. */
export function addAccount(env: NodeJS.ProcessEnv, agent: string, account: string): string {
  if (accountExists(env, agent, account)) {
    throw badInput(
      account === DEFAULT_ACCOUNT
        ? `the account "${DEFAULT_ACCOUNT}" of ${agent} always exists: it is the CLI's own configuration`
        : `${agent} already has an account "${account}"`,
      `log in to it with: baton accounts login ${agent} ${account}`,
    );
  }
  return ensureAccountDir(env, agent, account);
}

/** Removes account `account` of `agent` and everything in it (its logins, its sessions). */
export function removeAccount(env: NodeJS.ProcessEnv, agent: string, account: string): string {
  const dir = existingAccountDir(env, agent, account, 'remove');
  rmSync(dir, { recursive: true, force: true });
  if (defaultAccount(env, agent) === account) setDefaultAccount(env, agent, DEFAULT_ACCOUNT);
  return dir;
}

/** The directory of an existing account, or exit 2 saying how to make it; `default` is refused for `what`. */
export function existingAccountDir(env: NodeJS.ProcessEnv, agent: string, account: string, what: string): string {
  checkAccountName(account);
  if (account === DEFAULT_ACCOUNT) {
    throw badInput(
      `cannot ${what} the account "${DEFAULT_ACCOUNT}" of ${agent}: it is the CLI's own configuration`,
      `baton accounts list shows ${agent}'s accounts`,
    );
  }
  requireAccount(env, agent, account);
  return accountDir(env, agent, account);
}

/** Refuses (exit 2) an account of `agent` that does not exist, saying how to make it. */
export function requireAccount(env: NodeJS.ProcessEnv, agent: string, account: string): void {
  if (!accountExists(env, agent, account)) {
    throw new BatonError(`${agent} has no account "${account}"`, EXIT.badInput, `make it with: baton accounts add ${agent} ${account}`);
  }
}

/** The account `agent` runs under when none is named: the one set with `baton accounts default`, else `default`. */
export function defaultAccount(env: NodeJS.ProcessEnv, agent: string): string {
  let name: string;
  try {
    name = readFileSync(join(accountsRoot(env), agent, DEFAULT_FILE), 'utf8').trim();
  } catch {
    return DEFAULT_ACCOUNT;
  }
  // A default whose account was removed by hand, or a file edited into nonsense, is `default`.
  try {
    return name && accountExists(env, agent, name) ? name : DEFAULT_ACCOUNT;
  } catch {
    return DEFAULT_ACCOUNT;
  }
}

/** Makes `account` (which must exist) the one `agent` runs under when none is named. */
export function setDefaultAccount(env: NodeJS.ProcessEnv, agent: string, account: string): void {
  requireAccount(env, agent, account);
  const file = join(accountsRoot(env), agent, DEFAULT_FILE);
  if (account === DEFAULT_ACCOUNT) {
    rmSync(file, { force: true });
    return;
  }
  ensureAccountDir(env, agent, account);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${account}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}

/** An account named for a run must be usable: a good name, a driver that isolates accounts, made already (exit 2 otherwise). */
export function checkRunAccount(driver: Pick<HarnessDriver, 'name' | 'title' | 'capabilities'>, account: string, env: NodeJS.ProcessEnv): void {
  checkAccountName(account);
  if (account === DEFAULT_ACCOUNT) return;
  if (!driver.capabilities.accounts) {
    throw new BatonError(
      `${driver.title} (${driver.name}) cannot run under a baton account`,
      EXIT.badInput,
      'its driver does not isolate accounts; leave out --account',
    );
  }
  requireAccount(env, driver.name, account);
}

/** An account name as drivers take it: `default` is the CLI's own configuration, passed as none. */
export function driverAccount(account: string | undefined): string | undefined {
  return account === undefined || account === DEFAULT_ACCOUNT ? undefined : account;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
