// `baton accounts list [AGENT] | add AGENT NAME | login AGENT NAME [-- ARGS] | remove AGENT NAME
// | default AGENT NAME`: several logins per agent, each an isolated config directory under
// `$BATON_HOME/accounts/<agent>/<name>` (account-dir.ts, account-store.ts). The account
// `default` is the CLI's own configuration. Whether an account is logged in is what the CLI
// itself stores there (the driver's loginStatus), never asked of a server.

import type { Argv } from './yargs.js';
import { badInput } from '../errors.js';
import { accountDir, DEFAULT_ACCOUNT } from '../plugins/account-dir.js';
import { addAccount, defaultAccount, driverAccount, listAccounts, removeAccount, requireAccount, setDefaultAccount } from '../plugins/account-store.js';
import type { HarnessDriver, LoginStatus } from '../plugins/api.js';
import type { Registry } from '../plugins/registry.js';
import { agentCatalog } from './agent-catalog.js';
import { login } from './accounts-login.js';
import { jsonText, type Io } from './io.js';

export interface AccountRow {
  agent: string;
  account: string;
  default: boolean;
  /** Where the account's config lives; undefined for `default` (the CLI's own place). */
  dir?: string;
  login: LoginStatus | null;
}

/** A driver that isolates accounts, or exit 2 saying which do. */
function accountDriver(registry: Registry, agent: string): HarnessDriver {
  const d = registry.get(agent);
  if (!d.capabilities.accounts) {
    const able = registry.drivers().filter((x) => x.capabilities.accounts);
    throw badInput(
      `${d.title} (${d.name}) cannot have baton accounts: its driver does not isolate them`,
      `agents with accounts: ${able.map((x) => x.name).join(', ')}`,
    );
  }
  return d;
}

/** Every account of the agents that have them (or of `agent`), with the login each holds. */
export async function accountRows(registry: Registry, env: NodeJS.ProcessEnv, agent?: string): Promise<AccountRow[]> {
  const drivers = agent ? [accountDriver(registry, agent)] : registry.drivers().filter((d) => d.capabilities.accounts);
  const rows: AccountRow[] = [];
  for (const d of drivers) {
    const chosen = defaultAccount(env, d.name);
    for (const account of [DEFAULT_ACCOUNT, ...listAccounts(env, d.name)]) {
      const acc = driverAccount(account);
      const status = d.loginStatus ? await d.loginStatus({ env, ...(acc ? { account: acc } : {}) }).catch(() => null) : null;
      const row: AccountRow = { agent: d.name, account, default: account === chosen, login: status };
      if (acc) row.dir = accountDir(env, d.name, acc);
      rows.push(row);
    }
  }
  return rows;
}

export function formatAccounts(rows: readonly AccountRow[]): string {
  if (!rows.length) return 'no agent here can have accounts';
  const table = rows.map((r) => [
    r.agent,
    r.account,
    r.default ? 'default' : '',
    r.login === null
      ? 'login unknown'
      : r.login.loggedIn
        ? `logged in: ${r.login.method ?? 'yes'}`
        : `not logged in${r.login.method ? ` (${r.login.method})` : ''}`,
  ]);
  const head = ['AGENT', 'ACCOUNT', 'USED', 'LOGIN'];
  const widths = head.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
  return [head, ...table].map((row) => row.map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n');
}

export function registerAccounts(y: Argv, io: Io): Argv {
  return y.command('accounts', "several logins per agent, each in its own config directory; `default` is the CLI's own", (c) =>
    c
      .command(
        'list [agent]',
        'the accounts of each agent, the one it runs under when none is named, and whether each is logged in',
        (l) => l.positional('agent', { type: 'string' }).option('json', { type: 'boolean', default: false }),
        (a) => withRegistry(io, async (r) => print(io, a.json, await accountRows(r, io.env, a.agent))),
      )
      .command(
        'add <agent> <name>',
        'a new account: an empty config directory of its own',
        (l) => names(l),
        (a) =>
          withRegistry(io, async (r) => {
            const d = accountDriver(r, a.agent);
            const dir = addAccount(io.env, d.name, a.name);
            io.out(`added account ${a.name} of ${d.title}: ${dir}\n`);
            io.err(`next: baton accounts login ${d.name} ${a.name}\n`);
          }),
      )
      .command(
        'login <agent> <name> [args..]',
        "the CLI's own login, in this terminal, with the account's config (arguments after -- go to the CLI)",
        (l) => names(l).positional('args', { type: 'string', array: true }),
        (a) =>
          withRegistry(io, async (r) => {
            const d = accountDriver(r, a.agent);
            requireAccount(io.env, d.name, a.name);
            const acc = driverAccount(a.name);
            // yargs leaves what follows `--` in `_`, after the two command words.
            const extra = [...(a.args ?? []), ...a._.slice(2)].map(String);
            await login(d, acc, io.env, io.cwd, extra);
            const status = await d.loginStatus?.({ env: io.env, ...(acc ? { account: acc } : {}) });
            io.out(`${d.name} ${a.name}: ${status ? (status.loggedIn ? `logged in (${status.method ?? 'yes'})` : 'still not logged in') : 'login finished'}\n`);
          }),
      )
      .command(
        'remove <agent> <name>',
        'deletes an account and everything in it (its logins and its sessions)',
        (l) => names(l),
        (a) =>
          withRegistry(io, async (r) => {
            const d = accountDriver(r, a.agent);
            const dir = removeAccount(io.env, d.name, a.name);
            io.out(`removed account ${a.name} of ${d.title} (${dir})\n`);
          }),
      )
      .command(
        'default <agent> <name>',
        "the account the agent runs under when none is named (`default`: the CLI's own configuration)",
        (l) => names(l),
        (a) =>
          withRegistry(io, async (r) => {
            const d = accountDriver(r, a.agent);
            setDefaultAccount(io.env, d.name, a.name);
            io.out(`${d.title} now runs under account ${a.name} unless told otherwise\n`);
          }),
      )
      .demandCommand(1, 'say what to do: list, add, login, remove or default'),
  );
}

function names<T>(l: Argv<T>) {
  return l.positional('agent', { type: 'string', demandOption: true }).positional('name', { type: 'string', demandOption: true });
}

function print(io: Io, json: boolean, rows: AccountRow[]): void {
  io.out(json ? `${jsonText(rows, 2)}\n` : `${formatAccounts(rows)}\n`);
}

async function withRegistry(io: Io, fn: (r: Registry) => Promise<void>): Promise<void> {
  const { registry } = await agentCatalog(io);
  try {
    await fn(registry);
  } finally {
    await registry.dispose();
  }
}
