// argv + env for opencode's own TUI in a baton tab: `opencode --session ID [-m MODEL]`. No
// prompt: baton pastes the first message once the TUI is up. PWD is set to the cwd: opencode
// takes its project from it. The session is always one whose id baton knows before the TUI
// starts, so ingest follows this run's own session and never another tab's: the one it
// resumes, or one made for it now (new-session.ts: an empty session imported, or a fork made
// over ACP) — which is why this launch runs opencode once before the TUI, and takes a few
// seconds. `--model` is taken only by a session with no messages yet: opencode 1.18.33 opened on
// one with messages runs its last message's model whatever `--model` says (seen by hand and in
// test/real/tui-model-opencode.test.ts without the in-place change), so a switch to another
// model is made in the running TUI (model-change.ts), and after a relaunch on such a session
// too (capabilities.resumeKeepsModel).

import type { LaunchOptions, LaunchSpec } from '../../src/plugins/kit.js';
import { opencodeAccountEnv } from './home.js';
import { forkSession, importEmptySession } from './new-session.js';

export async function opencodeLaunch(opts: LaunchOptions): Promise<LaunchSpec> {
  const where = { env: opts.env, cwd: opts.cwd, ...(opts.account ? { account: opts.account } : {}) };
  const session = !opts.resume ? await importEmptySession(where) : opts.fork ? await forkSession({ ...where, session: opts.resume }) : opts.resume;
  const args: string[] = ['--session', session];
  if (opts.model) args.push('--model', opts.model);
  args.push(...(opts.args ?? []));
  return { command: 'opencode', args, env: { ...opencodeAccountEnv(opts.env, opts.account), PWD: opts.cwd }, cwd: opts.cwd, session };
}
