// The Qwen Code driver (`qwen`, tested with 0.15.10, the last release that runs on Node 20).
// Launch: argv + env for the TUI (model, account via QWEN_HOME, native resume, the first
// message through --prompt-interactive or, past the argv limit, as a file reference), always
// with auto-update forced off (qwen's TUI otherwise installs its latest release globally).
// Follow: its own projects/<id>/chats/<session>.jsonl. Headless: `qwen --output-format
// stream-json` with the prompt on stdin (headless.ts). Qwen Code has no native fork. Another
// model in a running tab is `/model <name>` typed at its prompt where its settings configure
// that model (model-change.ts), else a relaunch.
// It only describes and reads; it never edits Qwen Code's own logs, and its settings only to
// put back the default model its /model wrote.

import {
  BatonError,
  type CliFacts,
  detectCli,
  EXIT,
  type DriverDefinition,
  type ImportedSession,
  importSessionLog,
  type ReadSessionOptions,
} from '../../src/plugins/kit.js';
import { qwenAcpDecl } from './acp.js';
import { qwenModels } from './models.js';
import { QWEN_INSTALL_HINT, QWEN_LOGIN_HINT, runQwenTurn } from './headless.js';
import { qwenLocalEndpoint } from './local.js';
import { chatsDir, findChatLog, qwenRuntimeDir } from './home.js';
import { ingestQwen } from './ingest.js';
import { QwenLogParser } from './log.js';
import { qwenLaunch } from './launch.js';
import { changeQwenModel } from './model-change.js';
import { qwenInputDraft, qwenStatusFromScreen } from './screen.js';
import { qwenLogin, qwenLoginStatus } from './login.js';

const TESTED = '0.15.10';

const CLI: CliFacts = {
  command: 'qwen',
  installHint: QWEN_INSTALL_HINT,
  loginHint: QWEN_LOGIN_HINT,
  // `qwen --version` loads its whole 26 MB bundle (7 s on a busy machine): read the version
  // of the package the command belongs to, and ask the CLI only for an install not from npm.
  npmPackage: '@qwen-code/qwen-code',
  probeTimeoutMs: 20_000,
};

function chatLog(opts: ReadSessionOptions): string | undefined {
  return findChatLog(qwenRuntimeDir(opts.env, opts.account), opts.cwd, opts.session);
}

async function readSession(opts: ReadSessionOptions): Promise<ImportedSession> {
  const path = chatLog(opts);
  if (!path) {
    const where = chatsDir(qwenRuntimeDir(opts.env, opts.account), opts.cwd);
    throw new BatonError(
      `Qwen Code has no session ${opts.session}`,
      EXIT.badInput,
      `looked for ${opts.session}.jsonl in ${where} and the other projects' chats; run the import in the directory the session ran in, or check the id`,
    );
  }
  return importSessionLog(path, opts.session, new QwenLogParser());
}

const driver: DriverDefinition = {
  name: 'qwen',
  title: 'Qwen Code',
  families: ['qwen'],
  testedVersions: TESTED,
  // No defaultModel: without --model, Qwen Code uses the model its own settings or OPENAI_MODEL name.
  capabilities: { resume: true, fork: false, accounts: true, permissionModes: true, launchModes: true },
  detect: ({ env }) => detectCli(CLI, env),
  launch: qwenLaunch,
  loginStatus: qwenLoginStatus,
  login: qwenLogin,
  ingest: ingestQwen,
  statusFromScreen: qwenStatusFromScreen,
  inputDraft: qwenInputDraft,
  headless: runQwenTurn,
  localEndpoint: qwenLocalEndpoint,
  readSession,
  sessionLogPath: async (opts) => chatLog(opts),
  acp: qwenAcpDecl,
  models: qwenModels,
  changeModelInTab: changeQwenModel,
};

export default driver;
