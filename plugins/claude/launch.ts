// argv + env for Claude Code's own TUI in a baton tab: the model, the account (through
// CLAUDE_CONFIG_DIR) and the session the run is bound to. No prompt: baton pastes the first
// message once the TUI is up. The session is always fixed here, so ingest follows exactly
// this run's log and never another tab's: a fresh run gets `--session-id <new uuid>`, a
// resume keeps its id (`--resume X`), a fork writes the new id it is given (`--resume X
// --fork-session --session-id NEW`). It builds a spec; it starts nothing.

import { randomUUID } from 'node:crypto';
import type { LaunchOptions, LaunchSpec } from '../../src/plugins/kit.js';
import { claudeAccountEnv } from './home.js';

export function claudeLaunch(opts: LaunchOptions): LaunchSpec {
  const args = [...(opts.args ?? [])];
  if (opts.model) args.push('--model', opts.model);
  // claude refuses an id it already has a log for (exit 1): a random UUID is a new one.
  let session: string = randomUUID();
  if (opts.resume) {
    args.push('--resume', opts.resume);
    if (opts.fork) args.push('--fork-session', '--session-id', session);
    else session = opts.resume;
  } else {
    args.push('--session-id', session);
  }
  return { command: 'claude', args, env: claudeAccountEnv(opts.env, opts.account), cwd: opts.cwd, session };
}
