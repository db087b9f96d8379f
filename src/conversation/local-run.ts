// What points a harness at the local model server its segment talks to: the driver's own
// `localEndpoint` (plugins/<cli>/local.ts) given the recorded server, API and model, as the
// extra CLI arguments and variables of a turn or a tab's launch. The outgoing agent's summary
// turn, a later `baton chat` turn and a reopened tab all come through here, so each runs
// against the same server without being told again. Pure: it never probes or launches.

import { BatonError, EXIT } from '../errors.js';
import type { HarnessDriver, LocalEndpointSpec } from '../plugins/api.js';
import { LOCAL_APIS, type LocalApi } from '../plugins/local-family.js';
import type { LocalEndpointRef } from '../transcript/types.js';

/**
 * The args and env that point `driver` at `local` for `model` (and the model as the CLI is
 * given it, where that differs); undefined when there is no local server. `env`: the user's.
 */
export function localRunSpec(driver: HarnessDriver, local: LocalEndpointRef | undefined, model: string, env: NodeJS.ProcessEnv): LocalEndpointSpec | undefined {
  if (!local) return undefined;
  if (!driver.localEndpoint) {
    throw new BatonError(
      `${driver.title} (${driver.name}) cannot be pointed at the local model server ${local.endpoint}`,
      EXIT.badInput,
      'its driver has no localEndpoint; choose the local model again (baton chat --local MODEL) to pick a harness that can',
    );
  }
  if (!(LOCAL_APIS as readonly string[]).includes(local.api)) {
    throw new BatonError(
      `the local model server ${local.endpoint} is recorded with an API baton does not know ("${local.api}")`,
      EXIT.badInput,
      `choose the local model again (baton chat --local MODEL); known APIs: ${LOCAL_APIS.join(', ')}`,
    );
  }
  return driver.localEndpoint({ endpoint: local.endpoint, api: local.api as LocalApi, model, env });
}
