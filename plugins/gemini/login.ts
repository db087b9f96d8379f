// Gemini CLI's login for one account, as the CLI stores it under its `.gemini` directory: a
// Google login in `gemini-credentials.json` (its file keychain, which a baton account always
// uses) or the older `oauth_creds.json`; or the auth type chosen in `settings.json`
// (security.auth.selectedType) with its key in the environment. A Google login of the
// user's own configuration may sit in the OS keychain instead, which is not read. Gemini has
// no login command: its first start asks how to sign in. Reads only; never returns a secret.

import { join } from 'node:path';
import { hasText, readJsonObject, type AccountOptions, type LaunchSpecDefinition, type LoginStatus } from '../../src/plugins/kit.js';
import { geminiAccountEnv, geminiDir } from './home.js';

export async function geminiLoginStatus({ env, account }: AccountOptions): Promise<LoginStatus> {
  const dir = geminiDir(env, account);
  for (const name of ['gemini-credentials.json', 'oauth_creds.json']) {
    const file = join(dir, name);
    if (readJsonObject(file)) return { loggedIn: true, method: 'Google account (OAuth)', source: file };
  }
  const settings = join(dir, 'settings.json');
  const auth = readJsonObject(settings)?.security as Record<string, unknown> | undefined;
  const type = (auth?.auth as Record<string, unknown> | undefined)?.selectedType;
  if (type === 'gemini-api-key' && hasText(env, 'GEMINI_API_KEY')) return { loggedIn: true, method: 'API key (GEMINI_API_KEY)', source: settings };
  if (type === 'vertex-ai' && (hasText(env, 'GOOGLE_API_KEY') || hasText(env, 'GOOGLE_CLOUD_PROJECT')))
    return { loggedIn: true, method: 'Vertex AI', source: settings };
  if (type === 'oauth-personal' && !account)
    return { loggedIn: false, method: 'Google login chosen; its credentials may be in the OS keychain (not read)', source: settings };
  return { loggedIn: false, source: settings };
}

export function geminiLogin({ env, account, cwd }: AccountOptions & { cwd: string }): LaunchSpecDefinition {
  return { command: 'gemini', args: [], env: geminiAccountEnv(env, account), cwd };
}
