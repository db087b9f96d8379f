// The `detect()` of a built-in driver, told the CLI's facts: the command looked up on the
// PATH the CLI will get, its version read from the npm package it belongs to where it can
// be (no start of a CLI that takes seconds to load), else asked with `--version` under a
// deadline. Whether that version is inside the tested range is the registry's question
// (normalize-driver.ts), not this one's. It never installs, logs in or changes anything.

import type { DetectResult } from './api.js';
import { findExecutable, npmPackageVersion, probeVersion } from './find-executable.js';

export interface CliFacts {
  command: string;
  installHint: string;
  loginHint: string;
  /** The npm package whose package.json (at or above the resolved executable) holds the version. */
  npmPackage?: string;
  /** Deadline for `<command> --version` when the package says nothing. Default 5 s. */
  probeTimeoutMs?: number;
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
