// Carries a Claude Code session to another directory: Claude Code files a session under
// projects/<slug of the cwd it ran in>/<id>.jsonl and `--resume ID` only looks in the
// current directory's project dir, so a fork into a git worktree copies the log into the
// worktree's project dir (same id), where `claude --resume ID --fork-session` then finds it
// and writes the fork to a new log of its own. The copy is written 0600 through a temp file
// and a rename; it never modifies or removes the original log, and never overwrites a log
// already there.

import { chmodSync, copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BatonError, EXIT, type ReadSessionOptions } from '../../src/plugins/kit.js';
import { claudeConfigDir, findSessionLog, projectDir } from './home.js';

/** Copies the log; `undo` removes the copy (and nothing when no copy was needed). */
export async function carryClaudeSession(opts: ReadSessionOptions & { toCwd: string }): Promise<{ undo(): Promise<void> }> {
  const configDir = claudeConfigDir(opts.env, opts.account);
  const from = findSessionLog(configDir, opts.cwd, opts.session);
  if (!from) {
    throw new BatonError(
      `Claude Code has no session ${opts.session}`,
      EXIT.badInput,
      `looked for ${opts.session}.jsonl in ${projectDir(configDir, opts.cwd)} and the other project dirs next to it`,
    );
  }
  const dir = projectDir(configDir, opts.toCwd);
  const to = join(dir, `${opts.session}.jsonl`);
  if (to === from || existsSync(to)) return { undo: async () => {} };
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = join(dir, `.${opts.session}.jsonl.baton-${process.pid}`);
  try {
    copyFileSync(from, tmp);
    chmodSync(tmp, 0o600);
    renameSync(tmp, to);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw new BatonError(`could not copy Claude Code session ${opts.session} to ${dir}: ${(err as Error).message}`, EXIT.agentFailed);
  }
  return { undo: async () => rmSync(to, { force: true }) };
}
