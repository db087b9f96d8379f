// Claude Code's login for one account, as the CLI stores it: a Claude account's OAuth
// tokens in `<config dir>/.credentials.json` (claudeAiOauth), or an API key saved by its
// /login in the global config `.claude.json` (primaryApiKey), which lives in
// CLAUDE_CONFIG_DIR when that is set and in HOME otherwise; else a key or token in the
// environment. `claude auth login` signs in. Reads only; never returns a secret.

import { homedir } from 'node:os';
import { join } from 'node:path';
import { hasText, loginFromEnv, readJsonObject, type AccountOptions, type LaunchSpecDefinition, type LoginStatus } from '../../src/plugins/kit.js';
import { claudeAccountEnv, claudeConfigDir } from './home.js';

function globalConfig(env: NodeJS.ProcessEnv, account?: string): string {
  if (account || env.CLAUDE_CONFIG_DIR) return join(claudeConfigDir(env, account), '.claude.json');
  return join(env.HOME || homedir(), '.claude.json');
}

export async function claudeLoginStatus({ env, account }: AccountOptions): Promise<LoginStatus> {
  const credentials = join(claudeConfigDir(env, account), '.credentials.json');
  if (hasText(readJsonObject(credentials), 'claudeAiOauth', 'accessToken')) return { loggedIn: true, method: 'Claude account (OAuth)', source: credentials };
  const config = globalConfig(env, account);
  if (hasText(readJsonObject(config), 'primaryApiKey')) return { loggedIn: true, method: 'API key saved by /login', source: config };
  return loginFromEnv(env, ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN'], { loggedIn: false, source: credentials });
}

export function claudeLogin({ env, account, cwd }: AccountOptions & { cwd: string }): LaunchSpecDefinition {
  return { command: 'claude', args: ['auth', 'login'], env: claudeAccountEnv(env, account), cwd };
}
