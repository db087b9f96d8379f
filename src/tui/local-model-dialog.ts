// The pickers' "Local model…" entry (new tab and switch): asks for the model and the server
// (default: the configured one, else Ollama's 127.0.0.1:11434), has the conversation layer
// probe it and choose the harness (local-choice.ts, as `baton chat --local` does), and says
// plainly when nothing answers there or no installed agent can run the model's family (which
// to install), with a way to try again. It starts nothing: the caller starts or arms the
// chosen harness with the server, which its segment then remembers.

import { chooseLocal, defaultLocalEndpoint, type LocalPick } from '../conversation/index.js';
import { BatonError } from '../errors.js';
import type { Registry } from '../plugins/registry.js';
import type { OverlayHost } from './overlay.js';
import { choose, type LiveChoices, type PickerChoice } from './picker.js';
import { askText } from './text-question.js';

export type { LocalPick } from '../conversation/index.js';

/** The picker row's value. */
export type LocalRow = { kind: 'local' };

export const LOCAL_ROW: PickerChoice<LocalRow> = {
  label: 'Local model…',
  detail: 'Ollama, LM Studio, vLLM, any OpenAI-compatible server',
  value: { kind: 'local' },
};

/** `choices` with the "Local model…" row after the agents (before the plain shell, when listed). */
export function withLocalRow<T extends { kind: string }>(choices: LiveChoices<T>): LiveChoices<T | LocalRow> {
  return {
    list: () => {
      const rows: PickerChoice<T | LocalRow>[] = choices.list();
      const shell = rows.findIndex((r) => r.value.kind === 'shell');
      rows.splice(shell >= 0 ? shell : rows.length, 0, LOCAL_ROW);
      return rows;
    },
    note: () => choices.note(),
    onChange: choices.onChange,
    ...(choices.settled ? { settled: choices.settled } : {}),
  };
}

export interface LocalModelDeps {
  registry: Registry;
  env: NodeJS.ProcessEnv;
  /** Tells the user what is going on (the probe may take a few seconds). */
  say(text: string): void;
}

/** Asks, probes and chooses; resolves with the pick, or undefined when the user gave up (Esc). */
export async function askLocalModel(host: OverlayHost, deps: LocalModelDeps): Promise<LocalPick | undefined> {
  let last: { model?: string; endpoint?: string } = {};
  for (;;) {
    const model = await askText(host, {
      title: 'Local model',
      lines: ['The model to run, as the server names it (e.g. qwen2.5-coder, gpt-oss:20b, llama3.1:8b).'],
      ...(last.model ? { fallback: last.model } : {}),
    });
    if (model === undefined) return undefined;
    if (!model) continue;
    const endpoint = await askText(host, {
      title: `Server for ${model}`,
      lines: ['Where it is served: Ollama, LM Studio, vLLM or any OpenAI-compatible (or Anthropic-compatible) server.'],
      fallback: last.endpoint ?? defaultLocalEndpoint(deps.env),
    });
    if (endpoint === undefined) return undefined;
    last = { model, endpoint };
    deps.say(`Asking ${endpoint} which models and APIs it serves…`);
    try {
      return await chooseLocal(deps.registry, model, endpoint, deps.env);
    } catch (err) {
      const { message, hint } = err instanceof BatonError ? err : { message: String((err as Error)?.message ?? err), hint: undefined };
      const text = [sentence(message), ...(hint ? [sentence(tuiHint(hint))] : [])].join('\n');
      const again = await choose(host, 'Local model', text, [{ key: 'r', label: 'try again', value: true }], { enterTakes: true, escape: 'give up' });
      if (!again) return undefined;
    }
  }
}

const sentence = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1) + (/[.!?)]$/.test(s) ? '' : '.');

/** A hint written for `baton chat --local` (its flags), said the dialog's way. */
export function tuiHint(hint: string): string {
  return hint
    .replace(/name another with --endpoint URL/g, 'try another server')
    .replace(/, or name one with --agent/g, ', or pick an installed agent from the list')
    .replace(/check --endpoint/g, 'check the server address');
}
