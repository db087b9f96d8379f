// `baton agents install NAME [--version V] [--login] [--account A]`: installs an agent CLI
// at the version its driver was tested with into baton's own prefix (plugins/agent-install.ts),
// showing progress (a bar redrawn in place on a terminal, lines otherwise), then says where
// baton finds it and, with --login, runs the CLI's own login for the account in this terminal
// (what the picker's install tab runs). An account that does not exist is refused before
// anything is downloaded.

import { BatonError, EXIT } from '../errors.js';
import { installAgent, installRecipe, type InstallProgress } from '../plugins/agent-install.js';
import { DEFAULT_ACCOUNT } from '../plugins/account-dir.js';
import { defaultAccount, driverAccount, requireAccount } from '../plugins/account-store.js';
import type { Registry } from '../plugins/registry.js';
import { login } from './accounts-login.js';
import { agentCatalog } from './agent-catalog.js';
import type { Io } from './io.js';

export interface InstallCommandArgs {
  name: string;
  version?: string;
  login?: boolean;
  account?: string;
}

const MB = 1024 * 1024;
const BAR = 24;

/** The one progress line: `Installing Qwen Code 0.15.10  [#######.........]  12.3 MB`. */
export function progressLine(title: string, version: string, p: InstallProgress): string {
  const head = `Installing ${title} ${version}`;
  if (p.phase === 'checking') return `${head}: asking the registry…`;
  if (p.phase === 'linking') return `${head}: linking…`;
  if (p.phase === 'done') return `${head}: done`;
  const mb = `${(p.bytes / MB).toFixed(1)} MB downloaded`;
  if (!p.unpackedSize) return `${head}  ${mb}`;
  const f = Math.min(1, (p.unpacked ?? 0) / p.unpackedSize);
  const filled = Math.round(f * BAR);
  return `${head}  [${'#'.repeat(filled)}${'.'.repeat(BAR - filled)}] ${String(Math.round(f * 100)).padStart(3)}%  ${mb}`;
}

/** Progress for a terminal (one line redrawn) or for a pipe (a line per phase and per package fetched). */
function progressPrinter(io: Io, title: string, version: string): { show: (p: InstallProgress) => void; end: () => void } {
  if (io.status) {
    const status = io.status.bind(io);
    return { show: (p) => status(progressLine(title, version, p)), end: () => status('') };
  }
  let phase = '';
  let fetched = 0;
  return {
    show: (p) => {
      if (p.phase !== phase) {
        phase = p.phase;
        if (p.phase !== 'done') io.err(`${p.phase === 'downloading' ? `Installing ${title} ${version}: downloading…` : progressLine(title, version, p)}\n`);
      }
      if (p.fetched > fetched && p.last) io.err(`  fetched ${p.last}\n`);
      fetched = p.fetched;
    },
    end: () => undefined,
  };
}

export async function agentsInstall(io: Io, a: InstallCommandArgs): Promise<void> {
  const recipe = installRecipe(a.name);
  const { registry } = await agentCatalog(io);
  try {
    const driver = registry.get(a.name);
    // The account is settled before anything is downloaded: a wrong name costs nothing.
    const account = a.account ?? defaultAccount(io.env, driver.name);
    if (a.login && account !== DEFAULT_ACCOUNT) requireAccount(io.env, driver.name, account);
    const version = a.version ?? recipe.version;
    const progress = progressPrinter(io, driver.title, version);
    const controller = new AbortController();
    const cancel = () => controller.abort();
    const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    for (const s of signals) process.on(s, cancel);
    let result: Awaited<ReturnType<typeof installAgent>>;
    try {
      result = await installAgent({
        name: a.name,
        ...(a.version ? { version: a.version } : {}),
        env: io.env,
        onProgress: progress.show,
        signal: controller.signal,
      });
    } finally {
      for (const s of signals) process.off(s, cancel);
      progress.end();
    }
    io.out(`installed ${driver.title} ${result.version} (${recipe.package}) in ${result.prefix}\n`);
    await sayWhereFound(io, registry, driver.name, result.bin);
    if (!a.login) {
      io.err(`next: it needs ${recipe.needs}; \`baton accounts login ${driver.name} ${account}\` runs its login\n`);
      return;
    }
    const acc = driverAccount(account);
    io.err(`Now ${driver.title}'s own login${account === DEFAULT_ACCOUNT ? '' : ` for account ${account}`}: it needs ${recipe.needs}.\n`);
    await login(driver, acc, io.env, io.cwd, []);
    const status = await driver.loginStatus?.({ env: io.env, ...(acc ? { account: acc } : {}) });
    io.out(`${driver.name} ${account}: ${status ? (status.loggedIn ? `logged in (${status.method ?? 'yes'})` : 'still not logged in') : 'login finished'}\n`);
  } finally {
    await registry.dispose();
  }
}

/** Which copy baton now runs: its own, or one on the user's PATH that comes first. */
async function sayWhereFound(io: Io, registry: Registry, name: string, bin: string): Promise<void> {
  const found = await registry.detect(name, { refresh: true });
  if (!found.installed) throw new BatonError(`installed, but baton does not find ${name} (looked on PATH, then in ${bin})`, EXIT.installFailed);
  if (found.path === bin) io.out(`baton runs it from ${bin}\n`);
  else io.out(`baton runs the copy on your PATH first: ${found.path}${found.version ? ` (${found.version})` : ''}; the one installed here is ${bin}\n`);
  if (found.untestedVersion) {
    const range = registry.get(name).testedVersions ?? found.untestedVersion;
    io.err(`baton: warning: version ${found.version ?? '?'} is outside the tested range (${range}); it may work, but its logs may not be read correctly\n`);
  }
}
