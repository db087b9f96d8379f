// Where opencode keeps its state for one baton account, and how baton's settings reach it.
// opencode follows the XDG base dirs: credentials (auth.json) and the session database
// (opencode.db) under `$XDG_DATA_HOME/opencode`, config under `$XDG_CONFIG_HOME/opencode`,
// the TUI's recent models under `$XDG_STATE_HOME/opencode` (shared by every account).
// A baton account is `$BATON_HOME/accounts/opencode/<account>` with `data/` and
// `config/` in it, selected by pointing those two variables there. Settings go through
// opencode's own variables, merged over what the user already set: OPENCODE_CONFIG_CONTENT
// (the model) and OPENCODE_PERMISSION (headless approvals). Lookups and env only: it never
// writes under opencode's dirs, and creates nothing but an account's own directory.

import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { accountDir as sharedAccountDir, ensureAccountDir } from '../../src/plugins/kit.js';

export const OPENCODE_VERSION = '1.18.33';
export const OPENCODE_INSTALL_HINT = `npm install -g opencode-ai@${OPENCODE_VERSION}`;
export const OPENCODE_LOGIN_HINT =
  "run `opencode auth login` to add a provider key (or set the provider's key variable, e.g. ANTHROPIC_API_KEY), or configure a provider in opencode.json";

const abs = (p: string | undefined): string | undefined => (p && isAbsolute(p) ? p : undefined);
const home = (env: NodeJS.ProcessEnv) => env.HOME || homedir();

/** `$BATON_HOME/accounts/opencode/<account>`. */
export function accountDir(env: NodeJS.ProcessEnv, account: string): string {
  return sharedAccountDir(env, 'opencode', account);
}

/** The environment additions that select an account (none without one); creates its dirs (0700). */
export function opencodeAccountEnv(env: NodeJS.ProcessEnv, account?: string): Record<string, string> {
  if (!account) return {};
  const dir = ensureAccountDir(env, 'opencode', account);
  const out = { XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') };
  for (const d of Object.values(out)) mkdirSync(d, { recursive: true, mode: 0o700 });
  return out;
}

/** `opencode` under the data dir a run uses: the account's, else `$XDG_DATA_HOME`, else ~/.local/share. */
export function opencodeDataDir(env: NodeJS.ProcessEnv, account?: string): string {
  if (account) return join(accountDir(env, account), 'data', 'opencode');
  return join(abs(env.XDG_DATA_HOME) ?? join(home(env), '.local/share'), 'opencode');
}

/**
 * `opencode` under the state dir (`$XDG_STATE_HOME`, else ~/.local/state): the TUI's
 * recent models (model.json), prompt history. Accounts do not move it: baton sets only the
 * data and config dirs.
 */
export function opencodeStateDir(env: NodeJS.ProcessEnv): string {
  return join(abs(env.XDG_STATE_HOME) ?? join(home(env), '.local/state'), 'opencode');
}

/**
 * The session database, as opencode 1.18 picks it: OPENCODE_DB (absolute, or relative to
 * the data dir), else `opencode.db` for release builds, else a channel build's
 * `opencode-<channel>.db` (the newest one, when opencode.db is not there).
 * Undefined for an in-memory database.
 */
export function opencodeDbPath(env: NodeJS.ProcessEnv, account?: string): string | undefined {
  const data = opencodeDataDir(env, account);
  const chosen = env.OPENCODE_DB;
  if (chosen) return chosen === ':memory:' ? undefined : isAbsolute(chosen) ? chosen : join(data, chosen);
  const main = join(data, 'opencode.db');
  if (existsSync(main)) return main;
  let best: { path: string; mtime: number } | undefined;
  try {
    for (const name of readdirSync(data)) {
      if (!/^opencode-[A-Za-z0-9._-]+\.db$/.test(name)) continue;
      const path = join(data, name);
      const mtime = statSync(path).mtimeMs;
      if (!best || mtime > best.mtime) best = { path, mtime };
    }
  } catch {
    // no data dir yet: opencode has not run here
  }
  return best?.path ?? main;
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function mergeDeep(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = isObj(v) && isObj(out[k]) ? mergeDeep(out[k] as Json, v) : v;
  return out;
}

/**
 * `value` merged over the JSON object already in `name` (the user's own setting wins
 * everywhere baton sets nothing). Undefined when the user's value is not a JSON object
 * (opencode also reads JSONC there): baton then leaves it alone rather than replace it.
 */
export function mergeJsonVar(env: NodeJS.ProcessEnv, name: string, value: Json): string | undefined {
  const current = env[name];
  if (!current?.trim()) return JSON.stringify(value);
  try {
    const parsed: unknown = JSON.parse(current);
    return isObj(parsed) ? JSON.stringify(mergeDeep(parsed, value)) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Approvals for a headless turn without --yes: what can change files, run commands or reach
 * the network asks, and baton's ACP harness answers every ask with "reject". opencode's own
 * default allows all of these without asking.
 */
export const HEADLESS_ASK = { edit: 'ask', bash: 'ask', webfetch: 'ask', websearch: 'ask', external_directory: 'ask' } as const;
