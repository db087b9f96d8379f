// argv + env for opencode's own TUI in a baton tab: `opencode [-s ID [--fork]] [-m MODEL]`.
// No prompt: baton pastes the first message once the TUI is up. PWD is set to the cwd:
// opencode takes its project from it. It builds a spec; it starts nothing.

import type { LaunchOptions, LaunchSpec } from '../../src/plugins/kit.js';
import { opencodeAccountEnv } from './home.js';

export function opencodeLaunch(opts: LaunchOptions): LaunchSpec {
  const args: string[] = [];
  if (opts.resume) {
    args.push('--session', opts.resume);
    if (opts.fork) args.push('--fork');
  }
  if (opts.model) args.push('--model', opts.model);
  args.push(...(opts.args ?? []));
  return { command: 'opencode', args, env: { ...opencodeAccountEnv(opts.env, opts.account), PWD: opts.cwd }, cwd: opts.cwd };
}
