// The `detect()` of a built-in driver, told the CLI's facts: the command looked up on the
// PATH the CLI will get, its version read from the npm package it belongs to where it can
// be (no start of a CLI that takes seconds to load), else asked with `--version` under a
// deadline. Whether that version is inside the tested range is the registry's question
// (normalize-driver.ts), not this one's. It never installs, logs in or changes anything.

import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { DetectResult } from './api.js';
import { findExecutable, probeVersion } from './find-executable.js';

export interface CliFacts {
  command: string;
  installHint: string;
  loginHint: string;
  /** The npm package whose package.json (at or above the resolved executable) holds the version. */
  npmPackage?: string;
  /** Deadline for `<command> --version` when the package says nothing. Default 5 s. */
  probeTimeoutMs?: number;
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

export async function detectCli(cli: CliFacts, env: NodeJS.ProcessEnv): Promise<DetectResult> {
  const path = findExecutable(cli.command, env);
  const result: DetectResult = { installed: Boolean(path), installHint: cli.installHint, loginHint: cli.loginHint };
  if (!path) return result;
  result.path = path;
  const version = (cli.npmPackage ? npmPackageVersion(path, cli.npmPackage) : undefined) ?? (await probeVersion(path, ['--version'], env, cli.probeTimeoutMs));
  if (version) result.version = version;
  return result;
}
