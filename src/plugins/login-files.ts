// Reading what an agent CLI stores about its login, for the drivers' loginStatus(): a JSON
// file read whole if it is there and small, and a string field of it. Reads only, never
// throws (a missing, unreadable or malformed file is "not there"), and it never returns a
// secret: callers ask whether a field holds something, not what.

import { readFileSync, statSync } from 'node:fs';
import type { LoginStatus } from './api.js';

const MAX_BYTES = 1024 * 1024;

/** The JSON object in `file`, or undefined when it is missing, too large, or not an object. */
export function readJsonObject(file: string): Record<string, unknown> | undefined {
  try {
    if (statSync(file).size > MAX_BYTES) return undefined;
    const v: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the value at `path` in `obj` is a string that is not blank. */
export function hasText(obj: unknown, ...path: string[]): boolean {
  let v: unknown = obj;
  for (const k of path) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
  return typeof v === 'string' && v.trim() !== '';
}

/** Logged in through the first of `vars` that is set in `env`, shared by every account. */
export function loginFromEnv(env: NodeJS.ProcessEnv, vars: readonly string[], fallback: LoginStatus): LoginStatus {
  const set = vars.find((v) => env[v]?.trim());
  return set ? { loggedIn: true, method: `${set} in the environment (every account)` } : fallback;
}
