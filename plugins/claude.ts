// The Claude Code driver (`claude`, tested with 2.1.197, the last release that runs on
// Node 20). Launch: argv + env for the TUI (model, account via CLAUDE_CONFIG_DIR, native
// resume and --fork-session, the first message as an argv prompt or, past the argv limit,
// as a file reference). Follow: the CLI's own projects/<slug>/<session>.jsonl. Headless:
// `claude -p --output-format stream-json` with the prompt on stdin (claude-headless.ts),
// forked with --fork-session. A fork into a git worktree copies the session's log into the
// worktree's project dir first (claude-carry.ts). Otherwise it only describes and reads; it
// never edits Claude Code's own config or logs.

import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { DetectResult, HarnessDriver, ImportedSession, LaunchOptions, LaunchSpec, ReadSessionOptions } from '../src/plugins/api.js';
import { ARGV_PROMPT_LIMIT } from '../src/plugins/api.js';
import { BatonError, EXIT } from '../src/errors.js';
import { findExecutable, probeVersion } from '../src/plugins/find-executable.js';
import { versionInRange } from '../src/plugins/version-range.js';
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

/**
 * The version of the @anthropic-ai/claude-code package the resolved `claude` belongs to
 * (bin/claude.exe in it), without starting the CLI; undefined for other installs (the
 * native installer's versioned binaries), which are asked with --version.
 */
function packageVersion(bin: string): string | undefined {
  try {
    const dir = dirname(dirname(realpathSync(bin)));
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
    return pkg.name === '@anthropic-ai/claude-code' && typeof pkg.version === 'string' ? pkg.version : undefined;
  } catch {
    return undefined;
  }
}

async function detect({ env }: { env: NodeJS.ProcessEnv }): Promise<DetectResult> {
  const path = findExecutable('claude', env);
  const result: DetectResult = { installed: !!path, installHint: CLAUDE_INSTALL_HINT, loginHint: CLAUDE_LOGIN_HINT };
  if (!path) return result;
  result.path = path;
  const version = packageVersion(path) ?? (await probeVersion(path, ['--version'], env, 15_000));
  if (version) {
    result.version = version;
    if (versionInRange(version, TESTED) === false) result.untestedVersion = TESTED;
  }
  return result;
}

function sessionLog(opts: ReadSessionOptions): string | undefined {
  return findSessionLog(claudeConfigDir(opts.env, opts.account), opts.cwd, opts.session);
}

async function readSession(opts: ReadSessionOptions): Promise<ImportedSession> {
  const path = sessionLog(opts);
  if (!path) {
    const where = projectDir(claudeConfigDir(opts.env, opts.account), opts.cwd);
    throw new BatonError(`Claude Code has no session ${opts.session}`, EXIT.badInput, `looked for ${opts.session}.jsonl in ${where} and the other project dirs next to it; run the import in the directory the session ran in, or check the id`);
  }
  const parser = new ClaudeLogParser();
  const events: ImportedSession['events'] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      parser.skipped++;
      continue;
    }
    events.push(...parser.parse(record));
  }
  const out: ImportedSession = { agentSession: opts.session, events, skipped: parser.skipped, logPath: path };
  if (parser.model) out.model = parser.model;
  if (parser.cwd) out.cwd = parser.cwd;
  return out;
}

const driver: HarnessDriver = {
  name: 'claude',
  title: 'Claude Code',
  families: ['claude'],
  testedVersions: TESTED,
  // No defaultModel: without --model, Claude Code uses the model its own account and settings choose.
  capabilities: { resume: true, fork: true, planMode: true, submit: 'paste' },
  detect,
  launch,
  ingest: ingestClaude,
  statusFromScreen: claudeStatusFromScreen,
  headless: runClaudeTurn,
  readSession,
  sessionLogPath: async (opts) => sessionLog(opts),
  carrySession: carryClaudeSession,
};

export default driver;
