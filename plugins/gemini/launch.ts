// argv + env for gemini's own TUI in a baton tab: the session, the model and the account
// (GEMINI_CLI_HOME). No prompt: baton pastes the first message once the TUI is up. The run's
// session is always fixed here, so ingest follows this run's own chat log and never another
// tab's: a fresh run gets `--session-id <new uuid>` (gemini refuses one it already has, exit
// 42), a resume keeps its id (`--resume <uuid>`, which gemini appends to the same log).
// gemini has no native fork, so asking for one is an error rather than a silent resume.
// It builds a spec; it starts nothing.

import { randomUUID } from 'node:crypto';
import { badInput, type LaunchOptions, type LaunchSpec } from '../../src/plugins/kit.js';
import { geminiAccountEnv } from './home.js';

export function geminiLaunch(opts: LaunchOptions): LaunchSpec {
  if (opts.fork) {
    throw badInput('gemini cannot fork a session natively', 'resume the session instead, or start gemini fresh with a brief');
  }
  const args: string[] = [];
  const session = opts.resume ?? randomUUID();
  if (opts.resume) args.push('--resume', opts.resume);
  else args.push('--session-id', session);
  if (opts.model) args.push('-m', opts.model);
  // Gemini CLI's own approval modes, as a headless turn's.
  if (opts.mode && opts.mode !== 'default') args.push('--approval-mode', { plan: 'plan', 'accept-edits': 'auto_edit', 'full-access': 'yolo' }[opts.mode]);
  args.push(...(opts.args ?? []));
  return { command: 'gemini', args, env: geminiAccountEnv(opts.env, opts.account), cwd: opts.cwd, session };
}
