// argv + env for gemini's own TUI in a baton tab. The first message goes as
// `--prompt-interactive=<text>` (gemini runs it, then stays interactive; the `=` form keeps a
// message starting with "-" from being read as an option); one over ARGV_PROMPT_LIMIT (Linux
// refuses an argv string over 128 KiB) is written to `<cwd>/.baton/handoff-<switchId>.md`
// (dir 0700, file 0600) and gemini is told to read it. Resume is `--resume <uuid>`; gemini
// has no native fork, so asking for one is an error rather than a silent resume. It builds
// a spec; it starts nothing.

import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { badInput } from '../src/errors.js';
import { ARGV_PROMPT_LIMIT, type LaunchOptions, type LaunchSpec } from '../src/plugins/api.js';
import { geminiAccountEnv } from './gemini-home.js';

/** Writes a prompt too long for argv where the agent can read it; returns the path and its relative name. */
function writeHandoffFile(cwd: string, switchId: string | undefined, text: string): { path: string; rel: string } {
  const id = (switchId ?? randomUUID()).replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 80) || randomUUID();
  const dir = join(cwd, '.baton');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const rel = `.baton/handoff-${id}.md`;
  const path = join(cwd, rel);
  writeFileSync(path, text, { mode: 0o600 });
  chmodSync(path, 0o600);
  return { path, rel };
}

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
    let text = prompt;
    if (Buffer.byteLength(prompt) > ARGV_PROMPT_LIMIT) {
      const file = writeHandoffFile(opts.cwd, opts.switchId, prompt);
      spec.files = [file.path];
      text = `Your first message is too long to pass on the command line (${prompt.length} characters), so it was saved to the file ${file.rel} in this directory. Read that whole file now and act on it exactly as if it had been typed here.`;
    }
    args.push(`--prompt-interactive=${text}`);
    spec.prompt = 'argv';
  }
  return spec;
}
