// `baton agents [--json]`: every driver, installed or not, with version and hints.
// `baton agents --models [--refresh] [--json]`: the models each installed agent can run, the
// current one marked (describe-models.ts); --refresh asks the CLIs again instead of the cache.

import type { Argv } from './yargs.js';
import { describeAgents, formatAgents } from '../plugins/describe-agents.js';
import { describeModels, formatModels } from '../plugins/describe-models.js';
import { agentCatalog } from './agent-catalog.js';
import { jsonText, type Io } from './io.js';

export function registerAgents(y: Argv, io: Io): Argv {
  return y.command(
    'agents',
    'the agent drivers baton knows: installed?, version, login hint; --models: the models each can run',
    (c) =>
      c
        .option('json', { type: 'boolean', default: false })
        .option('models', { type: 'boolean', default: false, describe: 'list the models each installed agent can run, the current one marked' })
        .option('refresh', { type: 'boolean', default: false, describe: 'with --models: ask the CLIs again instead of using the cached lists' }),
    async (a) => {
      const { registry } = await agentCatalog(io);
      try {
        if (a.models) {
          const rows = await describeModels(registry, { cwd: io.cwd, env: io.env, refresh: a.refresh });
          io.out(a.json ? jsonText(rows, 2) + '\n' : formatModels(rows) + '\n');
          return;
        }
        const rows = await describeAgents(registry);
        io.out(a.json ? jsonText(rows, 2) + '\n' : formatAgents(rows) + '\n');
      } finally {
        await registry.dispose();
      }
    },
  );
}
