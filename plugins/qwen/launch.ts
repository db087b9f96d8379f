// argv + env for Qwen Code's own TUI in a baton tab: the model, the account (through
// QWEN_HOME, with auto-update always forced off) and native resume. No prompt: baton pastes
// the first message once the TUI is up. Qwen Code has no native fork: asking for one is an
// error, never a silent resume. It builds a spec; it starts nothing.

import { BatonError, EXIT, type LaunchOptions, type LaunchSpec } from '../../src/plugins/kit.js';
import { qwenRunEnv } from './home.js';

export function qwenLaunch(opts: LaunchOptions): LaunchSpec {
  if (opts.fork) {
    throw new BatonError('Qwen Code cannot fork a session natively', EXIT.badInput, 'resume the session instead, or start a fresh one with the brief');
  }
  const args = [...(opts.args ?? [])];
  if (opts.model) args.push('--model', opts.model);
  if (opts.resume) args.push('--resume', opts.resume);
  return { command: 'qwen', args, env: qwenRunEnv(opts.env, opts.account), cwd: opts.cwd };
}
