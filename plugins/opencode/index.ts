// The built-in driver for opencode (`opencode`, npm opencode-ai), tested with 1.18.33.
// Headless turns run over ACP (`opencode acp`) through baton's generic ACP harness
// (headless.ts; `opencode run` quotes a multi-word message), the TUI is launched
// with its first message as `--prompt` (launch.ts), and transcripts come from
// opencode's own SQLite session database (log-db.ts, log.ts,
// ingest.ts). Accounts are separate XDG data + config dirs (home.ts). A local model
// server is a provider given in its config variable (local.ts). A switch to another model
// of it is made in the running TUI through its model dialog (model-change.ts), else by a
// relaunch on its session.
// This module wires those together; it holds no state.

import { acpModelList, type CliFacts, detectCli, type DriverDefinition } from '../../src/plugins/kit.js';
import { opencodeAcpDecl, runOpencodeTurn } from './headless.js';
import { OPENCODE_INSTALL_HINT, OPENCODE_LOGIN_HINT } from './home.js';
import { ingestOpencode, opencodeSessionLogPath, readOpencodeSession } from './ingest.js';
import { opencodeLaunch } from './launch.js';
import { changeOpencodeModel } from './model-change.js';
import { opencodeLocalEndpoint } from './local.js';
import { opencodeInputDraft, opencodeStatusFromScreen } from './screen.js';
import { opencodeLogin, opencodeLoginStatus } from './login.js';

export const OPENCODE_TESTED_VERSIONS = '1.18.x';

const CLI: CliFacts = { command: 'opencode', installHint: OPENCODE_INSTALL_HINT, loginHint: OPENCODE_LOGIN_HINT, probeTimeoutMs: 20_000 };

export const driver: DriverDefinition = {
  name: 'opencode',
  title: 'opencode',
  families: ['claude', 'gpt', 'gemini', 'qwen'],
  testedVersions: OPENCODE_TESTED_VERSIONS,
  // A bracketed paste and its Enter in one write submit it (9/9 first-try, tui-delivery).
  // `--session ID --model M` runs the session's last model, not M (seen with 1.18.33): the
  // model is changed through its dialog once the TUI is up.
  capabilities: { resume: true, fork: true, enterWithPaste: true, accounts: true, permissionModes: true, resumeKeepsModel: true },
  detect: ({ env }) => detectCli(CLI, env),
  launch: opencodeLaunch,
  loginStatus: opencodeLoginStatus,
  login: opencodeLogin,
  ingest: ingestOpencode,
  statusFromScreen: opencodeStatusFromScreen,
  inputDraft: opencodeInputDraft,
  headless: runOpencodeTurn,
  readSession: readOpencodeSession,
  sessionLogPath: opencodeSessionLogPath,
  localEndpoint: opencodeLocalEndpoint,
  // baton's view asks the user about every edit, command and fetch, as a headless turn without --yes would refuse them.
  acp: (opts) => opencodeAcpDecl({ ...opts, yes: false }).decl,
  // What opencode itself offers (its providers' models): its answer to ACP session/new, cached per build and account.
  models: (opts) => acpModelList(opencodeAcpDecl({ ...opts, yes: false }).decl, opts),
  // The TUI's model dialog (ctrl+x m), driven from the screen; confirmed by its model.json.
  changeModelInTab: changeOpencodeModel,
};

export default driver;
