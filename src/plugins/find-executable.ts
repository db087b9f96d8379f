// Where would a CLI run from, and which version is it? `detect()` helpers shared by drivers:
// a PATH lookup against the environment the CLI will get (not baton's own), and a version
// probe run as its own process group under a deadline so a hanging `--version` cannot hang
// `baton agents` (or, without starting anything, the version its npm package records); a
// version found is cached per executable file. Never installs, logs in or
// changes anything (but that cache).

import { accessSync, constants, readFileSync, realpathSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { runGroup } from '../proc/index.js';
import { cachedVersion } from './version-cache.js';
import { extractVersion } from './version-range.js';

function isExecutableFile(p: string): boolean {
  try {
    if (!statSync(p).isFile()) return false;
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Absolute path of `command` as `env.PATH` resolves it, or undefined when absent. */
export function findExecutable(command: string, env: NodeJS.ProcessEnv, cwd = process.cwd()): string | undefined {
  if (!command) return undefined;
  if (command.includes('/')) {
    const p = isAbsolute(command) ? command : resolve(cwd, command);
    return isExecutableFile(p) ? p : undefined;
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, command);
    if (isExecutableFile(p)) return p;
  }
  return undefined;
}

/**
 * Runs `path args` (e.g. `--version`) and returns the first `N.N[.N]` it prints, or
 * undefined when it prints none, fails, or takes longer than `timeoutMs`. A version found is
 * remembered for that executable file (version-cache.ts): the same build is not started again.
 */
export function probeVersion(path: string, args: readonly string[], env: NodeJS.ProcessEnv, timeoutMs = 5000): Promise<string | undefined> {
  return cachedVersion(path, args, env, async () => {
    try {
      const r = await runGroup(path, args, { env, timeoutMs, maxBytes: 16 * 1024 });
      if (r.timedOut) return undefined;
      return extractVersion(r.stdout) ?? extractVersion(r.stderr);
    } catch {
      return undefined;
    }
  });
}

/**
 * The version in the package.json of npm package `name`, looked for in the resolved
 * executable's directory and up to three above it (a package's bin/ or dist/); undefined
 * for an executable outside that package (another installer's binary).
 */
export function npmPackageVersion(bin: string, name: string): string | undefined {
  let dir: string;
  try {
    dir = dirname(realpathSync(bin));
  } catch {
    return undefined;
  }
  for (let i = 0; i < 4; i++, dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: unknown };
      if (pkg.name === name) return typeof pkg.version === 'string' ? pkg.version : undefined;
    } catch {
      // not here: one level up
    }
  }
  return undefined;
}
