// argv + env for opencode's own TUI in a baton tab: `opencode [-s ID [--fork]] [-m MODEL]
// [--prompt=TEXT]`. The TUI submits --prompt as the first message (unquoted, unlike
// `opencode run`). A message over ARGV_PROMPT_LIMIT (Linux refuses an argv string over
// 128 KiB) is written to `<cwd>/.baton/handoff-<switchId>.md` (dir 0700, file 0600) and
// opencode is told to read it. PWD is set to the cwd: opencode takes its project from it.
// It builds a spec; it starts nothing.

import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARGV_PROMPT_LIMIT, type LaunchOptions, type LaunchSpec } from '../src/plugins/api.js';
import { opencodeAccountEnv } from './opencode-home.js';

/** Writes a prompt too long for argv where the agent can read it; returns the path and its relative name. */
export function writeHandoffFile(cwd: string, switchId: string | undefined, text: string): { path: string; rel: string } {
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

/** The short message that points the agent at a handoff file. */
export function handoffPointer(rel: string, chars: number): string {
  return `Your first message is too long to pass on the command line (${chars} characters), so it was saved to the file ${rel} in this directory. Read that whole file now and act on it exactly as if it had been typed here.`;
}

export function opencodeLaunch(opts: LaunchOptions): LaunchSpec {
  const args: string[] = [];
  if (opts.resume) {
    args.push('--session', opts.resume);
    if (opts.fork) args.push('--fork');
  }
  if (opts.model) args.push('--model', opts.model);
  args.push(...(opts.args ?? []));
  const spec: LaunchSpec = {
    command: 'opencode',
    args,
    env: { ...opencodeAccountEnv(opts.env, opts.account), PWD: opts.cwd },
    cwd: opts.cwd,
    prompt: 'none',
  };
  const prompt = opts.initialPrompt;
  if (prompt) {
    let text = prompt;
    if (Buffer.byteLength(prompt) > ARGV_PROMPT_LIMIT) {
      const file = writeHandoffFile(opts.cwd, opts.switchId, prompt);
      spec.files = [file.path];
      text = handoffPointer(file.rel, prompt.length);
    }
    // One `--prompt=` string, so a message that starts with "-" is not taken for an option.
    args.push(`--prompt=${text}`);
    spec.prompt = 'argv';
  }
  return spec;
}
