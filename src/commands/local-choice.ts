// `baton chat --local MODEL [--endpoint URL]`: probes the endpoint, picks the harness by the
// registry's `local` rules among the installed drivers that can point at an endpoint, and
// returns the agent, model, extra args and variables for the turn. Never runs the turn.

import { DEFAULT_LOCAL_ENDPOINT, normalizeEndpoint, probeEndpoint } from '../plugins/local-endpoint.js';
import { chooseLocalHarness, type LocalChoice } from '../plugins/local-family.js';
import type { Registry } from '../plugins/registry.js';

export interface LocalTurn {
  choice: LocalChoice;
  endpoint: string;
  agent: string;
  model: string;
  args: string[];
  env: Record<string, string>;
  /** Said to the user, not refused: the server does not list the model. */
  warning?: string;
}

export async function chooseLocal(registry: Registry, model: string, endpointArg: string | undefined, env: NodeJS.ProcessEnv): Promise<LocalTurn> {
  const endpoint = normalizeEndpoint(endpointArg ?? env.BATON_LOCAL_ENDPOINT ?? DEFAULT_LOCAL_ENDPOINT);
  const probe = await probeEndpoint(endpoint);
  // Not refused: servers load models on demand (LM Studio) or by aliases they do not list.
  const warning =
    probe.models.length && !probe.models.includes(model)
      ? `${endpoint} does not list the model "${model}" (it lists: ${probe.models.slice(0, 12).join(', ')})`
      : undefined;
  const installed = new Map<string, boolean>();
  for (const rule of registry.localRules)
    for (const h of rule.harnesses) {
      if (installed.has(h.driver)) continue;
      const ok = registry.has(h.driver) && registry.get(h.driver).localEndpoint !== undefined && (await registry.detect(h.driver)).installed;
      installed.set(h.driver, ok);
    }
  const choice = chooseLocalHarness(model, registry.localRules, (d) => installed.get(d) === true, probe.apis);
  const driver = registry.get(choice.driver);
  const spec = driver.localEndpoint!({ endpoint, api: choice.api, model });
  return { choice, endpoint, agent: driver.name, model, args: spec.args, env: spec.env, ...(warning ? { warning } : {}) };
}
