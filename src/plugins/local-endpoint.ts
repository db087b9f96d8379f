// Asks a local model server (Ollama, LM Studio, vLLM, any OpenAI-compatible one) which models
// it serves and which wire APIs it speaks, without generating anything: a model list, then
// an empty POST to each API's path, where 404/405 means "not spoken" and any other answer
// (400 for the empty body, usually) means the route exists. It never sends a prompt.

import { BatonError, EXIT } from '../errors.js';
import type { LocalApi } from './local-family.js';

export const DEFAULT_LOCAL_ENDPOINT = 'http://127.0.0.1:11434';

export const API_PATHS: Record<LocalApi, string> = {
  'openai-chat': '/v1/chat/completions',
  'openai-responses': '/v1/responses',
  'anthropic-messages': '/v1/messages',
};

export interface EndpointProbe {
  endpoint: string;
  models: string[];
  apis: LocalApi[];
}

/** The endpoint's base URL without a trailing slash or `/v1`: the drivers add their own paths. */
export function normalizeEndpoint(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new BatonError(`--endpoint "${url}" is not a URL`, EXIT.badInput, `give one like ${DEFAULT_LOCAL_ENDPOINT}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new BatonError(`--endpoint "${url}" is not http(s)`, EXIT.badInput, `give one like ${DEFAULT_LOCAL_ENDPOINT}`);
  return `${u.origin}${u.pathname}`.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** Model names from an OpenAI `/v1/models` body ({data:[{id}]}) or Ollama's `/api/tags` ({models:[{name}]}). */
export function modelNames(body: unknown): string[] {
  if (typeof body !== 'object' || body === null) return [];
  const o = body as { data?: unknown; models?: unknown };
  const list = Array.isArray(o.data) ? o.data : Array.isArray(o.models) ? o.models : [];
  const names = list.map((m: unknown) => {
    const e = (typeof m === 'object' && m !== null ? m : {}) as { id?: unknown; name?: unknown; model?: unknown };
    return [e.id, e.name, e.model].find((v): v is string => typeof v === 'string' && v !== '');
  });
  return [...new Set(names.filter((n): n is string => n !== undefined))];
}

/**
 * Whether a server listing `listed` serves `model`: by its name, or, without a tag, as
 * `<model>:latest` (Ollama lists what `ollama pull qwen3-coder` fetched as
 * `qwen3-coder:latest`, and serves it by either name).
 */
export function listsModel(listed: readonly string[], model: string): boolean {
  return listed.includes(model) || (!model.includes(':') && listed.includes(`${model}:latest`));
}

/** Whether an HTTP status to an empty POST says the route exists. */
export const routeExists = (status: number): boolean => status !== 404 && status !== 405 && status !== 501;

/**
 * Probes `endpoint` (already normalized). BatonError exit 2 when nothing answers, naming the
 * endpoint and how to start or name one.
 */
export async function probeEndpoint(endpoint: string, timeoutMs = 5000): Promise<EndpointProbe> {
  const get = async (path: string, init?: RequestInit): Promise<Response | undefined> => {
    try {
      return await fetch(`${endpoint}${path}`, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch {
      return undefined;
    }
  };
  const models: string[] = [];
  let answered = false;
  for (const path of ['/v1/models', '/api/tags']) {
    const res = await get(path);
    if (!res) continue;
    answered = true;
    if (res.ok) models.push(...modelNames(await res.json().catch(() => undefined)));
    else await res.body?.cancel();
  }
  if (!answered) {
    throw new BatonError(`no model server answers at ${endpoint}`, EXIT.badInput, 'start it (e.g. `ollama serve`) or name another with --endpoint URL');
  }
  const apis: LocalApi[] = [];
  for (const [api, path] of Object.entries(API_PATHS) as [LocalApi, string][]) {
    const res = await get(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    if (!res) continue;
    await res.body?.cancel();
    if (routeExists(res.status)) apis.push(api);
  }
  return { endpoint, models: [...new Set(models)], apis };
}
