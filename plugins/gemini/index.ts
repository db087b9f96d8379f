// The built-in driver for Google's Gemini CLI (`gemini`, npm @google/gemini-cli), tested with
// 0.61.0. Headless turns run `gemini -o stream-json -p` (headless.ts; not ACP, whose
// session/load is fragile in this version), the TUI is launched with its first message as
// `--prompt-interactive` (launch.ts), and transcripts come from gemini's own chat logs
// (log.ts, ingest.ts). Accounts are separate GEMINI_CLI_HOMEs. Another model in a running
// tab is `/model set <name>` typed at its prompt (model-change.ts), not a relaunch. This
// module wires those together; it holds no state.

import { acpModelList, type CliFacts, detectCli, type DriverDefinition } from '../../src/plugins/kit.js';
import { geminiAcpDecl } from './acp.js';
import { GEMINI_INSTALL_HINT, GEMINI_LOGIN_HINT, runGeminiTurn } from './headless.js';
import { geminiSessionLogPath, ingestGemini, readGeminiSession } from './ingest.js';
import { geminiLaunch } from './launch.js';
import { changeGeminiModel } from './model-change.js';
import { geminiInputDraft, geminiStatusFromScreen } from './screen.js';
import { geminiLogin, geminiLoginStatus } from './login.js';

export const GEMINI_TESTED_VERSIONS = '0.61.x';

const CLI: CliFacts = {
  command: 'gemini',
  installHint: GEMINI_INSTALL_HINT,
  loginHint: GEMINI_LOGIN_HINT,
  // `gemini --version` loads the whole CLI (and relaunches itself): seconds, over ten on a
  // busy machine. The package's own version says the same at once.
  npmPackage: '@google/gemini-cli',
  probeTimeoutMs: 15_000,
};

export const driver: DriverDefinition = {
  name: 'gemini',
  title: 'Gemini CLI',
  families: ['gemini'],
  testedVersions: GEMINI_TESTED_VERSIONS,
  capabilities: { resume: true, fork: false, accounts: true, permissionModes: true, launchModes: true },
  detect: ({ env }) => detectCli(CLI, env),
  launch: geminiLaunch,
  loginStatus: geminiLoginStatus,
  login: geminiLogin,
  ingest: ingestGemini,
  statusFromScreen: geminiStatusFromScreen,
  inputDraft: geminiInputDraft,
  headless: runGeminiTurn,
  readSession: readGeminiSession,
  sessionLogPath: geminiSessionLogPath,
  acp: geminiAcpDecl,
  // What gemini itself offers: its answer to ACP session/new (cached per build and account).
  models: (opts) => acpModelList(geminiAcpDecl(opts), opts),
  changeModelInTab: changeGeminiModel,
};

export default driver;
