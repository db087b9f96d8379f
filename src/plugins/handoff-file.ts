// A first message too long for the command line (Linux refuses one argv string over
// 128 KiB; a brief may be 200k characters) is written to `<cwd>/.baton/handoff-<switchId>.md`
// (dir 0700, file 0600) and the CLI is given a short message pointing at it. One
// implementation for every driver that passes its first prompt in argv. The file is the
// user's worktree's guest: `.baton/` is added to the repository's own exclude file
// (.git/info/exclude, never a tracked .gitignore) so it never shows in `git status`, and
// whoever runs the launch removes it when the run ends (removeLaunchFiles). Writes only
// that file, that directory and that one exclude line.

import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, mkdirSync, readFileSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { ARGV_PROMPT_LIMIT } from './api.js';

export const HANDOFF_DIR = '.baton';
const EXCLUDE_LINE = `${HANDOFF_DIR}/`;

export interface HandoffPrompt {
  /** What goes on the command line: the prompt itself, or the pointer to the file. */
  text: string;
  /** The file holding the whole prompt, when it was too long for argv (absolute). */
  file?: string;
}

/**
 * Makes git ignore `.baton/` in the repository holding `cwd` through its info/exclude
 * (asked from git, so a linked worktree's shared one is found), appended once and never
 * twice, the file's mode kept. False when cwd is in no repository (or git is missing or the
 * file cannot be written): a handoff does not fail for it, the file just stays visible.
 */
export function excludeHandoffDir(cwd: string): boolean {
  const r = spawnSync('git', ['rev-parse', '--git-path', 'info/exclude'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 });
  if (r.status !== 0 || !r.stdout.trim()) return false;
  const path = resolve(cwd, r.stdout.trim());
  try {
    let text = '';
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      // A repository made from a template without info/: git creates it the same way.
      mkdirSync(dirname(path), { recursive: true });
    }
    // `.baton` and `.baton/` (no leading slash) match at any depth, so either covers a cwd below the top.
    if (text.split(/\r?\n/).some((l) => l.trim() === EXCLUDE_LINE || l.trim() === HANDOFF_DIR)) return true;
    const lead = text && !text.endsWith('\n') ? '\n' : '';
    appendFileSync(path, `${lead}# baton: handoff briefs for agent CLIs (removed when the agent ends)\n${EXCLUDE_LINE}\n`);
    return true;
  } catch {
    return false;
  }
}

/** Writes `text` where the agent can read it; returns the absolute path and the name relative to cwd. */
export function writeHandoffFile(cwd: string, switchId: string | undefined, text: string): { path: string; rel: string } {
  const id = (switchId ?? randomUUID()).replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_').slice(0, 80) || randomUUID();
  // Excluded before the file exists, so no `git status` in between ever lists it.
  excludeHandoffDir(cwd);
  const dir = join(cwd, HANDOFF_DIR);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const rel = `${HANDOFF_DIR}/handoff-${id}.md`;
  const path = join(cwd, rel);
  writeFileSync(path, text, { mode: 0o600 });
  chmodSync(path, 0o600);
  return { path, rel };
}

/**
 * Removes the files a launch wrote (LaunchSpec.files) once its run ended, and the `.baton`
 * directory they were in when nothing else is left in it. Files already gone are fine.
 */
export function removeLaunchFiles(files: readonly string[]): void {
  const dirs = new Set<string>();
  for (const f of files) {
    try {
      unlinkSync(f);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') continue;
    }
    if (basename(dirname(f)) === HANDOFF_DIR) dirs.add(dirname(f));
  }
  for (const d of dirs) {
    try {
      rmdirSync(d);
    } catch {
      // Not empty (another tab's handoff, the user's own files) or already gone: it stays.
    }
  }
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
