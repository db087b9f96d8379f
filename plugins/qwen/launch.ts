// argv + env for Qwen Code's own TUI in a baton tab: the model, the account (through
// QWEN_HOME, with auto-update always forced off) and the session. No prompt: baton pastes
// the first message once the TUI is up. The run's session is always fixed here, so ingest
// follows this run's own log and never another tab's: a fresh run gets `--session-id <new
// uuid>`, a resume keeps its id. Qwen Code has no native fork: asking for one is an error,
// never a silent resume. It builds a spec; it starts nothing.

import { randomUUID } from 'node:crypto';
import { BatonError, EXIT, type LaunchOptions, type LaunchSpec } from '../../src/plugins/kit.js';
import { qwenRunEnv } from './home.js';

export function qwenLaunch(opts: LaunchOptions): LaunchSpec {
  if (opts.fork) {
    throw new BatonError('Qwen Code cannot fork a session natively', EXIT.badInput, 'resume the session instead, or start a fresh one with the brief');
  }
  const args = [...(opts.args ?? [])];
  if (opts.model) args.push('--model', opts.model);
  // Qwen Code's own approval modes, as a headless turn's.
  if (opts.mode && opts.mode !== 'default') args.push('--approval-mode', { plan: 'plan', 'accept-edits': 'auto-edit', 'full-access': 'yolo' }[opts.mode]);
  const session = opts.resume ?? randomUUID();
  if (opts.resume) args.push('--resume', opts.resume);
  else args.push('--session-id', session);
  return { command: 'qwen', args, env: qwenRunEnv(opts.env, opts.account), cwd: opts.cwd, session };
}
