// Qwen Code's login for one account, as the CLI stores it in QWEN_HOME: a Qwen OAuth login
// in `oauth_creds.json`, or the auth type in `settings.json` (security.auth.selectedType)
// with its key saved there (security.auth.apiKey) or in the environment. `qwen auth` signs
// in. Reads only; never returns a secret.

import { join } from 'node:path';
import { hasText, readJsonObject, type AccountOptions, type LaunchSpecDefinition, type LoginStatus } from '../../src/plugins/kit.js';
import { qwenHome, qwenRunEnv } from './home.js';

const KEY_VARS: Record<string, string> = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY', gemini: 'GEMINI_API_KEY' };

export async function qwenLoginStatus({ env, account }: AccountOptions): Promise<LoginStatus> {
  const home = qwenHome(env, account);
  const creds = join(home, 'oauth_creds.json');
  if (hasText(readJsonObject(creds), 'access_token')) return { loggedIn: true, method: 'Qwen OAuth', source: creds };
  const settings = join(home, 'settings.json');
  const auth = (readJsonObject(settings)?.security as Record<string, unknown> | undefined)?.auth as Record<string, unknown> | undefined;
  const type = typeof auth?.selectedType === 'string' ? auth.selectedType : undefined;
  if (type && hasText(auth, 'apiKey')) return { loggedIn: true, method: `API key (${type}, in settings.json)`, source: settings };
  const envKey = type ? KEY_VARS[type] : undefined;
  if (envKey && hasText(env, envKey)) return { loggedIn: true, method: `API key (${type}, ${envKey} in the environment)`, source: settings };
  return { loggedIn: false, source: type ? settings : creds };
}

export function qwenLogin({ env, account, cwd }: AccountOptions & { cwd: string }): LaunchSpecDefinition {
  return { command: 'qwen', args: ['auth'], env: qwenRunEnv(env, account), cwd };
}
