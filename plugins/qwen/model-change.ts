// A model change inside Qwen Code's running TUI session (changeModelInTab), in place of
// stopping it and relaunching `qwen --model M --resume ID`: types `/model <name>` at its
// prompt (plain `/model` opens a dialog of the same models). Qwen Code 0.15 switches only to a
// model its settings configure for the session's auth type (settings.modelProviders); any
// other name it refuses on screen ("Model 'x' is not available for auth type 'openai'"),
// while `--model x` at launch takes it, so that is `unsupported` and the relaunch does it.
// What confirms the switch: the session's chat log records the command once it has run (a
// system record, subtype slash_command, phase result, with the command as typed; its output
// is not in it), and the switch saves the model as the user's default, model.name in the
// settings file that holds the modelProviders (the workspace's when it has its own, else
// QWEN_HOME's): that file changed to the name means the session runs it. baton puts
// model.name back as it was, which leaves the running session on the new model (seen by
// hand: later turns still ask for it). Hence also `unsupported`, without typing anything:
// a settings file baton cannot rewrite as it was (not plain JSON: Qwen Code allows comments),
// or one whose default already is the name (the switch could not be told from a refusal).

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { appendedSince, fileSize, jsonRecords, type ModelChangeOptions, type ModelChangeResult, SAFE_MODEL_NAME, typeCommand } from '../../src/plugins/kit.js';
import { findChatLog, qwenHome, qwenRuntimeDir } from './home.js';

type Rec = Record<string, unknown>;
/** A settings file's model.name as it was: absent, its value, or a file baton does not rewrite. */
type Default = { path: string; exists: boolean; name: unknown } | { path: string; unreadable: true };

const isObj = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

function readSettings(path: string): Rec | 'missing' | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : undefined;
  }
  try {
    const v: unknown = JSON.parse(text);
    return isObj(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

function defaultIn(path: string): Default {
  const s = readSettings(path);
  if (s === undefined) return { path, unreadable: true };
  if (s === 'missing') return { path, exists: false, name: undefined };
  return { path, exists: true, name: isObj(s.model) ? s.model.name : undefined };
}

/** model.name in `d`'s file now. */
const nameNow = (d: Default): unknown => {
  const s = readSettings(d.path);
  return isObj(s) && isObj(s.model) ? s.model.name : undefined;
};

/** Puts model.name back as it was, keeping whatever else the CLI wrote. */
function restore(d: Default): void {
  if ('unreadable' in d) return;
  const s = readSettings(d.path);
  if (!isObj(s) || !isObj(s.model) || s.model.name === d.name) return;
  if (d.name === undefined) {
    delete s.model.name;
    if (Object.keys(s.model).length === 0) delete s.model;
  } else s.model.name = d.name;
  try {
    writeFileSync(d.path, `${JSON.stringify(s, null, 2)}\n`);
  } catch {
    // Left as the CLI wrote it: the change itself took.
  }
}

export async function changeQwenModel(opts: ModelChangeOptions): Promise<ModelChangeResult> {
  const model = opts.model;
  if (!SAFE_MODEL_NAME.test(model)) return { kind: 'unsupported', why: `model name ${JSON.stringify(model)} is not typed into the CLI` };
  const cwd = opts.cwd ?? opts.env.PWD ?? process.cwd();
  const log = findChatLog(qwenRuntimeDir(opts.env, opts.account), cwd, opts.session);
  if (!log) return { kind: 'unsupported', why: `no chat log of session ${opts.session}` };
  // The files /model may write the default into: QWEN_HOME's and the project's own.
  const paths = [...new Set([join(qwenHome(opts.env, opts.account), 'settings.json'), join(cwd, '.qwen', 'settings.json')])];
  const before = paths.map(defaultIn);
  const odd = before.find((d) => 'unreadable' in d || d.name === model);
  if (odd) return { kind: 'unsupported', why: `${odd.path} is not plain JSON or already names ${model}: the change could not be confirmed and undone` };
  const from = fileSize(log);
  const typed = `/model ${model}`;
  const ran = await typeCommand({
    // The trailing space closes the completion popup that offers the name (its Enter would take the completion, not run the command).
    text: `${typed} `,
    write: opts.write,
    screen: opts.screen,
    timeoutMs: opts.timeoutMs,
    answered: () =>
      jsonRecords(appendedSince(log, from)).some(
        (r) => r.subtype === 'slash_command' && isObj(r.systemPayload) && r.systemPayload.phase === 'result' && r.systemPayload.rawCommand === typed,
      ),
  });
  const switched = before.some((d) => nameNow(d) === model);
  for (const d of before) restore(d);
  if (switched) return { kind: 'changed' };
  return {
    kind: 'unsupported',
    why: ran ? `Qwen Code has no ${model} among the models its settings configure` : `Qwen Code did not answer /model ${model}`,
  };
}
