// A local model chosen by name (`baton chat --local MODEL`, the picker's "Local model…"):
// probes the endpoint, picks the harness by the registry's `local` rules among the installed
// drivers that can point at an endpoint, and returns the agent, model and the server to
// record with its segment (handoff-plan.ts; local-run.ts makes the args and env from it).
// Never runs a turn or launches anything.

import { DEFAULT_LOCAL_ENDPOINT, listsModel, normalizeEndpoint, probeEndpoint } from '../plugins/local-endpoint.js';
import { chooseLocalHarness, type LocalChoice } from '../plugins/local-family.js';
import type { Registry } from '../plugins/registry.js';
import type { LocalEndpointRef } from '../transcript/types.js';

export interface LocalPick {
  choice: LocalChoice;
  endpoint: string;
  agent: string;
  /** The agent's title, for what the user is told. */
  title: string;
  model: string;
  /** The server as the segment records it. */
  local: LocalEndpointRef;
  /** Said to the user, not refused: the server does not list the model. */
  warning?: string;
}

/** The endpoint used when none is given: `$BATON_LOCAL_ENDPOINT`, else Ollama's. */
export function defaultLocalEndpoint(env: NodeJS.ProcessEnv): string {
  return env.BATON_LOCAL_ENDPOINT || DEFAULT_LOCAL_ENDPOINT;
}

/**
 * Probes and chooses. BatonError exit 2 when the endpoint is not a URL or nothing answers
 * there, exit 3 naming what to install when no harness for the model's family is installed.
 */
export async function chooseLocal(registry: Registry, model: string, endpointArg: string | undefined, env: NodeJS.ProcessEnv): Promise<LocalPick> {
  const endpoint = normalizeEndpoint(endpointArg || defaultLocalEndpoint(env));
  const probe = await probeEndpoint(endpoint);
  // Not refused: servers load models on demand (LM Studio) or by aliases they do not list.
  const warning =
    probe.models.length && !listsModel(probe.models, model)
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
  return {
    choice,
    endpoint,
    agent: driver.name,
    title: driver.title,
    model,
    local: { endpoint, api: choice.api },
    ...(warning ? { warning } : {}),
  };
}
