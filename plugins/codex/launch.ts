// argv + env for codex's own TUI in a baton tab: `codex`, `codex resume <id>` or
// `codex fork <id>`, the model and the account (CODEX_HOME). No prompt: baton pastes the first
// message once the TUI is up. `--no-daemon` keeps the TUI from starting the detached
// app-server daemon it otherwise leaves running, and keeps codex's app server inside the
// TUI's own process: that process holds the thread's lock file open, which is how ingest
// tells this run's thread from another tab's (bind.ts); codex cannot be told a new thread's
// id, so only a resume names its session here. `--no-alt-screen`: codex otherwise runs as a
// full-screen app in the alternate screen, which keeps no scrollback, so earlier turns were
// redrawn away and scroll mode had nothing to reach; inline, codex inserts each finished
// turn above its viewport into the terminal's scrollback. It builds a spec; it starts nothing.

import type { LaunchOptions, LaunchSpec } from '../../src/plugins/kit.js';
import { codexAccountEnv } from './home.js';

export function codexLaunch(opts: LaunchOptions): LaunchSpec {
  const args: string[] = [];
  if (opts.resume) args.push(opts.fork ? 'fork' : 'resume', opts.resume);
  args.push('--no-daemon', '--no-alt-screen');
  if (opts.model) args.push('-m', opts.model);
  // Codex's TUI has no plan flag: plan is a read-only sandbox with no approvals to ask (so an
  // escalation cannot be approved into a write); accept-edits the workspace-write sandbox.
  if (opts.mode === 'plan') args.push('--sandbox', 'read-only', '--ask-for-approval', 'never');
  else if (opts.mode === 'accept-edits') args.push('--sandbox', 'workspace-write', '--ask-for-approval', 'on-request');
  else if (opts.mode === 'full-access') args.push('--dangerously-bypass-approvals-and-sandbox');
  args.push(...(opts.args ?? []));
  return {
    command: 'codex',
    args,
    env: codexAccountEnv(opts.env, opts.account),
    cwd: opts.cwd,
    ...(opts.resume && !opts.fork ? { session: opts.resume } : {}),
  };
}
