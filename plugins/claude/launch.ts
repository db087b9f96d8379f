// argv + env for Claude Code's own TUI in a baton tab: the model, the account (through
// CLAUDE_CONFIG_DIR), native resume and --fork-session, and the first message as an argv
// prompt or, past ARGV_PROMPT_LIMIT, as a file reference (`<cwd>/.baton/handoff-<switchId>.md`,
// dir 0700, file 0600). It builds a spec; it starts nothing.

import { ARGV_PROMPT_LIMIT, handoffPrompt, type LaunchOptions, type LaunchSpec } from '../../src/plugins/kit.js';
import { claudeAccountEnv } from './home.js';

export function claudeLaunch(opts: LaunchOptions): LaunchSpec {
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
