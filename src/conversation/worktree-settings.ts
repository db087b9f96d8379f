// The user's worktree settings in `$XDG_CONFIG_HOME/baton/settings.json`: `worktreeSetup`,
// the command a new fork worktree runs before it is handed over (e.g. ["npm", "ci"]), as an
// argv array. It only reads; a malformed file is exit 2 naming it, never a guess, since a
// misread setup command would run something the user did not ask for.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { badInput } from '../errors.js';
import { configDir } from '../plugins/loader.js';

export const SETTINGS_FILE = 'settings.json';

export function settingsPath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), SETTINGS_FILE);
}

/** The `worktreeSetup` argv, or undefined when the file or the key is absent. */
export function worktreeSetupFromConfig(env: NodeJS.ProcessEnv): string[] | undefined {
  const file = settingsPath(env);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw badInput(`cannot read ${file}: ${(err as Error).message}`, 'fix its permissions, or remove it');
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw badInput(`${file} is not valid JSON (${(err as Error).message})`, 'fix it, or remove the file');
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw badInput(`${file} must hold a JSON object`, 'e.g. {"worktreeSetup": ["npm", "ci"]}');
  const setup = (data as Record<string, unknown>).worktreeSetup;
  if (setup === undefined || setup === null) return undefined;
  if (!Array.isArray(setup) || setup.length === 0 || !setup.every((a) => typeof a === 'string') || !setup[0]) {
    throw badInput(
      `worktreeSetup in ${file} must be a non-empty array of strings (a command and its arguments)`,
      'e.g. "worktreeSetup": ["npm", "ci"] — it runs without a shell, in the new worktree',
    );
  }
  return setup as string[];
}
