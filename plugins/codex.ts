// The built-in driver for OpenAI's Codex CLI (`codex`, npm @openai/codex), tested with 0.171.0.
// Headless turns run `codex exec --json` (codex-headless.ts), the TUI is launched with
// `--no-daemon` (codex-launch.ts), and transcripts come from codex's own rollout logs under
// CODEX_HOME (codex-log.ts, codex-ingest.ts). Accounts are separate CODEX_HOMEs. Should a
// run leave codex's app-server daemon behind anyway, `endDaemons` ends it by pid
// (codex-daemon.ts). This module wires those together; it holds no state.

import type { AgentStatus, DriverEnv, HarnessDriver } from '../src/plugins/api.js';
import { detectCli, type CliFacts } from '../src/plugins/detect-cli.js';
import { endCodexDaemons } from './codex-daemon.js';
import { CODEX_INSTALL_HINT, CODEX_LOGIN_HINT, runCodexTurn } from './codex-headless.js';
import { codexHome } from './codex-home.js';
import { codexSessionLogPath, ingestCodex, readCodexSession } from './codex-ingest.js';
import { codexLaunch } from './codex-launch.js';

export const CODEX_TESTED_VERSIONS = '0.171.x';

// What codex 0.171's TUI shows. Approval prompts first: they also show the working footer.
const APPROVAL = /Would you like to (run|make|grant|send|apply)|Yes, just this once|No, and tell Codex what to do differently|Press enter to confirm or esc to cancel/;
const WORKING = /esc to interrupt|Waiting for startup/;
const IDLE = /\? for shortcuts|Ask Codex to do anything|for agents ·/;

export function codexStatusFromScreen(lines: readonly string[]): AgentStatus | undefined {
  const screen = lines.join('\n');
  if (APPROVAL.test(screen)) return 'approval';
  if (WORKING.test(screen)) return 'working';
  if (IDLE.test(screen)) return 'idle';
  return undefined;
}

const CLI: CliFacts = { command: 'codex', installHint: CODEX_INSTALL_HINT, loginHint: CODEX_LOGIN_HINT, tested: CODEX_TESTED_VERSIONS };

export interface CodexDriver extends HarnessDriver {
  /**
   * Ends, by pid, codex processes started at or after `since` whose executable lives under
   * the CODEX_HOME of `account` (the TUI's app-server daemon). baton calls it when it ends a
   * codex tab; returns the pids it signalled.
   */
  endDaemons(opts: DriverEnv & { account?: string; since?: Date }): Promise<number[]>;
}

export const driver: CodexDriver = {
  name: 'codex',
  title: 'Codex CLI',
  families: ['gpt'],
  testedVersions: CODEX_TESTED_VERSIONS,
  capabilities: { resume: true, fork: true, planMode: true, submit: 'paste' },
  detect: ({ env }) => detectCli(CLI, env),
  launch: codexLaunch,
  ingest: ingestCodex,
  statusFromScreen: codexStatusFromScreen,
  headless: runCodexTurn,
  readSession: readCodexSession,
  sessionLogPath: codexSessionLogPath,
  endDaemons: ({ env, account, since }) => endCodexDaemons({ codexHome: codexHome(env, account), ...(since ? { startedAfter: since } : {}) }),
  endLeftovers: (opts) => driver.endDaemons(opts),
};

export default driver;
