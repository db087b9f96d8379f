// The built-in driver for Google's Gemini CLI (`gemini`, npm @google/gemini-cli), tested with
// 0.61.0. Headless turns run `gemini -o stream-json -p` (gemini-headless.ts; not ACP, whose
// session/load is fragile in this version), the TUI is launched with its first message as
// `--prompt-interactive` (gemini-launch.ts), and transcripts come from gemini's own chat logs
// (gemini-log.ts, gemini-ingest.ts). Accounts are separate GEMINI_CLI_HOMEs. This module
// wires those together; it holds no state.

import type { AgentStatus, HarnessDriver } from '../src/plugins/api.js';
import { detectCli, type CliFacts } from '../src/plugins/detect-cli.js';
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

const CLI: CliFacts = {
  command: 'gemini',
  installHint: GEMINI_INSTALL_HINT,
  loginHint: GEMINI_LOGIN_HINT,
  tested: GEMINI_TESTED_VERSIONS,
  // `gemini --version` loads the whole CLI (and relaunches itself): seconds, over ten on a
  // busy machine. The package's own version says the same at once.
  npmPackage: '@google/gemini-cli',
  probeTimeoutMs: 15_000,
};

export const driver: HarnessDriver = {
  name: 'gemini',
  title: 'Gemini CLI',
  families: ['gemini'],
  testedVersions: GEMINI_TESTED_VERSIONS,
  capabilities: { resume: true, fork: false, planMode: true, submit: 'paste' },
  detect: ({ env }) => detectCli(CLI, env),
  launch: geminiLaunch,
  ingest: ingestGemini,
  statusFromScreen: geminiStatusFromScreen,
  headless: runGeminiTurn,
  readSession: readGeminiSession,
  sessionLogPath: geminiSessionLogPath,
};

export default driver;
