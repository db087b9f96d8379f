// Loading driver modules from files: the user's drop-ins (`*.js`, `*.mjs` in
// $XDG_CONFIG_HOME/baton/plugins and each `--plugins DIR`) and baton's built-ins (the
// `index` module of each folder of plugins/, one folder per CLI). A module
// exports a driver (default export, or a named `driver`), or a factory `(kit) => driver`.
// Each file is checked on load; a broken one becomes a problem naming its path and never
// stops the others. Watching re-imports changed files (ESM cannot unload a module, so an
// edited file is imported under a new URL; the old instance is simply no longer used).
// Beyond calling a factory export, it never runs a driver's code: loading is all it does.
// Drop-ins go through drop-in-load.ts, which checks each in a worker under a deadline first.

import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DriverDefinition } from './api.js';
import * as kit from './kit.js';
import { driverProblems } from './validate.js';
import { watchPath, type PathWatcher } from './watch-path.js';

export interface PluginProblem {
  /** The file (or config) the problem is in. */
  path: string;
  message: string;
  /** Every file involved, when more than one is (a duplicate name). */
  paths?: string[];
}

export interface LoadedModule {
  path: string;
  /** The URL it was imported under: changes exactly when the file does. */
  url?: string;
  /** As the file defines it; the registry makes the HarnessDriver from it (normalize-driver.ts). */
  driver?: DriverDefinition;
  problem?: PluginProblem;
}

export const DROP_IN_EXTENSIONS = ['.js', '.mjs'];

/** What a drop-in's factory export receives: src/plugins/kit.ts, whole. */
export type PluginKit = typeof kit;

/** `$XDG_CONFIG_HOME/baton`, else `~/.config/baton`, from the given environment. */
export function configDir(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg?.startsWith('/') ? xdg : join(env.HOME || homedir(), '.config');
  return join(base, 'baton');
}

/** The user's own drop-in directory. */
export function defaultPluginDir(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), 'plugins');
}

/** Plugin files directly in `dir` with one of `extensions`, sorted by name; none when the dir is missing. */
export function listPluginFiles(dir: string, extensions = DROP_IN_EXTENSIONS): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => extensions.includes(extname(n)) && !n.startsWith('.') && !n.endsWith('.d.ts') && !n.includes('.test.'))
    .sort()
    .map((n) => resolve(dir, n))
    .filter((p) => {
      try {
        return statSync(p).isFile();
      } catch {
        return false;
      }
    });
}

function firstLine(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg.split('\n')[0]!.trim() || 'unknown error';
}

/**
/**
 * The built-in drivers: `DIR/<cli>/index.<ext>`, one per folder, by folder name. The other
 * modules of a folder are the driver's own parts and are never imported here.
 */
export function builtinDriverFiles(dir: string, extensions: readonly string[]): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of names) {
    const index = extensions
      .map((ext) => join(dir, name, `index${ext}`))
      .find((p) => {
        try {
          return statSync(p).isFile();
        } catch {
          return false;
        }
      });
    if (index) out.push(resolve(index));
  }
  return out;
}

/**
 * The URL a plugin file is imported under: its path plus a stamp of its mtime and size, so
 * it changes exactly when the file does (and an edited file is imported afresh).
 */
export function pluginUrl(path: string): string | PluginProblem {
  try {
    const st = statSync(path);
    return `${pathToFileURL(path).href}?v=${st.mtimeMs}-${st.size}`;
  } catch (err) {
    return { path, message: `cannot read: ${firstLine(err)}` };
  }
}

/**
 * Import one plugin file and check what it exports. Never throws. `url` imports it under
 * that URL (from `pluginUrl`, taken once by the caller) instead of a fresh stamp.
 */
export async function loadPluginFile(path: string, opts: { url?: string } = {}): Promise<LoadedModule> {
  const url = opts.url ?? pluginUrl(path);
  if (typeof url !== 'string') return { path, problem: url };
  let mod: Record<string, unknown>;
  try {
    mod = (await import(url)) as Record<string, unknown>;
  } catch (err) {
    return { path, problem: { path, message: `failed to load: ${firstLine(err)}` } };
  }
  let exported = mod.default ?? mod.driver;
  if (exported === undefined) {
    return { path, problem: { path, message: 'exports no driver: expected a default export or a named `driver` export' } };
  }
  if (typeof exported === 'function') {
    try {
      exported = await (exported as (k: PluginKit) => unknown)(kit);
    } catch (err) {
      return { path, problem: { path, message: `its driver factory threw: ${firstLine(err)}` } };
    }
  }
  const problems = driverProblems(exported);
  if (problems.length) return { path, problem: { path, message: `not a valid driver: ${problems.join('; ')}` } };
  return { path, url, driver: exported as DriverDefinition };
}

/**
 * Follow plugin directories (created later or not) and call `onChange` once per burst of
 * changes: editors save in several steps, and one reload per save is enough.
 */
export function watchPluginDirs(
  dirs: readonly string[],
  onChange: () => void,
  opts: { debounceMs?: number; extensions?: string[]; files?: string[] } = {},
): { ready: Promise<void>; close(): Promise<void> } {
  const exts = opts.extensions ?? DROP_IN_EXTENSIONS;
  let timer: NodeJS.Timeout | undefined;
  const kick = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(onChange, opts.debounceMs ?? 100);
  };
  const watchers: PathWatcher[] = [
    ...dirs.map((d) =>
      watchPath(d, { dir: true }, (event, p) => {
        if (event === 'addDir' || event === 'unlinkDir' || exts.includes(extname(p))) kick();
      }),
    ),
    ...(opts.files ?? []).map((f) => watchPath(f, { dir: false }, kick)),
  ];
  return {
    ready: Promise.all(watchers.map((w) => w.ready)).then(() => undefined),
    async close() {
      if (timer) clearTimeout(timer);
      await Promise.all(watchers.map((w) => w.close()));
    },
  };
}
