// The Claude Code driver (`claude`, tested with 2.1.197, the last release that runs on
// Node 20). Launch: argv + env for the TUI (model, account via CLAUDE_CONFIG_DIR, native
// resume and --fork-session, the first message as an argv prompt or, past the argv limit,
// as a file reference). Follow: the CLI's own projects/<slug>/<session>.jsonl. Headless:
// `claude -p --output-format stream-json` with the prompt on stdin (headless.ts),
// forked with --fork-session. A fork into a git worktree copies the session's log into the
// worktree's project dir first (carry.ts). Another model in a running tab is typed at its
// prompt as `/model <name>` (model-change.ts, which puts back the default model that command
// saves in settings.json). Otherwise it only describes and reads; it never edits Claude Code's
// own config or logs.

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
import { claudeConfigDir, findSessionLog, projectDir } from './home.js';
import { claudeLaunch } from './launch.js';
import { claudeInputDraft, claudeStatusFromScreen } from './screen.js';
import { CLAUDE_INSTALL_HINT, CLAUDE_LOGIN_HINT, runClaudeTurn } from './headless.js';
import { claudeLocalEndpoint } from './local.js';
import { carryClaudeSession } from './carry.js';
import { ingestClaude } from './ingest.js';
import { ClaudeLogParser } from './log.js';
import { claudeLogin, claudeLoginStatus } from './login.js';
import { claudeModels } from './models.js';
import { changeClaudeModel } from './model-change.js';

const TESTED = '2.1.197';

const CLI: CliFacts = {
  command: 'claude',
  installHint: CLAUDE_INSTALL_HINT,
  loginHint: CLAUDE_LOGIN_HINT,
  // The npm package's bin/claude.exe; the native installer's versioned binaries are asked with --version.
  npmPackage: '@anthropic-ai/claude-code',
  probeTimeoutMs: 15_000,
};

function sessionLog(opts: ReadSessionOptions): string | undefined {
  return findSessionLog(claudeConfigDir(opts.env, opts.account), opts.cwd, opts.session);
}

async function readSession(opts: ReadSessionOptions): Promise<ImportedSession> {
  const path = sessionLog(opts);
  if (!path) {
    const where = projectDir(claudeConfigDir(opts.env, opts.account), opts.cwd);
    throw new BatonError(
      `Claude Code has no session ${opts.session}`,
      EXIT.badInput,
      `looked for ${opts.session}.jsonl in ${where} and the other project dirs next to it; run the import in the directory the session ran in, or check the id`,
    );
  }
  return importSessionLog(path, opts.session, new ClaudeLogParser());
}

const driver: DriverDefinition = {
  name: 'claude',
  title: 'Claude Code',
  families: ['claude'],
  testedVersions: TESTED,
  // No defaultModel: without --model, Claude Code uses the model its own account and settings choose.
  capabilities: { resume: true, fork: true, accounts: true, permissionModes: true, launchModes: true },
  detect: ({ env }) => detectCli(CLI, env),
  launch: claudeLaunch,
  loginStatus: claudeLoginStatus,
  login: claudeLogin,
  ingest: ingestClaude,
  statusFromScreen: claudeStatusFromScreen,
  inputDraft: claudeInputDraft,
  headless: runClaudeTurn,
  localEndpoint: claudeLocalEndpoint,
  readSession,
  sessionLogPath: async (opts) => sessionLog(opts),
  carrySession: carryClaudeSession,
  models: claudeModels,
  changeModelInTab: changeClaudeModel,
};

export default driver;
