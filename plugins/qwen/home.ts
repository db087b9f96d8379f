// Where Qwen Code 0.15 keeps its state for one baton account and its chat logs, and the one
// setting baton always forces. QWEN_HOME holds config (an account's is
// `$BATON_HOME/accounts/qwen/<account>`, else the user's own QWEN_HOME, else
// ~/.qwen); chats live under QWEN_RUNTIME_DIR (default: QWEN_HOME) in
// `projects/<cwd, every char outside [A-Za-z0-9] as "-">/chats/<session id>.jsonl`.
// Auto-update: qwen's TUI runs `npm install -g` of its latest release on start unless
// general.enableAutoUpdate is false, so every run gets a system settings file (the highest
// precedence layer, through QWEN_CODE_SYSTEM_SETTINGS_PATH) that is the user's own system
// settings plus that one value. It never edits the user's own settings files or chat logs.

import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { accountDir, configBase, ensureAccountDir } from '../../src/plugins/kit.js';

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
/** Qwen Code's settings schema version in 0.15 (it migrates and rewrites older files). */
const SETTINGS_VERSION = 4;

/** `$BATON_HOME/accounts/qwen/<account>`. */
export function qwenAccountDir(env: NodeJS.ProcessEnv, account: string): string {
  return accountDir(env, 'qwen', account);
}

function expand(p: string, env: NodeJS.ProcessEnv): string {
  const home = env.HOME || homedir();
  if (p === '~') return home;
  if (p.startsWith('~/')) return join(home, p.slice(2));
  return isAbsolute(p) ? p : resolve(p);
}

/** The QWEN_HOME a run uses. */
export function qwenHome(env: NodeJS.ProcessEnv, account?: string): string {
  if (account) return qwenAccountDir(env, account);
  return env.QWEN_HOME ? expand(env.QWEN_HOME, env) : join(env.HOME || homedir(), '.qwen');
}

/** Where a run's chats go: QWEN_RUNTIME_DIR, else its QWEN_HOME. */
export function qwenRuntimeDir(env: NodeJS.ProcessEnv, account?: string): string {
  return env.QWEN_RUNTIME_DIR ? expand(env.QWEN_RUNTIME_DIR, env) : qwenHome(env, account);
}

/** Qwen Code's directory name for a project path. */
export function qwenProjectId(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-');
}

export function chatsDir(runtimeDir: string, cwd: string): string {
  return join(runtimeDir, 'projects', qwenProjectId(cwd), 'chats');
}

/** The chat log of `session`: under `cwd`'s project first, then under any project. */
export function findChatLog(runtimeDir: string, cwd: string, session: string): string | undefined {
  if (!SESSION_ID.test(session)) return undefined;
  const file = `${session}.jsonl`;
  const direct = join(chatsDir(runtimeDir, cwd), file);
  if (existsSync(direct)) return direct;
  let projects: string[];
  try {
    projects = readdirSync(join(runtimeDir, 'projects'));
  } catch {
    return undefined;
  }
  for (const p of projects) {
    const candidate = join(runtimeDir, 'projects', p, 'chats', file);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** The system settings file Qwen Code would read without baton. */
function userSystemSettingsPath(env: NodeJS.ProcessEnv): string {
  return (
    env.QWEN_CODE_SYSTEM_SETTINGS_PATH ||
    (process.platform === 'darwin' ? '/Library/Application Support/QwenCode/settings.json' : '/etc/qwen-code/settings.json')
  );
}

function readJsonObject(path: string): Record<string, unknown> {
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    // Missing, or JSON with comments baton does not parse: only the forced value is kept.
    return {};
  }
}

/**
 * Writes baton's system settings layer (0600, in `$XDG_CONFIG_HOME/baton/qwen/`, atomically)
 * and returns its path: the user's own system settings with general.enableAutoUpdate false.
 */
export function writeSystemSettings(env: NodeJS.ProcessEnv): string {
  const dir = join(configBase(env), 'baton', 'qwen');
  const path = join(dir, 'system-settings.json');
  const source = userSystemSettingsPath(env);
  const base = readJsonObject(source);
  const general = base.general && typeof base.general === 'object' && !Array.isArray(base.general) ? (base.general as Record<string, unknown>) : {};
  const merged = { ...base, general: { ...general, enableAutoUpdate: false }, $version: base.$version ?? SETTINGS_VERSION };
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(merged, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
  return path;
}

/** The environment additions every qwen run gets: the account's QWEN_HOME and the no-auto-update layer. */
export function qwenRunEnv(env: NodeJS.ProcessEnv, account?: string): Record<string, string> {
  const out: Record<string, string> = { QWEN_CODE_SYSTEM_SETTINGS_PATH: writeSystemSettings(env) };
  if (account) {
    out.QWEN_HOME = ensureAccountDir(env, 'qwen', account);
  }
  return out;
}
