// A model change inside Gemini CLI's running TUI session (changeModelInTab), in place of
// stopping it and relaunching `gemini --resume ID -m M`: types `/model set <name>` at its
// prompt. Gemini CLI 0.61 sets that model for the session as typed (any name; without
// `--persist` it is not saved as the default, so settings.json is not written and nothing
// needs putting back), and the UI's answer, an info item "Model set to <name>", is also a
// record of the session's own chat log (`{"type":"info","content":"Model set to <name>"}`):
// that record is the confirmation. Plain `/model` would open a dialog instead (Auto, or
// Manual and then a list of concrete models, with a "Remember model" toggle); the
// subcommand reaches any model by name without it. Anything else (no chat log, no answer in
// time, a name outside the safe charset) is `unsupported`, and the switch relaunches the CLI
// on its session as before.

import { appendedSince, fileSize, jsonRecords, type ModelChangeOptions, type ModelChangeResult, SAFE_MODEL_NAME, typeCommand } from '../../src/plugins/kit.js';
import { findChat, geminiDir } from './home.js';

export async function changeGeminiModel(opts: ModelChangeOptions): Promise<ModelChangeResult> {
  if (!SAFE_MODEL_NAME.test(opts.model)) return { kind: 'unsupported', why: `model name ${JSON.stringify(opts.model)} is not typed into the CLI` };
  const log = findChat(geminiDir(opts.env, opts.account), opts.session);
  if (!log) return { kind: 'unsupported', why: `no chat log of session ${opts.session}` };
  const from = fileSize(log);
  const said = `Model set to ${opts.model}`;
  const answered = await typeCommand({
    text: `/model set ${opts.model}`,
    write: opts.write,
    screen: opts.screen,
    timeoutMs: opts.timeoutMs,
    answered: () => jsonRecords(appendedSince(log, from)).some((r) => r.type === 'info' && r.content === said),
  });
  return answered ? { kind: 'changed' } : { kind: 'unsupported', why: `Gemini CLI did not answer /model set ${opts.model}` };
}
