// A first message too long for the command line (Linux refuses one argv string over
// 128 KiB; a brief may be 200k characters) is written to `<cwd>/.baton/handoff-<switchId>.md`
// (dir 0700, file 0600) and the CLI is given a short message pointing at it. One
// implementation for every driver that passes its first prompt in argv. Writes only that file.

import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARGV_PROMPT_LIMIT } from './api.js';

export interface HandoffPrompt {
  /** What goes on the command line: the prompt itself, or the pointer to the file. */
  text: string;
  /** The file holding the whole prompt, when it was too long for argv (absolute). */
  file?: string;
}

/** Writes `text` where the agent can read it; returns the absolute path and the name relative to cwd. */
export function writeHandoffFile(cwd: string, switchId: string | undefined, text: string): { path: string; rel: string } {
  const id = (switchId ?? randomUUID()).replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_').slice(0, 80) || randomUUID();
  const dir = join(cwd, '.baton');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const rel = `.baton/handoff-${id}.md`;
  const path = join(cwd, rel);
  writeFileSync(path, text, { mode: 0o600 });
  chmodSync(path, 0o600);
  return { path, rel };
}

/** The prompt as it goes on the command line, through a handoff file when it is too long. */
export function handoffPrompt(cwd: string, prompt: string, switchId: string | undefined, limit = ARGV_PROMPT_LIMIT): HandoffPrompt {
  if (Buffer.byteLength(prompt, 'utf8') <= limit) return { text: prompt };
  const file = writeHandoffFile(cwd, switchId, prompt);
  return {
    text: `Your first message is too long to pass on the command line (${prompt.length} characters), so it was saved to the file ${file.path}. Read that whole file now and act on it exactly as if it had been typed here.`,
    file: file.path,
  };
}
