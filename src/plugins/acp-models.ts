// The models an ACP agent offers, from its own answer to `session/new`: the config option of
// category `model` (ACP's configOptions), else the older `models` field some agents still
// send (Gemini CLI, Qwen Code: availableModels + currentModelId). Asking makes a session the
// agent may keep on disk (unused, no turn), so the answer is cached per build (model-cache.ts).

import type { ModelInfo, ModelList, ModelListOptions } from './api.js';
import { askAcpAgent } from './acp-probe.js';
import { findExecutable } from './find-executable.js';
import { cachedModels } from './model-cache.js';
import type { AcpAgentDecl } from './validate.js';

type Loose = Record<string, unknown> | null | undefined;

const text = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

function info(id: unknown, name: unknown, description: unknown): ModelInfo | undefined {
  const i = text(id);
  if (!i) return undefined;
  const out: ModelInfo = { id: i };
  const n = text(name);
  const d = text(description);
  if (n && n !== i) out.name = n;
  if (d) out.description = d;
  return out;
}

/** The models and the current one in a session/new (or session/load) answer; undefined when it names none. */
export function modelsFromSession(response: unknown): { models: ModelInfo[]; current?: string } | undefined {
  const r = response as Loose;
  const options = Array.isArray(r?.configOptions) ? (r.configOptions as Loose[]) : [];
  const option = options.find((o) => o?.type === 'select' && (o.category === 'model' || o.id === 'model'));
  if (option && Array.isArray(option.options)) {
    // Options may come grouped ({ group, name, options }).
    const flat = (option.options as Loose[]).flatMap((o) => (Array.isArray(o?.options) ? (o.options as Loose[]) : [o]));
    const models = flat.map((o) => info(o?.value, o?.name, o?.description)).filter((m): m is ModelInfo => !!m);
    if (models.length) return { models, ...(text(option.currentValue) ? { current: option.currentValue as string } : {}) };
  }
  const legacy = r?.models as Loose;
  if (legacy && Array.isArray(legacy.availableModels)) {
    const models = (legacy.availableModels as Loose[]).map((m) => info(m?.modelId, m?.name, m?.description)).filter((m): m is ModelInfo => !!m);
    if (models.length) return { models, ...(text(legacy.currentModelId) ? { current: legacy.currentModelId as string } : {}) };
  }
  return undefined;
}

/** The models `decl`'s agent offers in `opts.cwd`, or undefined when it cannot be asked or names none. */
export async function acpModels(decl: AcpAgentDecl, opts: ModelListOptions): Promise<ModelList | undefined> {
  const env = { ...opts.env, ...(decl.env ?? {}) };
  const path = findExecutable(decl.command, env, opts.cwd);
  if (!path) return undefined;
  const ask = async (): Promise<ModelList | undefined> => {
    const found = await askAcpAgent(decl, { env: opts.env, cwd: opts.cwd }, async (client) => modelsFromSession(await client.newSession(opts.cwd)));
    return found ? { ...found, source: 'acp', note: `${decl.title ?? decl.name}'s answer to ACP session/new` } : undefined;
  };
  return cachedModels(path, [...(decl.args ?? [])], env, ask, { refresh: opts.refresh });
}

/** acpModels, with an agent that could not be asked (not installed, no answer) as an empty list saying so. */
export async function acpModelList(decl: AcpAgentDecl, opts: ModelListOptions): Promise<ModelList> {
  return (await acpModels(decl, opts)) ?? { models: [], source: 'acp', note: `${decl.title ?? decl.name} could not be asked (ACP session/new)` };
}

/**
 * How a model is changed in a running session, from the session/new (or load) answer: the
 * config option of category `model` (session/set_config_option), else the older `models`
 * field (session/set_model); undefined when the agent advertises neither.
 */
export type ModelControl = { via: 'config'; configId: string; ids: string[]; current?: string } | { via: 'set_model'; ids: string[]; current?: string };

export function modelControl(response: unknown): ModelControl | undefined {
  const r = response as Loose;
  const options = Array.isArray(r?.configOptions) ? (r.configOptions as Loose[]) : [];
  const option = options.find((o) => o?.type === 'select' && (o.category === 'model' || o.id === 'model'));
  const found = modelsFromSession(response);
  if (option && text(option.id)) {
    const opt = modelsFromSession({ configOptions: [option] });
    return { via: 'config', configId: option.id as string, ids: (opt?.models ?? []).map((m) => m.id), ...(opt?.current ? { current: opt.current } : {}) };
  }
  if (found && r?.models) return { via: 'set_model', ids: found.models.map((m) => m.id), ...(found.current ? { current: found.current } : {}) };
  return undefined;
}

/** A model id as `--model` takes it: Qwen Code's ACP ids carry a runtime prefix and the auth type (`$runtime|openai|m(openai)`). */
export function bareModelName(id: string): string {
  const last = id.split('|').pop() ?? id;
  return last.replace(/\([^()]*\)$/, '') || id;
}

/** The agent's own id for the model `wanted` (its id, or the bare name baton lists); `wanted` itself when the agent lists none such. */
export function agentModelId(ids: readonly string[], wanted: string): string {
  return ids.find((id) => id === wanted) ?? ids.find((id) => bareModelName(id) === wanted) ?? wanted;
}
