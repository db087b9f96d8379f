// argv + env for gemini's own TUI in a baton tab. The first message goes as
// `--prompt-interactive=<text>` (gemini runs it, then stays interactive; the `=` form keeps a
// message starting with "-" from being read as an option); one over ARGV_PROMPT_LIMIT (Linux
// refuses an argv string over 128 KiB) is written to `<cwd>/.baton/handoff-<switchId>.md`
// (dir 0700, file 0600) and gemini is told to read it. Resume is `--resume <uuid>`; gemini
// has no native fork, so asking for one is an error rather than a silent resume. It builds
// a spec; it starts nothing.

import { badInput, handoffPrompt, type LaunchOptions, type LaunchSpec } from '../../src/plugins/kit.js';
import { geminiAccountEnv } from './home.js';

export function geminiLaunch(opts: LaunchOptions): LaunchSpec {
  if (opts.fork) {
    throw badInput('gemini cannot fork a session natively', 'resume the session instead, or start gemini fresh with a brief');
  }
  const args: string[] = [];
  if (opts.resume) args.push('--resume', opts.resume);
  if (opts.model) args.push('-m', opts.model);
  args.push(...(opts.args ?? []));
  const spec: LaunchSpec = { command: 'gemini', args, env: geminiAccountEnv(opts.env, opts.account), cwd: opts.cwd, prompt: 'none' };
  const prompt = opts.initialPrompt;
  if (prompt) {
    const { text, file } = handoffPrompt(opts.cwd, prompt, opts.switchId);
    if (file) spec.files = [file];
    args.push(`--prompt-interactive=${text}`);
    spec.prompt = 'argv';
  }
  return spec;
}
