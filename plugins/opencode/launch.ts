// argv + env for opencode's own TUI in a baton tab: `opencode [-s ID [--fork]] [-m MODEL]
// [--prompt=TEXT]`. The TUI submits --prompt as the first message (unquoted, unlike
// `opencode run`). A message over ARGV_PROMPT_LIMIT (Linux refuses an argv string over
// 128 KiB) is written to `<cwd>/.baton/handoff-<switchId>.md` (dir 0700, file 0600) and
// opencode is told to read it. PWD is set to the cwd: opencode takes its project from it.
// It builds a spec; it starts nothing.

import { handoffPrompt, type LaunchOptions, type LaunchSpec } from '../../src/plugins/kit.js';
import { opencodeAccountEnv } from './home.js';

export function opencodeLaunch(opts: LaunchOptions): LaunchSpec {
  const args: string[] = [];
  if (opts.resume) {
    args.push('--session', opts.resume);
    if (opts.fork) args.push('--fork');
  }
  if (opts.model) args.push('--model', opts.model);
  args.push(...(opts.args ?? []));
  const spec: LaunchSpec = {
    command: 'opencode',
    args,
    env: { ...opencodeAccountEnv(opts.env, opts.account), PWD: opts.cwd },
    cwd: opts.cwd,
    prompt: 'none',
  };
  const prompt = opts.initialPrompt;
  if (prompt) {
    const { text, file } = handoffPrompt(opts.cwd, prompt, opts.switchId);
    if (file) spec.files = [file];
    // One `--prompt=` string, so a message that starts with "-" is not taken for an option.
    args.push(`--prompt=${text}`);
    spec.prompt = 'argv';
  }
  return spec;
}
