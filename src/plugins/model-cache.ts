// Model lists asked of a CLI (an ACP agent's session/new, codex's catalog), remembered like
// its version (version-cache.ts): per executable build, per the arguments it was asked with,
// and per the environment that decides what it offers (the variables naming a model, a
// provider, an endpoint or a config home, and the account's config dir), so another account
// or provider is asked for its own list. Only a digest of those variables is kept, and keys
// and tokens count only by being set. `refresh` asks again (`baton agents --models --refresh`).

import { createHash } from 'node:crypto';
import type { ModelList } from './api.js';
import { cachedVersion } from './version-cache.js';

/** Variables that change which models a CLI offers or which it runs by default. */
const DECIDING = /MODEL|BASE_URL|PROVIDER|AUTH_TYPE|_HOME$|^HOME$|CONFIG|API_KEY|AUTH_TOKEN/;
const SECRET = /KEY|TOKEN/;

/** A digest of the variables in `env` that decide a CLI's model list. */
export function modelEnvDigest(env: NodeJS.ProcessEnv): string {
  const picked = Object.keys(env)
    .filter((k) => DECIDING.test(k) && env[k] !== undefined)
    .sort()
    // A key or token counts by being set (which providers a CLI offers), never by its value.
    .map((k) => [k, SECRET.test(k) ? 'set' : env[k]]);
  return createHash('sha256').update(JSON.stringify(picked)).digest('hex').slice(0, 16);
}

function parseList(text: string | undefined): ModelList | undefined {
  if (!text) return undefined;
  try {
    const v = JSON.parse(text) as ModelList;
    return Array.isArray(v?.models) ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The list `probe` finds for executable `path` asked with `args` in `env` (the CLI's own),
 * cached as above; an empty or missing answer is not remembered.
 */
export async function cachedModels(
  path: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  probe: () => Promise<ModelList | undefined>,
  opts: { refresh?: boolean } = {},
): Promise<ModelList | undefined> {
  const key = ['(models)', ...args, modelEnvDigest(env)];
  const text = await cachedVersion(
    path,
    key,
    env,
    async () => {
      const list = await probe();
      return list?.models.length ? JSON.stringify(list) : undefined;
    },
    opts,
  );
  return parseList(text);
}
