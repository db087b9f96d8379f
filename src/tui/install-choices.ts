// The picker's rows for agents baton can install (`baton agents install`) that are not
// installed: "Install Qwen Code" with what the CLI needs before it can run a turn (a login,
// an API key, a local server). Taking one opens a tab running baton's own install command
// with --login, whose progress bar and then the CLI's login show in that tab, under the
// agent's default account. Its own module so agent-choices.ts only asks it for rows. It
// installs nothing itself.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';
import { DEFAULT_ACCOUNT } from '../plugins/account-dir.js';
import { defaultAccount } from '../plugins/account-store.js';
import type { HarnessDriver } from '../plugins/api.js';
import { installRecipes } from '../plugins/managed-agents.js';
import type { PickerChoice } from './picker.js';
import type { TabLaunch } from './tab.js';

/** Said in the new-tab picker when no agent CLI was found: the install rows are right there. */
export const INSTALL_NOTE = 'No agent CLI found on your PATH. Pick one to install it (baton agents install NAME), or see `baton agents`.';

/** The label of an agent's install row. */
export const installLabel = (title: string) => `Install ${title}`;

/** A row for each of `missing` (drivers found not installed) that baton knows how to install. */
export function installRows<C>(missing: readonly HarnessDriver[], value: (name: string) => C): PickerChoice<C>[] {
  const recipes = installRecipes();
  return missing.flatMap((d) => {
    const r = recipes.get(d.name);
    return r ? [{ label: installLabel(d.title), detail: `${r.version} · needs ${r.needs}`, value: value(d.name) }] : [];
  });
}

function batonCli(): string {
  const built = join(packageRoot(), 'dist/src/cli.js');
  return existsSync(built) ? built : process.argv[1]!;
}

/** The tab that installs agent `name` and then runs its login (the agent's default account). */
export function installTab(name: string, title: string, cwd: string, env: NodeJS.ProcessEnv): TabLaunch {
  const account = defaultAccount(env, name);
  const args = [batonCli(), 'agents', 'install', name, '--login', ...(account === DEFAULT_ACCOUNT ? [] : ['--account', account])];
  return { command: process.execPath, args, env: {}, cwd, agent: 'shell', title: `install ${title}` };
}
