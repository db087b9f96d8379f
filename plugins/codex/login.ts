// Codex's login for one account, as the CLI stores it: `auth.json` in CODEX_HOME, with
// `auth_mode` "apikey" (an OPENAI_API_KEY saved by `codex login --with-api-key`) or ChatGPT
// tokens (`codex login`). Codex keeps it there unless config.toml asks for the OS keyring
// (cli_auth_credentials_store), which is not read. Reads only; never returns a secret.

import { join } from 'node:path';
import { hasText, readJsonObject, type AccountOptions, type LaunchSpecDefinition, type LoginStatus } from '../../src/plugins/kit.js';
import { codexAccountEnv, codexHome } from './home.js';

export async function codexLoginStatus({ env, account }: AccountOptions): Promise<LoginStatus> {
  const file = join(codexHome(env, account), 'auth.json');
  const auth = readJsonObject(file);
  if (hasText(auth, 'OPENAI_API_KEY')) return { loggedIn: true, method: 'API key', source: file };
  if (hasText(auth, 'tokens', 'access_token') || hasText(auth, 'tokens', 'refresh_token')) return { loggedIn: true, method: 'ChatGPT account', source: file };
  return { loggedIn: false, source: file };
}

export function codexLogin({ env, account, cwd }: AccountOptions & { cwd: string }): LaunchSpecDefinition {
  return { command: 'codex', args: ['login'], env: codexAccountEnv(env, account), cwd };
}
