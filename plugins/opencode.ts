// The built-in driver for opencode (`opencode`, npm opencode-ai), tested with 1.18.33.
// Headless turns run over ACP (`opencode acp`) through baton's generic ACP harness
// (opencode-headless.ts; `opencode run` quotes a multi-word message), the TUI is launched
// with its first message as `--prompt` (opencode-launch.ts), and transcripts come from
// opencode's own SQLite session database (opencode-db.ts, opencode-log.ts,
// opencode-ingest.ts). Accounts are separate XDG data + config dirs (opencode-home.ts).
// This module wires those together; it holds no state.

import type { AgentStatus, HarnessDriver } from '../src/plugins/api.js';
import { detectCli, type CliFacts } from '../src/plugins/detect-cli.js';
import { runOpencodeTurn } from './opencode-headless.js';
import { OPENCODE_INSTALL_HINT, OPENCODE_LOGIN_HINT } from './opencode-home.js';
import { ingestOpencode, opencodeSessionLogPath, readOpencodeSession } from './opencode-ingest.js';
import { opencodeLaunch } from './opencode-launch.js';

export const OPENCODE_TESTED_VERSIONS = '1.18.x';

// What opencode 1.18's TUI shows: a permission dialog, the footer's interrupt hint while a
// turn runs ("esc interrupt", then "esc again to interrupt"), and the footer alone when idle.
const APPROVAL = /Permission required[\s\S]*(Allow once|Allow always|Reject)/;
const WORKING = /esc (again to )?interrupt/;
const IDLE = /ctrl\+p commands/;

export function opencodeStatusFromScreen(lines: readonly string[]): AgentStatus | undefined {
  const screen = lines.join('\n');
  if (APPROVAL.test(screen)) return 'approval';
  if (WORKING.test(screen)) return 'working';
  if (IDLE.test(screen)) return 'idle';
  return undefined;
}

const CLI: CliFacts = { command: 'opencode', installHint: OPENCODE_INSTALL_HINT, loginHint: OPENCODE_LOGIN_HINT, tested: OPENCODE_TESTED_VERSIONS, probeTimeoutMs: 20_000 };

export const driver: HarnessDriver = {
  name: 'opencode',
  title: 'opencode',
  families: ['claude', 'gpt', 'gemini', 'qwen'],
  testedVersions: OPENCODE_TESTED_VERSIONS,
  capabilities: { resume: true, fork: true, planMode: true, submit: 'paste' },
  detect: ({ env }) => detectCli(CLI, env),
  launch: opencodeLaunch,
  ingest: ingestOpencode,
  statusFromScreen: opencodeStatusFromScreen,
  headless: runOpencodeTurn,
  readSession: readOpencodeSession,
  sessionLogPath: opencodeSessionLogPath,
};

export default driver;
