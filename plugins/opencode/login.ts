// OpenCode's login for one account, as the CLI stores it: `auth.json` in its data dir
// (`$XDG_DATA_HOME/opencode`, an account's `data/opencode`), one entry per provider it is
// logged in to (`opencode auth login`). Providers configured only through the environment
// or the config's own keys are not counted. Reads only; never returns a secret.

import { join } from 'node:path';
import { readJsonObject, type AccountOptions, type LaunchSpecDefinition, type LoginStatus } from '../../src/plugins/kit.js';
import { opencodeAccountEnv, opencodeDataDir } from './home.js';

export async function opencodeLoginStatus({ env, account }: AccountOptions): Promise<LoginStatus> {
  const file = join(opencodeDataDir(env, account), 'auth.json');
  const providers = Object.keys(readJsonObject(file) ?? {}).sort();
  if (providers.length) return { loggedIn: true, method: `logged in to ${providers.join(', ')}`, source: file };
  return { loggedIn: false, source: file };
}

export function opencodeLogin({ env, account, cwd }: AccountOptions & { cwd: string }): LaunchSpecDefinition {
  return { command: 'opencode', args: ['auth', 'login'], env: opencodeAccountEnv(env, account), cwd };
}
