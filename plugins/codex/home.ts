// Where codex keeps its state for one baton account, and where its rollouts are: CODEX_HOME
// (an account's is `$BATON_HOME/accounts/codex/<account>`, else the user's own
// CODEX_HOME, else ~/.codex) and `sessions/YYYY/MM/DD/rollout-<local time>-<thread id>.jsonl`
// under it. Lookups only: it never writes a rollout, and it lists a few day folders rather
// than walking the whole session tree.

import { openSync, readSync, closeSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { accountDir, ensureAccountDir } from '../../src/plugins/kit.js';

/** The CODEX_HOME a run uses. */
export function codexHome(env: NodeJS.ProcessEnv, account?: string): string {
  if (account) return accountDir(env, 'codex', account);
  return env.CODEX_HOME || join(env.HOME || homedir(), '.codex');
}

/** The environment additions that select an account (none without one). */
export function codexAccountEnv(env: NodeJS.ProcessEnv, account?: string): Record<string, string> {
  if (!account) return {};
  return { CODEX_HOME: ensureAccountDir(env, 'codex', account) };
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** The first line of a file (up to 1 MiB: codex's session_meta carries its whole system prompt). */
export function firstLine(path: string, max = 1024 * 1024): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const buf = Buffer.alloc(64 * 1024);
    const parts: Buffer[] = [];
    let pos = 0;
    while (pos < max) {
      const n = readSync(fd, buf, 0, buf.length, pos);
      if (n === 0) break;
      const nl = buf.subarray(0, n).indexOf(0x0a);
      if (nl !== -1) {
        parts.push(Buffer.from(buf.subarray(0, nl)));
        return Buffer.concat(parts).toString('utf8');
      }
      parts.push(Buffer.from(buf.subarray(0, n)));
      pos += n;
    }
    return undefined; // no complete first line yet
  } finally {
    closeSync(fd);
  }
}

export interface RolloutMeta {
  id: string;
  cwd?: string;
  /** When codex created the thread (session_meta timestamp). */
  started: number;
}

/** The session_meta of a rollout, once its first line is complete. */
export function rolloutMeta(path: string): RolloutMeta | undefined {
  const line = firstLine(path);
  if (!line) return undefined;
  try {
    const r = JSON.parse(line) as { type?: string; timestamp?: string; payload?: { id?: string; cwd?: string; timestamp?: string } };
    if (r.type !== 'session_meta' || !r.payload?.id) return undefined;
    const started = Date.parse(r.payload.timestamp ?? r.timestamp ?? '');
    return { id: r.payload.id, ...(r.payload.cwd ? { cwd: r.payload.cwd } : {}), started: Number.isNaN(started) ? 0 : started };
  } catch {
    return undefined;
  }
}

const ROLLOUT = /^rollout-.*\.jsonl$/;

/** The rollout of thread `id`, searched newest day first; undefined when there is none. */
export function findRollout(home: string, id: string): string | undefined {
  const suffix = `-${id}.jsonl`;
  for (const root of [join(home, 'sessions'), join(home, 'archived_sessions')]) {
    // archived_sessions is flat; sessions is YYYY/MM/DD.
    for (const name of list(root)) if (name.endsWith(suffix) && ROLLOUT.test(name)) return join(root, name);
    for (const y of list(root)
      .filter((n) => /^\d{4}$/.test(n))
      .sort()
      .reverse()) {
      for (const m of list(join(root, y)).sort().reverse()) {
        for (const d of list(join(root, y, m))
          .sort()
          .reverse()) {
          const dir = join(root, y, m, d);
          const hit = list(dir).find((n) => n.endsWith(suffix) && ROLLOUT.test(n));
          if (hit) return join(dir, hit);
        }
      }
    }
  }
  return undefined;
}
