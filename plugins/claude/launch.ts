// argv + env for Claude Code's own TUI in a baton tab: the model, the account (through
// CLAUDE_CONFIG_DIR) and the session the run is bound to. No prompt: baton pastes the first
// message once the TUI is up. The session is always fixed here, so ingest follows exactly
// this run's log and never another tab's: a fresh run gets `--session-id <new uuid>`, a
// resume keeps its id (`--resume X`), a fork writes the new id it is given (`--resume X
// --fork-session --session-id NEW`). It builds a spec; it starts nothing.

import { randomUUID } from 'node:crypto';
import type { LaunchOptions, LaunchSpec } from '../../src/plugins/kit.js';
import { ROOT_ALLOWED_TOOLS } from './headless.js';
import { claudeAccountEnv } from './home.js';

/** Claude Code's tools that change a file or run a command: none of them in plan. */
export const PLAN_DISALLOWED = ['Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'Bash'];

/**
 * The permission mode's flags, as for a headless turn: Claude Code's own --permission-mode
 * (its Shift-Tab changes it live in the tab); full access as root without IS_SANDBOX, which
 * Claude Code refuses bypassPermissions for, is the same tools allowed by name.
 */
export function claudeModeArgs(mode: LaunchOptions['mode'], env: NodeJS.ProcessEnv, isRoot: boolean): string[] {
  // Claude Code's own plan mode in its terminal UI still asks to write (2.1.197: "Do you want to
  // create moded.txt?"), and a yes writes: the tools that change files or run commands are
  // taken away too, so nothing is written in plan even if approved.
  if (mode === 'plan') return ['--permission-mode', 'plan', '--disallowedTools', PLAN_DISALLOWED.join(',')];
  if (mode === 'accept-edits') return ['--permission-mode', 'acceptEdits'];
  if (mode === 'full-access') return isRoot && !env.IS_SANDBOX ? ['--allowedTools', ROOT_ALLOWED_TOOLS.join(',')] : ['--permission-mode', 'bypassPermissions'];
  return [];
}

export function claudeLaunch(opts: LaunchOptions): LaunchSpec {
  const args = [...(opts.args ?? [])];
  if (opts.model) args.push('--model', opts.model);
  args.push(...claudeModeArgs(opts.mode, opts.env, typeof process.getuid === 'function' && process.getuid() === 0));
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
