// Versions read from agent CLIs (`<cli> --version`), remembered per executable: its real
// path, the arguments it was asked with, and the file's size and modification time. A CLI
// is then started for its version once per installed build instead of at every `baton
// agents` and every picker (opencode takes a second or more to answer). Kept in
// $BATON_HOME/cache/versions.json when BATON_HOME is set (everything of baton's under one
// directory), else $XDG_CACHE_HOME/baton/versions.json (default ~/.cache/baton); the file
// 0600 in a 0700 directory. A cache only: missing, unreadable, corrupt or unwritable, it is
// passed by and the CLI asked again. It holds paths and versions, and the model lists some
// CLIs give (model-cache.ts, under keys of their own), nothing else.

import { readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { ensurePrivateDir, FILE_MODE } from '../transcript/store-home.js';

interface CacheEntry {
  size: number;
  mtimeMs: number;
  version: string;
}

/** Entries kept at most; the oldest written go first. */
const MAX_ENTRIES = 200;

/**
 * Where the cache lives for this environment (the one the CLIs get, which is the user's);
 * undefined when it names no absolute place (no BATON_HOME, XDG_CACHE_HOME or HOME): then
 * nothing is cached.
 */
export function versionCachePath(env: NodeJS.ProcessEnv): string | undefined {
  if (env.BATON_HOME && isAbsolute(env.BATON_HOME)) return join(env.BATON_HOME, 'cache', 'versions.json');
  if (env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME)) return join(env.XDG_CACHE_HOME, 'baton', 'versions.json');
  if (env.HOME && isAbsolute(env.HOME)) return join(env.HOME, '.cache', 'baton', 'versions.json');
  return undefined;
}

function readCache(file: string): Record<string, CacheEntry> {
  try {
    const data: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, CacheEntry>) : {};
  } catch {
    return {};
  }
}

/** The executable's identity: where it really is, and the size and mtime of that file. */
function identify(path: string): { real: string; size: number; mtimeMs: number } | undefined {
  try {
    const real = realpathSync(path);
    const st = statSync(real);
    return { real, size: st.size, mtimeMs: st.mtimeMs };
  } catch {
    return undefined;
  }
}

// Writes from one process go one after another, each merged with what the file holds then.
let writing: Promise<void> = Promise.resolve();

function remember(file: string, key: string, entry: CacheEntry): Promise<void> {
  writing = writing.then(() => {
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      ensurePrivateDir(dirname(file));
      const all = readCache(file);
      delete all[key];
      all[key] = entry;
      const keys = Object.keys(all);
      for (const k of keys.slice(0, Math.max(0, keys.length - MAX_ENTRIES))) delete all[k];
      writeFileSync(tmp, JSON.stringify(all), { mode: FILE_MODE });
      renameSync(tmp, file);
    } catch {
      // Not writable (a read-only home, a full disk, a file in the way): the next start asks the CLI again.
      try {
        rmSync(tmp, { force: true });
      } catch {
        // nothing was written
      }
    }
  });
  return writing;
}

/**
 * The version `probe` finds for executable `path` asked with `args`, from the cache when
 * the same file (same real path, size and modification time) was asked before (unless
 * `refresh`); a version found is remembered, nothing found is not (the next call asks again).
 */
export async function cachedVersion(
  path: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  probe: () => Promise<string | undefined>,
  opts: { refresh?: boolean } = {},
): Promise<string | undefined> {
  const file = versionCachePath(env);
  const id = file ? identify(path) : undefined;
  if (!file || !id) return probe();
  const key = JSON.stringify([id.real, ...args]);
  const hit = opts.refresh ? undefined : readCache(file)[key];
  if (hit && hit.size === id.size && hit.mtimeMs === id.mtimeMs && typeof hit.version === 'string') return hit.version;
  const version = await probe();
  if (version) await remember(file, key, { size: id.size, mtimeMs: id.mtimeMs, version });
  return version;
}
