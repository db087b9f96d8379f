// Where Claude Code keeps its state for one baton account, and where a session's own log
// is: CLAUDE_CONFIG_DIR (an account's is `$BATON_HOME/accounts/claude/<account>`,
// else the user's own CLAUDE_CONFIG_DIR, else ~/.claude), then
// `projects/<project slug>/<session id>.jsonl`. The slug is Claude Code 2.1's own rule (every
// character outside [A-Za-z0-9] becomes "-"; past 200 characters, cut and suffixed with a
// hash), so a log is found without listing every project. Lookups and the account dir only:
// it never writes a session log.

import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { accountDir, ensureAccountDir } from '../../src/plugins/kit.js';

const SLUG_MAX = 200;

/** The CLAUDE_CONFIG_DIR a run uses (an account's, the user's own, or ~/.claude). */
export function claudeConfigDir(env: NodeJS.ProcessEnv, account?: string): string {
  if (account) return accountDir(env, 'claude', account);
  return env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), '.claude');
}

/** The environment additions that select an account (none without one); creates its dir 0700. */
export function claudeAccountEnv(env: NodeJS.ProcessEnv, account?: string): Record<string, string> {
  if (!account) return {};
  return { CLAUDE_CONFIG_DIR: ensureAccountDir(env, 'claude', account) };
}

// Java's String.hashCode over UTF-16 units, as Claude Code computes it for long slugs.
function hashCode(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
  return h;
}

/** Claude Code's directory name for a project path. */
export function projectSlug(cwd: string): string {
  const slug = cwd.replace(/[^a-zA-Z0-9]/g, '-');
  if (slug.length <= SLUG_MAX) return slug;
  return `${slug.slice(0, SLUG_MAX)}-${Math.abs(hashCode(cwd)).toString(36)}`;
}

export function projectsDir(configDir: string): string {
  return join(configDir, 'projects');
}

/** Where sessions run in `cwd` are logged. */
export function projectDir(configDir: string, cwd: string): string {
  return join(projectsDir(configDir), projectSlug(cwd));
}

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * The log of session `session`: in the project dir of `cwd` first, then in any project dir
 * (a session resumed from elsewhere, a cwd given through a symlink). Undefined when none.
 */
export function findSessionLog(configDir: string, cwd: string, session: string): string | undefined {
  if (!SESSION_ID.test(session)) return undefined;
  const file = `${session}.jsonl`;
  const direct = join(projectDir(configDir, cwd), file);
  if (existsSync(direct)) return direct;
  let dirs: string[];
  try {
    dirs = readdirSync(projectsDir(configDir));
  } catch {
    return undefined;
  }
  for (const d of dirs) {
    const p = join(projectsDir(configDir), d, file);
    if (existsSync(p)) return p;
  }
  return undefined;
}
