// Where gemini keeps its state for one baton account, and where its chat logs are. Gemini
// 0.61 puts `.gemini/` under GEMINI_CLI_HOME (an account's is
// `$BATON_HOME/accounts/gemini/<account>`), else under HOME; a project's chats
// are `.gemini/tmp/<slug>/chats/session-<YYYY-MM-DDTHH-MM>-<id8>.jsonl`, the slug mapped from
// the project directory in `.gemini/projects.json`, and each log's header names the project
// by sha256 of its path. Lookups only, except seeding a new baton account's settings; it never
// writes gemini's logs.

import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, realpathSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { accountDir, ensureAccountDir } from '../../src/plugins/kit.js';

/** The `.gemini` directory a run uses. */
export function geminiDir(env: NodeJS.ProcessEnv, account?: string): string {
  if (account) return join(accountDir(env, 'gemini', account), '.gemini');
  return join(env.GEMINI_CLI_HOME || env.HOME || homedir(), '.gemini');
}

/**
 * The environment additions that select an account (none without one). A new account's
 * `.gemini/settings.json` is seeded with session retention off, so gemini's cleanup never
 * deletes a session baton means to resume; an existing file is never touched. Gemini keeps
 * a Google login in the OS keychain when there is one, under one name for every home
 * ("gemini-cli-oauth"), so two accounts would share it: GEMINI_FORCE_FILE_STORAGE puts it in
 * the account's own `.gemini/gemini-credentials.json` instead.
 */
export function geminiAccountEnv(env: NodeJS.ProcessEnv, account?: string): Record<string, string> {
  if (!account) return {};
  const dir = ensureAccountDir(env, 'gemini', account);
  mkdirSync(join(dir, '.gemini'), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(join(dir, '.gemini', 'settings.json'), `${JSON.stringify({ general: { sessionRetention: { enabled: false } } }, null, 2)}\n`, {
      mode: 0o600,
      flag: 'wx',
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return { GEMINI_CLI_HOME: dir, GEMINI_FORCE_FILE_STORAGE: 'true' };
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** The directory as given and as resolved: gemini may know a project by either. */
function pathForms(cwd: string): string[] {
  const out = [cwd];
  try {
    const real = realpathSync(cwd);
    if (real !== cwd) out.push(real);
  } catch {
    // not there (any more): the given form is all there is
  }
  return out;
}

export const projectHash = (dir: string) => createHash('sha256').update(dir).digest('hex');

/** The project directory whose sha256 is `hash`, from projects.json; undefined when unknown. */
export function projectDirOf(root: string, hash: string): string | undefined {
  try {
    const projects = (JSON.parse(readFileSync(join(root, 'projects.json'), 'utf8')) as { projects?: Record<string, string> }).projects ?? {};
    return Object.keys(projects).find((p) => projectHash(p) === hash);
  } catch {
    return undefined;
  }
}

/** The chats directories that may hold `cwd`'s sessions: its slug's, or every project's while it has none. */
export function chatDirsFor(root: string, cwd: string): string[] {
  try {
    const projects = (JSON.parse(readFileSync(join(root, 'projects.json'), 'utf8')) as { projects?: Record<string, string> }).projects ?? {};
    for (const form of pathForms(cwd)) if (projects[form]) return [join(root, 'tmp', projects[form]!, 'chats')];
  } catch {
    // no registry yet: the project is not known to gemini
  }
  return list(join(root, 'tmp')).map((slug) => join(root, 'tmp', slug, 'chats'));
}

export interface ChatHeader {
  sessionId: string;
  projectHash: string;
  started: number;
  kind?: string;
}

/** The header (first line) of a chat log, once it is complete. */
export function chatHeader(path: string): ChatHeader | undefined {
  // Headers are small; 64 KiB holds one with room to spare.
  const buf = Buffer.alloc(64 * 1024);
  let n: number;
  try {
    const fd = openSync(path, 'r');
    try {
      n = readSync(fd, buf, 0, buf.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  const text = buf.toString('utf8', 0, n);
  const nl = text.indexOf('\n');
  if (nl < 0) return undefined;
  try {
    const h = JSON.parse(text.slice(0, nl)) as { sessionId?: unknown; projectHash?: unknown; startTime?: unknown; kind?: unknown };
    if (typeof h.sessionId !== 'string' || typeof h.projectHash !== 'string') return undefined;
    const started = Date.parse(String(h.startTime ?? ''));
    return {
      sessionId: h.sessionId,
      projectHash: h.projectHash,
      started: Number.isNaN(started) ? 0 : started,
      ...(typeof h.kind === 'string' ? { kind: h.kind } : {}),
    };
  } catch {
    return undefined;
  }
}

const SESSION_FILE = /^session-.*\.jsonl$/;

/** The chat log of session `id` in any project; undefined when there is none. */
export function findChat(root: string, id: string): string | undefined {
  const short = id.slice(0, 8);
  for (const slug of list(join(root, 'tmp'))) {
    const dir = join(root, 'tmp', slug, 'chats');
    for (const name of list(dir)) {
      if (!SESSION_FILE.test(name) || !name.endsWith(`-${short}.jsonl`)) continue;
      const path = join(dir, name);
      if (chatHeader(path)?.sessionId === id) return path;
    }
  }
  return undefined;
}
