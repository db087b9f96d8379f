// A model change inside Codex's running TUI session (changeModelInTab), in place of stopping
// it and relaunching `codex resume ID -m M`: types `/model <name>` at its prompt. Codex 0.171.0
// takes the argument form without its picker (bare `/model` opens "Select Model and Effort",
// then a reasoning step whose Enter saves a default and whose `s` keeps it to the session) and
// answers "Model changed to <name> <effort> for this session only": config.toml's `model`, the
// user's default, is left as it was (seen by hand and in the real test), so there is nothing
// to put back. It appends to the session's rollout an event_msg `thread_settings_applied`
// whose thread_settings.model is the new name; that record is the confirmation (the
// turn_context naming it comes only with the next turn). Codex accepts only the models of its
// own catalog (the ones codex's picker lists, as codexModels does); any other name it answers
// "Model '<name>' is unavailable. Use /model to see available models." and that, like a name
// outside the safe charset, no rollout, a prompt that did not show the command, or no answer in
// time, is `unsupported`: the switch relaunches codex on its session with -m, which runs any
// name the provider serves.

import { appendedSince, fileSize, type ModelChangeOptions, type ModelChangeResult, SAFE_MODEL_NAME } from '../../src/plugins/kit.js';
import { codexHome, findRollout } from './home.js';

/** How long the typed command may take to show in codex's prompt before the Enter. */
const TYPED_MS = 5_000;
const POLL_MS = 100;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether a rollout line is codex's record of the thread now running `model`. */
export function appliedModel(line: string, model: string): boolean {
  if (!line.includes('thread_settings_applied')) return false;
  try {
    const r = JSON.parse(line) as { type?: string; payload?: { type?: string; thread_settings?: { model?: unknown } } };
    return r.type === 'event_msg' && r.payload?.type === 'thread_settings_applied' && r.payload.thread_settings?.model === model;
  } catch {
    return false;
  }
}

/** Whether the rollout, past `from`, records the thread on `model` (only what was appended is read). */
function applied(rollout: string, from: number, model: string): boolean {
  return appendedSince(rollout, from).some((line) => appliedModel(line, model));
}

/** Whether codex's prompt line holds exactly `command` (its composer: `› ` then the text). */
export function promptHolds(lines: readonly string[], command: string): boolean {
  return lines.some((line) => line.trim() === `› ${command}`);
}

/** How many times codex has said, on the screen now, that `model` is not one it can switch to in the session. */
export function unavailableCount(lines: readonly string[], model: string): number {
  return lines.filter((line) => line.includes(`Model '${model}' is unavailable`)).length;
}

/** The first answer of `test` other than undefined, polled until `ms` have passed. */
async function poll<T>(test: () => T | undefined, ms: number): Promise<T | undefined> {
  const start = Date.now();
  for (;;) {
    const got = test();
    if (got !== undefined) return got;
    if (Date.now() - start >= ms) return undefined;
    await sleep(POLL_MS);
  }
}

export async function changeCodexModel(opts: ModelChangeOptions): Promise<ModelChangeResult> {
  if (!SAFE_MODEL_NAME.test(opts.model)) return { kind: 'unsupported', why: `model name ${JSON.stringify(opts.model)} is not typed into the CLI` };
  const rollout = findRollout(codexHome(opts.env, opts.account), opts.session);
  if (!rollout) return { kind: 'unsupported', why: `no rollout of session ${opts.session}` };
  const from = fileSize(rollout);
  const command = `/model ${opts.model}`;
  // An earlier answer for the same name may still be on screen: only a new one counts.
  const refusedBefore = unavailableCount(opts.screen(), opts.model);
  opts.write(command);
  // The Enter only once the prompt shows the command alone: typed into a draft, it is taken back
  // (one backspace per character typed, so the draft is left as it was).
  if (!(await poll(() => (promptHolds(opts.screen(), command) ? true : undefined), TYPED_MS))) {
    opts.write('\x7f'.repeat(command.length));
    return { kind: 'unsupported', why: `codex's prompt did not show ${command}` };
  }
  opts.write('\r');
  const answer = await poll(() => {
    if (applied(rollout, from, opts.model)) return 'changed';
    if (unavailableCount(opts.screen(), opts.model) > refusedBefore) return 'unavailable';
    return undefined;
  }, opts.timeoutMs);
  if (answer === 'changed') return { kind: 'changed' };
  // Not a refusal of the switch: relaunched with -m, codex runs any name its provider serves.
  if (answer === 'unavailable') return { kind: 'unsupported', why: `codex's catalog does not list ${opts.model} for a change in the session` };
  return { kind: 'unsupported', why: `Codex did not answer ${command}` };
}
