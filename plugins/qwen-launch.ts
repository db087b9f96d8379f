// The first message of a Qwen Code tab, as it goes on the command line: the message itself
// when it fits one argv string, else a short request to read `.baton/handoff-<switchId>.md`
// in the worktree, where the whole message is written (dir 0700, file 0600): Linux refuses
// a single argv string over 128 KiB. It writes only that one file.

import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface HandoffPrompt {
  /** What goes on the command line. */
  text: string;
  /** The file holding the whole prompt, when it was too long for argv. */
  file?: string;
}

/** The file a too-long first message is written to. */
export function handoffFile(cwd: string, switchId: string): string {
  if (!/^[A-Za-z0-9._-]{1,128}$/.test(switchId) || switchId.startsWith('.')) throw new Error(`unusable switch id "${switchId}"`);
  return join(cwd, '.baton', `handoff-${switchId}.md`);
}

export function handoffPrompt(cwd: string, prompt: string, switchId: string | undefined, limit: number): HandoffPrompt {
  if (Buffer.byteLength(prompt, 'utf8') <= limit) return { text: prompt };
  const dir = join(cwd, '.baton');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const file = handoffFile(cwd, switchId ?? randomUUID());
  writeFileSync(file, prompt, { mode: 0o600 });
  chmodSync(file, 0o600);
  return {
    text: `The handoff brief and my message are too long for the command line, so they are in the file ${file}. Read that whole file now, then carry on from it as my message.`,
    file,
  };
}
