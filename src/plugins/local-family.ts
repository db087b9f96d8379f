// Which harness runs a local model: the `local` rules of config/harness-registry.json (and
// the user's overlay) matched against the model name and the APIs the endpoint speaks.
// Pure: it is given what is installed and what the endpoint speaks; it never probes,
// detects or launches anything (local-endpoint.ts probes, the CLI launches).

import { BatonError, EXIT } from '../errors.js';

/** The wire APIs a local server may speak, as a harness needs them. */
export type LocalApi = 'openai-chat' | 'openai-responses' | 'anthropic-messages';
export const LOCAL_APIS: readonly LocalApi[] = ['openai-chat', 'openai-responses', 'anthropic-messages'];

export interface LocalHarness {
  driver: string;
  /** APIs this driver can use against a custom endpoint, preferred first. */
  apis: LocalApi[];
}

export interface LocalFamilyRule {
  name: string;
  /** Model-name patterns; `*` matches any run of characters, case-insensitively. */
  match: string[];
  /** Harnesses in preference order: the first installed one that speaks a served API wins. */
  harnesses: LocalHarness[];
}

export interface LocalChoice {
  family: string;
  driver: string;
  api: LocalApi;
  /** Every candidate looked at, in order, and why it was passed over. */
  tried: { family: string; driver: string; installed: boolean; api?: LocalApi }[];
}

export function globMatches(pattern: string, model: string): boolean {
  const re = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${re}$`, 'i').test(model);
}

/**
 * The harness for `model` on an endpoint speaking `spoken`: the rules matching the model, in
 * order, and in each its harnesses in order; the first installed one that can use a spoken
 * API wins (a rule whose harnesses cannot serve falls through to the next matching rule, so
 * `claude-compatible` applies only where the server speaks Anthropic Messages). BatonError
 * exit 3 (agentNotInstalled) naming what to install when a harness would serve but none is
 * installed; exit 2 when no rule's harness can use any API the endpoint speaks.
 */
export function chooseLocalHarness(
  model: string,
  rules: readonly LocalFamilyRule[],
  installed: (driver: string) => boolean,
  spoken: readonly LocalApi[],
): LocalChoice {
  const tried: LocalChoice['tried'] = [];
  let wouldServe: { family: string; driver: string } | undefined;
  for (const rule of rules) {
    if (!rule.match.some((p) => globMatches(p, model))) continue;
    for (const h of rule.harnesses) {
      const api = h.apis.find((a) => spoken.includes(a));
      const ok = installed(h.driver);
      tried.push({ family: rule.name, driver: h.driver, installed: ok, ...(api ? { api } : {}) });
      if (!api) continue;
      if (ok) return { family: rule.name, driver: h.driver, api, tried };
      wouldServe ??= { family: rule.name, driver: h.driver };
    }
  }
  const triedText = tried.map((t) => `${t.driver} (${t.family}${t.installed ? '' : ', not installed'}${t.api ? '' : ', no API in common'})`).join(', ');
  if (wouldServe) {
    const candidates = [...new Set(tried.filter((t) => t.api).map((t) => t.driver))];
    throw new BatonError(
      `no installed agent can run the local model "${model}" (${wouldServe.family} family); tried ${triedText}`,
      EXIT.agentNotInstalled,
      `install ${candidates.join(' or ')} (see \`baton agents\`), or name one with --agent`,
    );
  }
  throw new BatonError(
    `no harness for the local model "${model}" speaks an API the endpoint serves (${spoken.join(', ') || 'none found'})${tried.length ? `; tried ${triedText}` : ''}`,
    EXIT.badInput,
    'check --endpoint (is the server running and OpenAI- or Anthropic-compatible?), or add a rule under `local` in harness-registry.json (docs/local-models.md)',
  );
}

/** Reads the `local` section of a harness-registry.json document: the rules and their problems. */
export function readLocalRules(value: unknown): { rules: LocalFamilyRule[]; problems: string[] } {
  const rules: LocalFamilyRule[] = [];
  const problems: string[] = [];
  if (typeof value !== 'object' || value === null || !('local' in value)) return { rules, problems };
  const local = (value as { local: unknown }).local;
  if (!Array.isArray(local)) return { rules, problems: ['local: expected an array of rules'] };
  local.forEach((r: unknown, i) => {
    const p = ruleProblems(r, `local[${i}]`);
    if (p.length) problems.push(...p);
    else rules.push(r as LocalFamilyRule);
  });
  return { rules, problems };
}

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string' && s !== '');

function ruleProblems(r: unknown, field: string): string[] {
  if (typeof r !== 'object' || r === null) return [`${field}: expected an object`];
  const o = r as Record<string, unknown>;
  const p: string[] = [];
  if (typeof o.name !== 'string' || !o.name) p.push(`${field}.name: expected a non-empty string`);
  if (!isStrings(o.match)) p.push(`${field}.match: expected an array of patterns`);
  if (!Array.isArray(o.harnesses)) return [...p, `${field}.harnesses: expected an array`];
  o.harnesses.forEach((h: unknown, j) => {
    const hf = `${field}.harnesses[${j}]`;
    const ho = (typeof h === 'object' && h !== null ? h : {}) as Record<string, unknown>;
    if (typeof ho.driver !== 'string' || !ho.driver) p.push(`${hf}.driver: expected a driver name`);
    if (!isStrings(ho.apis) || !ho.apis.every((a) => (LOCAL_APIS as readonly string[]).includes(a)))
      p.push(`${hf}.apis: expected some of ${LOCAL_APIS.join(', ')}`);
  });
  return p;
}

/** Layers rule lists: later layers (the user's) go first and replace same-named rules. */
export function overlayLocalRules(...layers: LocalFamilyRule[][]): LocalFamilyRule[] {
  let out: LocalFamilyRule[] = [];
  for (const layer of layers) {
    const names = new Set(layer.map((r) => r.name));
    out = [...layer, ...out.filter((r) => !names.has(r.name))];
  }
  return out;
}
