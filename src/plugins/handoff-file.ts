// A brief too long to paste into a CLI with the message it goes with (a brief may be 200k
// characters) is written to `<cwd>/.baton/handoff-<switchId>.md` (dir 0700, file 0600) and the
// CLI is given a short pointer to it before the message. The file is the
// user's worktree's guest: `.baton/` is added to the repository's own exclude file
// (.git/info/exclude, never a tracked .gitignore) so it never shows in `git status`, and
// whoever runs the launch removes it when the run ends (removeLaunchFiles). Writes only
// that file, that directory and that one exclude line.

import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { appendFileSync, closeSync, constants, fchmodSync, lstatSync, mkdirSync, openSync, readFileSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { badInput } from '../errors.js';
import { BRIEF_BEGIN } from '../transcript/brief-sections.js';
import { ARGV_PROMPT_LIMIT } from './api.js';

export const HANDOFF_DIR = '.baton';
const EXCLUDE_LINE = `${HANDOFF_DIR}/`;

export interface HandoffPrompt {
  /** What is pasted: the brief and the message, or a pointer to the brief's file and the message. */
  text: string;
  /** The file holding the brief, when the whole was too long to paste (absolute). */
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

/**
 * `<cwd>/.baton`, made 0700 if missing. One that is a symbolic link or not a directory is
 * refused: baton would otherwise chmod the link's target and write a brief into it.
 */
function handoffDir(cwd: string): string {
  const dir = join(cwd, HANDOFF_DIR);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  const st = lstatSync(dir);
  if (st.isSymbolicLink() || !st.isDirectory()) {
    throw badInput(
      `${dir} is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a directory'}; baton writes handoff briefs there only into a directory of its own`,
      `remove ${dir} (baton makes it again, 0700)`,
    );
  }
  // Opened without following links, so the mode is set on this very directory.
  const fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  try {
    fchmodSync(fd, 0o700);
  } finally {
    closeSync(fd);
  }
  return dir;
}

/** Writes `text` where the agent can read it; returns the absolute path and the name relative to cwd. */
export function writeHandoffFile(cwd: string, switchId: string | undefined, text: string): { path: string; rel: string } {
  const id =
    (switchId ?? randomUUID())
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .replace(/^\.+/, '_')
      .slice(0, 80) || randomUUID();
  // Excluded before the file exists, so no `git status` in between ever lists it.
  excludeHandoffDir(cwd);
  handoffDir(cwd);
  const rel = `${HANDOFF_DIR}/handoff-${id}.md`;
  const path = join(cwd, rel);
  // Never through a link: a file planted there as a symlink is refused (ELOOP), not followed.
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o600);
  try {
    fchmodSync(fd, 0o600);
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
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

/**
 * What is pasted into a CLI to send `message` with the `brief` it must hear first: both whole
 * when they fit ARGV_PROMPT_LIMIT, else the brief in a 0600 file and a pointer to it, the
 * message always last and unchanged (delivery recognises the message at the end of what the
 * CLI logs, and the transcript records only the message).
 */
export function briefAndMessage(cwd: string, brief: string, message: string, switchId: string | undefined, limit = ARGV_PROMPT_LIMIT): HandoffPrompt {
  const whole = `${brief}\n\n${message}`;
  if (Buffer.byteLength(whole, 'utf8') <= limit) return { text: whole };
  const file = writeHandoffFile(cwd, switchId, brief);
  return {
    text: `${BRIEF_BEGIN} The conversation so far (${brief.length} characters) is in the file ${file.path}. Read that whole file first, then answer my message below.\n\n${message}`,
    file: file.path,
  };
}
