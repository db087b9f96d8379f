// The built-in driver for Google's Gemini CLI (`gemini`, npm @google/gemini-cli), tested with
// 0.61.0. Headless turns run `gemini -o stream-json -p` (gemini-headless.ts; not ACP, whose
// session/load is fragile in this version), the TUI is launched with its first message as
// `--prompt-interactive` (gemini-launch.ts), and transcripts come from gemini's own chat logs
// (gemini-log.ts, gemini-ingest.ts). Accounts are separate GEMINI_CLI_HOMEs. This module
// wires those together; it holds no state.

import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AgentStatus, DetectResult, DriverEnv, HarnessDriver } from '../src/plugins/api.js';
import { findExecutable, probeVersion } from '../src/plugins/find-executable.js';
import { versionInRange } from '../src/plugins/version-range.js';
import { GEMINI_INSTALL_HINT, GEMINI_LOGIN_HINT, runGeminiTurn } from './gemini-headless.js';
import { geminiSessionLogPath, ingestGemini, readGeminiSession } from './gemini-ingest.js';
import { geminiLaunch } from './gemini-launch.js';

export const GEMINI_TESTED_VERSIONS = '0.61.x';

// What gemini 0.61's TUI shows. A confirmation box first: the spinner line may show with it.
const APPROVAL = /Allow execution of|Apply this change\?|Do you want to proceed\?|Allow once|No, suggest changes/;
const WORKING = /\(esc to cancel|Initializing\.\.\. Prompts will be queued/;
const IDLE = /Type your message|\? for shortcuts/;

export function geminiStatusFromScreen(lines: readonly string[]): AgentStatus | undefined {
  const screen = lines.join('\n');
  if (APPROVAL.test(screen)) return 'approval';
  if (WORKING.test(screen)) return 'working';
  if (IDLE.test(screen)) return 'idle';
  return undefined;
}

/**
 * The version of the npm package the `gemini` on PATH belongs to. `gemini --version` loads the
 * whole CLI (and relaunches itself): seconds, over ten on a busy machine. Undefined when the
 * executable is not inside an @google/gemini-cli package.
 */
function packageVersion(path: string): string | undefined {
  let dir: string;
  try {
    dir = dirname(realpathSync(path));
  } catch {
    return undefined;
  }
  for (let i = 0; i < 4; i++, dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === '@google/gemini-cli') return pkg.version;
    } catch {
      // not here: one level up
    }
  }
  return undefined;
}

async function detect({ env }: DriverEnv): Promise<DetectResult> {
  const path = findExecutable('gemini', env);
  const result: DetectResult = { installed: Boolean(path), installHint: GEMINI_INSTALL_HINT, loginHint: GEMINI_LOGIN_HINT };
  if (!path) return result;
  result.path = path;
  const version = packageVersion(path) ?? (await probeVersion(path, ['--version'], env, 15_000));
  if (version) {
    result.version = version;
    if (versionInRange(version, GEMINI_TESTED_VERSIONS) === false) result.untestedVersion = GEMINI_TESTED_VERSIONS;
  }
  return result;
}

export const driver: HarnessDriver = {
  name: 'gemini',
  title: 'Gemini CLI',
  families: ['gemini'],
  testedVersions: GEMINI_TESTED_VERSIONS,
  capabilities: { resume: true, fork: false, planMode: true, submit: 'paste' },
  detect,
  launch: geminiLaunch,
  ingest: ingestGemini,
  statusFromScreen: geminiStatusFromScreen,
  headless: runGeminiTurn,
  readSession: readGeminiSession,
  sessionLogPath: geminiSessionLogPath,
};

export default driver;
