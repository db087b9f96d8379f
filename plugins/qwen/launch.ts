// argv + env for Qwen Code's own TUI in a baton tab: the model, the account (through
// QWEN_HOME, with auto-update always forced off), native resume, and the first message
// through --prompt-interactive or, past ARGV_PROMPT_LIMIT, as a file reference
// (`<cwd>/.baton/handoff-<switchId>.md`, dir 0700, file 0600). Qwen Code has no native fork:
// asking for one is an error, never a silent resume. It builds a spec; it starts nothing.

import { ARGV_PROMPT_LIMIT, BatonError, EXIT, handoffPrompt, type LaunchOptions, type LaunchSpec } from '../../src/plugins/kit.js';
import { qwenRunEnv } from './home.js';

export function qwenLaunch(opts: LaunchOptions): LaunchSpec {
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
