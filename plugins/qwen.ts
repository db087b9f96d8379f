// The Qwen Code driver (`qwen`, tested with 0.15.10, the last release that runs on Node 20).
// Launch: argv + env for the TUI (model, account via QWEN_HOME, native resume, the first
// message through --prompt-interactive or, past the argv limit, as a file reference), always
// with auto-update forced off (qwen's TUI otherwise installs its latest release globally).
// Follow: its own projects/<id>/chats/<session>.jsonl. Headless: `qwen --output-format
// stream-json` with the prompt on stdin (qwen-headless.ts). Qwen Code has no native fork.
// It only describes and reads; it never edits Qwen Code's own settings or logs.

import type { HarnessDriver, ImportedSession, LaunchOptions, LaunchSpec, ReadSessionOptions } from '../src/plugins/api.js';
import { ARGV_PROMPT_LIMIT } from '../src/plugins/api.js';
import { BatonError, EXIT } from '../src/errors.js';
import { detectCli, type CliFacts } from '../src/plugins/detect-cli.js';
import { importSessionLog } from '../src/plugins/session-log-import.js';
import { QWEN_INSTALL_HINT, QWEN_LOGIN_HINT, runQwenTurn } from './qwen-headless.js';
import { chatsDir, findChatLog, qwenRunEnv, qwenRuntimeDir } from './qwen-home.js';
import { ingestQwen } from './qwen-ingest.js';
import { handoffPrompt } from '../src/plugins/handoff-file.js';
import { QwenLogParser } from './qwen-log.js';

const TESTED = '0.15.10';

/** Screen heuristics for the TUI (last resort: the log says more, sooner). */
export function qwenStatusFromScreen(lines: readonly string[]): 'idle' | 'working' | 'approval' | undefined {
  const screen = lines.join('\n');
  if (/Waiting for user confirmation|Allow execution of|Apply this change\?|Yes, allow once/.test(screen)) return 'approval';
  // Still starting up: what is typed now may not be taken yet.
  if (/esc to cancel|Initializing\.\.\./i.test(screen)) return 'working';
  if (/Type your message or @path\/to\/file|\? for shortcuts/.test(screen)) return 'idle';
  return undefined;
}

function launch(opts: LaunchOptions): LaunchSpec {
  if (opts.fork) {
    throw new BatonError('Qwen Code cannot fork a session natively', EXIT.badInput, 'resume the session instead, or start a fresh one with the brief');
  }
  const args = [...(opts.args ?? [])];
  if (opts.model) args.push('--model', opts.model);
  if (opts.resume) args.push('--resume', opts.resume);
  const spec: LaunchSpec = { command: 'qwen', args, env: qwenRunEnv(opts.env, opts.account), cwd: opts.cwd, prompt: 'none' };
  if (opts.initialPrompt) {
    const { text, file } = handoffPrompt(opts.cwd, opts.initialPrompt, opts.switchId, ARGV_PROMPT_LIMIT);
    // One argv string with `=`: a message starting with "-" stays the option's value. A bare
    // positional prompt would make qwen answer once and exit.
    args.push(`--prompt-interactive=${text}`);
    spec.prompt = 'argv';
    if (file) spec.files = [file];
  }
  return spec;
}

const CLI: CliFacts = {
  command: 'qwen',
  installHint: QWEN_INSTALL_HINT,
  loginHint: QWEN_LOGIN_HINT,
  tested: TESTED,
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
    throw new BatonError(`Qwen Code has no session ${opts.session}`, EXIT.badInput, `looked for ${opts.session}.jsonl in ${where} and the other projects' chats; run the import in the directory the session ran in, or check the id`);
  }
  return importSessionLog(path, opts.session, new QwenLogParser());
}

const driver: HarnessDriver = {
  name: 'qwen',
  title: 'Qwen Code',
  families: ['qwen'],
  testedVersions: TESTED,
  // No defaultModel: without --model, Qwen Code uses the model its own settings or OPENAI_MODEL name.
  capabilities: { resume: true, fork: false, planMode: true, submit: 'paste' },
  detect: ({ env }) => detectCli(CLI, env),
  launch,
  ingest: ingestQwen,
  statusFromScreen: qwenStatusFromScreen,
  headless: runQwenTurn,
  readSession,
  sessionLogPath: async (opts) => chatLog(opts),
};

export default driver;
