// The built-in driver for OpenAI's Codex CLI (`codex`, npm @openai/codex), tested with 0.171.0.
// Headless turns run `codex exec --json` (headless.ts), the TUI is launched with
// `--no-daemon` (launch.ts), and transcripts come from codex's own rollout logs under
// CODEX_HOME (log.ts, ingest.ts). Accounts are separate CODEX_HOMEs. A change to another
// model is made in the running TUI by `/model <name>` (model-change.ts), else by a relaunch
// with resume and -m. Should a run leave codex's app-server daemon behind anyway,
// `endDaemons` ends it by pid (leftovers.ts). This module wires those together; it holds no state.

import { type CliFacts, detectCli, type DriverEnv, type DriverDefinition } from '../../src/plugins/kit.js';
import { endCodexDaemons } from './leftovers.js';
import { CODEX_INSTALL_HINT, CODEX_LOGIN_HINT, runCodexTurn } from './headless.js';
import { codexLocalEndpoint } from './local.js';
import { codexHome } from './home.js';
import { codexSessionLogPath, ingestCodex, readCodexSession } from './ingest.js';
import { codexLaunch } from './launch.js';
import { changeCodexModel } from './model-change.js';
import { codexModels } from './models.js';
import { codexInputDraft, codexStatusFromScreen } from './screen.js';
import { codexLogin, codexLoginStatus } from './login.js';

export const CODEX_TESTED_VERSIONS = '0.171.x';

const CLI: CliFacts = { command: 'codex', installHint: CODEX_INSTALL_HINT, loginHint: CODEX_LOGIN_HINT };

export interface CodexDriver extends DriverDefinition {
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
  // A bracketed paste and its Enter in one write submit it (9/9 first-try, tui-delivery): no
  // moment between them in which codex reads a fast burst and takes the Enter for a new line.
  capabilities: { resume: true, fork: true, enterWithPaste: true, accounts: true, permissionModes: true, launchModes: true },
  detect: ({ env }) => detectCli(CLI, env),
  launch: codexLaunch,
  loginStatus: codexLoginStatus,
  login: codexLogin,
  ingest: ingestCodex,
  statusFromScreen: codexStatusFromScreen,
  inputDraft: codexInputDraft,
  headless: runCodexTurn,
  localEndpoint: codexLocalEndpoint,
  models: codexModels,
  changeModelInTab: changeCodexModel,
  readSession: readCodexSession,
  sessionLogPath: codexSessionLogPath,
  endDaemons: ({ env, account, since }) => endCodexDaemons({ codexHome: codexHome(env, account), ...(since ? { startedAfter: since } : {}) }),
  endLeftovers: (opts) => driver.endDaemons(opts),
};

export default driver;
