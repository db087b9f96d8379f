// A model change inside Claude Code's running TUI session (changeModelInTab), in place of
// stopping it and relaunching `claude --resume ID --model M`: types `/model <name>` at its
// prompt. Claude Code 2.1.197 then asks "Switch model?" once the conversation is cached
// (option 1, "Yes, switch to …", is selected: a second Enter takes it; an Enter at an empty
// prompt does nothing), and logs the command's answer in the session's own log as a user record
// `<local-command-stdout>Set model to <display name> and saved as your default for new
// sessions</local-command-stdout>`; that line is the confirmation. As it says, the CLI also
// writes the model into settings.json (the user's default for every new session); that key is
// put back as it was, which leaves the running session on the new model (seen by hand).
// Anything else (no log, no answer in time, a name outside the safe charset) is `unsupported`,
// and the switch relaunches the CLI on its session as before.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { appendedSince, fileSize, type ModelChangeOptions, type ModelChangeResult, SAFE_MODEL_NAME } from '../../src/plugins/kit.js';
import { claudeConfigDir, findSessionLog } from './home.js';

const SET = /<local-command-stdout>Set model to /;
/** Between the typed command and its Enter, so the TUI takes the text as typed, not one paste with a newline. */
const SETTLE_MS = 300;
/** How long an unanswered command waits before the second Enter (the "Switch model?" question's default). */
const CONFIRM_MS = 1_500;
const POLL_MS = 100;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether the log, past `from`, has the command's "Set model to" answer (only what was appended is read: the log may be large, and this is asked every poll). */
function answered(log: string, from: number): boolean {
  return appendedSince(log, from).some((line) => SET.test(line));
}

/** settings.json's `model` key as it is now ('absent' when there is none), or undefined when unreadable. */
function settingsModel(path: string): { value: unknown } | 'absent' | undefined {
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    return 'model' in data ? { value: data.model } : 'absent';
  } catch {
    return undefined;
  }
}

/** Puts settings.json's `model` back to `before`, keeping whatever else the CLI wrote. */
function restoreDefault(path: string, before: { value: unknown } | 'absent' | undefined): void {
  if (before === undefined) return;
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    if (before === 'absent') {
      if (!('model' in data)) return;
      delete data.model;
    } else if (data.model === before.value) return;
    else data.model = before.value;
    writeFileSync(path, `${JSON.stringify(data, null, 2)}\n`);
  } catch {
    // Left as the CLI wrote it: the change itself took.
  }
}

export async function changeClaudeModel(opts: ModelChangeOptions): Promise<ModelChangeResult> {
  if (!SAFE_MODEL_NAME.test(opts.model)) return { kind: 'unsupported', why: `model name ${JSON.stringify(opts.model)} is not typed into the CLI` };
  const configDir = claudeConfigDir(opts.env, opts.account);
  const log = findSessionLog(configDir, opts.cwd ?? opts.env.PWD ?? process.cwd(), opts.session);
  if (!log) return { kind: 'unsupported', why: `no log of session ${opts.session}` };
  const settings = join(configDir, 'settings.json');
  const before = settingsModel(settings);
  const from = fileSize(log);
  opts.write(`/model ${opts.model}`);
  await sleep(SETTLE_MS);
  opts.write('\r');
  const start = Date.now();
  let confirmed = false;
  while (Date.now() - start < opts.timeoutMs) {
    await sleep(POLL_MS);
    if (answered(log, from)) {
      restoreDefault(settings, before);
      return { kind: 'changed' };
    }
    if (!confirmed && Date.now() - start >= CONFIRM_MS) {
      opts.write('\r');
      confirmed = true;
    }
  }
  // Whatever question is left open is closed; the relaunch stops the CLI anyway.
  opts.write('\x1b');
  return { kind: 'unsupported', why: `Claude Code did not answer /model ${opts.model}` };
}
