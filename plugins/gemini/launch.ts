// argv + env for gemini's own TUI in a baton tab: resume (`--resume <uuid>`), the model and
// the account (GEMINI_CLI_HOME). No prompt: baton pastes the first message once the TUI is
// up. gemini has no native fork, so asking for one is an error rather than a silent resume.
// It builds a spec; it starts nothing.

import { badInput, type LaunchOptions, type LaunchSpec } from '../../src/plugins/kit.js';
import { geminiAccountEnv } from './home.js';

export function geminiLaunch(opts: LaunchOptions): LaunchSpec {
  if (opts.fork) {
    throw badInput('gemini cannot fork a session natively', 'resume the session instead, or start gemini fresh with a brief');
  }
  const args: string[] = [];
  if (opts.resume) args.push('--resume', opts.resume);
  if (opts.model) args.push('-m', opts.model);
  args.push(...(opts.args ?? []));
  return { command: 'gemini', args, env: geminiAccountEnv(opts.env, opts.account), cwd: opts.cwd };
}
