// The Claude Code driver (`claude`, tested with 2.1.197, the last release that runs on
// Node 20). Launch: argv + env for the TUI (model, account via CLAUDE_CONFIG_DIR, native
// resume and --fork-session, the first message as an argv prompt or, past the argv limit,
// as a file reference). Follow: the CLI's own projects/<slug>/<session>.jsonl. Headless:
// `claude -p --output-format stream-json` with the prompt on stdin (claude-headless.ts),
// forked with --fork-session. A fork into a git worktree copies the session's log into the
// worktree's project dir first (claude-carry.ts). Otherwise it only describes and reads; it
// never edits Claude Code's own config or logs.

import type { HarnessDriver, ImportedSession, LaunchOptions, LaunchSpec, ReadSessionOptions } from '../src/plugins/api.js';
import { ARGV_PROMPT_LIMIT } from '../src/plugins/api.js';
import { BatonError, EXIT } from '../src/errors.js';
import { detectCli, type CliFacts } from '../src/plugins/detect-cli.js';
import { importSessionLog } from '../src/plugins/session-log-import.js';
import { claudeAccountEnv, claudeConfigDir, findSessionLog, projectDir } from './claude-home.js';
import { CLAUDE_INSTALL_HINT, CLAUDE_LOGIN_HINT, runClaudeTurn } from './claude-headless.js';
import { carryClaudeSession } from './claude-carry.js';
import { ingestClaude } from './claude-ingest.js';
import { handoffPrompt } from '../src/plugins/handoff-file.js';
import { ClaudeLogParser } from './claude-log.js';

const TESTED = '2.1.197';

/** Screen heuristics for the TUI (last resort: the log says more, sooner). */
export function claudeStatusFromScreen(lines: readonly string[]): 'idle' | 'working' | 'approval' | undefined {
  const screen = lines.join('\n');
  if (/Do you want to (proceed|make this edit|create|allow)|Esc to cancel · Tab to amend/.test(screen)) return 'approval';
  if (/esc to interrupt/i.test(screen)) return 'working';
  // Not working and its input box is there (empty, or holding a prompt an interrupt put back): idle.
  if (/\? for shortcuts/.test(screen) || lines.some((l) => /^\s*❯(\s|$)/.test(l))) return 'idle';
  return undefined;
}

function launch(opts: LaunchOptions): LaunchSpec {
  const args = [...(opts.args ?? [])];
  if (opts.model) args.push('--model', opts.model);
  if (opts.resume) {
    args.push('--resume', opts.resume);
    if (opts.fork) args.push('--fork-session');
  }
  const spec: LaunchSpec = { command: 'claude', args, env: claudeAccountEnv(opts.env, opts.account), cwd: opts.cwd, prompt: 'none' };
  if (opts.initialPrompt) {
    const { text, file } = handoffPrompt(opts.cwd, opts.initialPrompt, opts.switchId, ARGV_PROMPT_LIMIT);
    // `--` so a message that starts with "-" is not read as an option.
    args.push('--', text);
    spec.prompt = 'argv';
    if (file) spec.files = [file];
  }
  return spec;
}

const CLI: CliFacts = {
  command: 'claude',
  installHint: CLAUDE_INSTALL_HINT,
  loginHint: CLAUDE_LOGIN_HINT,
  tested: TESTED,
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
    throw new BatonError(`Claude Code has no session ${opts.session}`, EXIT.badInput, `looked for ${opts.session}.jsonl in ${where} and the other project dirs next to it; run the import in the directory the session ran in, or check the id`);
  }
  return importSessionLog(path, opts.session, new ClaudeLogParser());
}

const driver: HarnessDriver = {
  name: 'claude',
  title: 'Claude Code',
  families: ['claude'],
  testedVersions: TESTED,
  // No defaultModel: without --model, Claude Code uses the model its own account and settings choose.
  capabilities: { resume: true, fork: true, planMode: true, submit: 'paste' },
  detect: ({ env }) => detectCli(CLI, env),
  launch,
  ingest: ingestClaude,
  statusFromScreen: claudeStatusFromScreen,
  headless: runClaudeTurn,
  readSession,
  sessionLogPath: async (opts) => sessionLog(opts),
  carrySession: carryClaudeSession,
};

export default driver;
