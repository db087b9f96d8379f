// Codex's models from codex itself: `codex debug models --bundled` prints the catalog shipped
// with the binary (no network: --bundled skips the refresh), of which the entries marked
// `visibility: "list"` are what codex's own /model picker offers, in its priority order. The
// current one is `model` in the account's config.toml, when set. A model with a successor
// (`upgrade`) is said so: codex's TUI moves a session on it to the successor by itself. Cached per build and
// account (kit's cachedModels): codex is started once per installed version.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cachedModels, findExecutable, runGroup, type ModelInfo, type ModelList, type ModelListOptions } from '../../src/plugins/kit.js';
import { codexAccountEnv, codexHome } from './home.js';

const ARGS = ['debug', 'models', '--bundled'];

interface CatalogEntry {
  slug?: unknown;
  display_name?: unknown;
  description?: unknown;
  visibility?: unknown;
  priority?: unknown;
  upgrade?: { model?: unknown } | null;
}

/** The listed models of a `codex debug models` catalog, in priority order. */
export function codexCatalogModels(json: string): ModelInfo[] {
  let data: { models?: CatalogEntry[] };
  try {
    data = JSON.parse(json) as { models?: CatalogEntry[] };
  } catch {
    return [];
  }
  const entries = Array.isArray(data?.models) ? data.models : [];
  return entries
    .filter((m) => typeof m.slug === 'string' && m.slug && m.visibility === 'list')
    .sort((a, b) => (typeof a.priority === 'number' ? a.priority : 1e9) - (typeof b.priority === 'number' ? b.priority : 1e9))
    .map((m) => {
      const out: ModelInfo = { id: m.slug as string };
      if (typeof m.display_name === 'string' && m.display_name !== m.slug) out.name = m.display_name;
      if (typeof m.description === 'string' && m.description) out.description = m.description;
      // codex's TUI moves a session on such a model to its successor (seen: gpt-5.5 -> gpt-6-sol).
      const next = m.upgrade?.model;
      if (typeof next === 'string' && next) out.description = `${out.description ? `${out.description} ` : ''}(codex's TUI moves it to ${next})`;
      return out;
    });
}

/** `model = "..."` at the top of a config.toml (before any [table]), when set. */
export function configuredModel(toml: string): string | undefined {
  for (const line of toml.split('\n')) {
    if (/^\s*\[/.test(line)) return undefined;
    const m = /^\s*model\s*=\s*"([^"]+)"/.exec(line);
    if (m) return m[1];
  }
  return undefined;
}

export async function codexModels(opts: ModelListOptions): Promise<ModelList> {
  const env = { ...opts.env, ...codexAccountEnv(opts.env, opts.account) };
  let current: string | undefined;
  try {
    current = configuredModel(readFileSync(join(codexHome(opts.env, opts.account), 'config.toml'), 'utf8'));
  } catch {
    // no config.toml: codex's own default
  }
  const note = '`codex debug models --bundled` (the catalog shipped with this codex)';
  const path = findExecutable('codex', env, opts.cwd);
  const list = path
    ? await cachedModels(
        path,
        ARGS,
        env,
        async () => {
          const r = await runGroup(path, ARGS, { env, cwd: opts.cwd, timeoutMs: 15_000, maxBytes: 8 * 1024 * 1024 });
          const models = r.timedOut ? [] : codexCatalogModels(r.stdout);
          return { models, source: 'cli', note };
        },
        { refresh: opts.refresh },
      )
    : undefined;
  return {
    models: list?.models ?? [],
    source: 'cli',
    note: list ? note : 'codex could not be asked (`codex debug models --bundled`)',
    ...(current ? { current } : {}),
  };
}
