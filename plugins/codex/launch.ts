// argv + env for codex's own TUI in a baton tab. `codex [opts] [PROMPT]`, `codex resume <id>`
// and `codex fork <id>` all take the first message as an argument; one over
// ARGV_PROMPT_LIMIT (Linux refuses an argv string over 128 KiB) is written to
// `<cwd>/.baton/handoff-<switchId>.md` (dir 0700, file 0600) and codex is told to read it.
// `--no-daemon` keeps the TUI from starting the detached app-server daemon it otherwise
// leaves running. It builds a spec; it starts nothing.

import { handoffPrompt, type LaunchOptions, type LaunchSpec } from '../../src/plugins/kit.js';
import { codexAccountEnv } from './home.js';

export function codexLaunch(opts: LaunchOptions): LaunchSpec {
  const args: string[] = [];
  if (opts.resume) args.push(opts.fork ? 'fork' : 'resume', opts.resume);
  args.push('--no-daemon');
  if (opts.model) args.push('-m', opts.model);
  args.push(...(opts.args ?? []));
  const spec: LaunchSpec = { command: 'codex', args, env: codexAccountEnv(opts.env, opts.account), cwd: opts.cwd, prompt: 'none' };
  const prompt = opts.initialPrompt;
  if (prompt) {
    const { text, file } = handoffPrompt(opts.cwd, prompt, opts.switchId);
    if (file) spec.files = [file];
    // `--` so a message that starts with "-" is not taken for an option.
    args.push('--', text);
    spec.prompt = 'argv';
  }
  return spec;
}
