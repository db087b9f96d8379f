// What `baton agents --models [--json]` shows and what the picker offers: per installed
// driver, the models it can run (its `models()`, from the CLI itself or a documented table),
// the current one marked: the model configured for it in baton's registry defaults, else the
// one the CLI says it runs, else the driver's default. A configured model the list does not
// name is still offered (first), since the CLI may take more than it lists. Each driver is
// asked under a deadline, so one hanging CLI cannot hang the listing. Reads only.

import { VIEW_SUFFIX } from './acp-view-driver.js';
import type { HarnessDriver, ModelInfo, ModelList } from './api.js';
import type { Registry } from './registry.js';

export interface ModelRow extends ModelInfo {
  current: boolean;
}

export interface AgentModels {
  name: string;
  title: string;
  installed: boolean;
  /** The models, the current one marked; empty when the driver lists none. */
  models: ModelRow[];
  /** The current model's id, when known. */
  current?: string;
  source?: ModelList['source'];
  note?: string;
  /** Asking failed (a bug in the driver, or a timeout). */
  error?: string;
}

export interface ModelsOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  account?: string;
  refresh?: boolean;
  /** Per driver (default 30 s: an ACP agent starting under load is slow). */
  timeoutMs?: number;
}

/** `list` with `current` marked (a current model it does not name comes first). */
export function markCurrent(list: readonly ModelInfo[], current: string | undefined): ModelRow[] {
  const rows = list.map((m) => ({ ...m, current: m.id === current }));
  if (current && !rows.some((r) => r.current)) rows.unshift({ id: current, current: true, description: 'configured; not in the list' });
  return rows;
}

/** The models of one driver, asked under the deadline. */
export async function modelsOf(registry: Registry, d: HarnessDriver, opts: ModelsOptions): Promise<AgentModels> {
  const out: AgentModels = { name: d.name, title: d.title, installed: true, models: [] };
  const configured = registry.settings(d.name).model;
  let timer: NodeJS.Timeout | undefined;
  try {
    const list = d.models
      ? await Promise.race([
          d.models({ env: opts.env, cwd: opts.cwd, ...(opts.account ? { account: opts.account } : {}), ...(opts.refresh ? { refresh: true } : {}) }),
          new Promise<never>((_, reject) => {
            const ms = opts.timeoutMs ?? 30_000;
            timer = setTimeout(() => reject(new Error(`listing models took longer than ${ms / 1000} s`)), ms);
          }),
        ])
      : undefined;
    const current = configured ?? list?.current ?? d.defaultModel;
    out.models = markCurrent(list?.models ?? [], current);
    if (current) out.current = current;
    if (list) out.source = list.source;
    if (list?.note) out.note = list.note;
  } catch (err) {
    out.error = (err as Error).message ?? String(err);
    if (configured ?? d.defaultModel) {
      out.current = (configured ?? d.defaultModel)!;
      out.models = markCurrent([], out.current);
    }
  } finally {
    clearTimeout(timer);
  }
  return out;
}

/** Every driver's models (not installed: none, said so); a baton view's are its agent's, listed once under the agent. */
export async function describeModels(registry: Registry, opts: ModelsOptions): Promise<AgentModels[]> {
  return Promise.all(
    registry
      .drivers()
      .filter((d) => !d.name.endsWith(VIEW_SUFFIX))
      .map(async (d): Promise<AgentModels> => {
        const found = await registry.detect(d.name).catch(() => undefined);
        if (!found?.installed) return { name: d.name, title: d.title, installed: false, models: [] };
        return modelsOf(registry, d, opts);
      }),
  );
}

/** The plain text `baton agents --models` prints: `*` marks the current model. */
export function formatModels(rows: readonly AgentModels[]): string {
  const lines: string[] = [];
  for (const r of rows) {
    if (!r.installed) {
      lines.push(`${r.name}  ${r.title} — not installed`);
      continue;
    }
    lines.push(`${r.name}  ${r.title}${r.note ? ` — from ${r.note}` : ''}`);
    if (r.error) lines.push(`  error: ${r.error}`);
    if (!r.models.length && !r.error) lines.push('  (lists no models: it runs its own default; `--model NAME` passes any name it takes)');
    const width = Math.max(0, ...r.models.map((m) => m.id.length));
    for (const m of r.models) {
      const about = [m.name, m.description].filter(Boolean).join(': ');
      lines.push(`${m.current ? '*' : ' '} ${m.id.padEnd(width)}${about ? `  ${about}` : ''}${m.current ? '  (current)' : ''}`);
    }
  }
  return lines.join('\n');
}
