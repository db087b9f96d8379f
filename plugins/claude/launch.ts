// argv + env for Claude Code's own TUI in a baton tab: the model, the account (through
// CLAUDE_CONFIG_DIR), native resume and --fork-session. No prompt: baton pastes the first
// message once the TUI is up. It builds a spec; it starts nothing.

import type { LaunchOptions, LaunchSpec } from '../../src/plugins/kit.js';
import { claudeAccountEnv } from './home.js';

export function claudeLaunch(opts: LaunchOptions): LaunchSpec {
  const args = [...(opts.args ?? [])];
  if (opts.model) args.push('--model', opts.model);
  if (opts.resume) {
    args.push('--resume', opts.resume);
    if (opts.fork) args.push('--fork-session');
  }
  return { command: 'claude', args, env: claudeAccountEnv(opts.env, opts.account), cwd: opts.cwd };
}
