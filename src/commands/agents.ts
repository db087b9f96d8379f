// `baton agents [--json]`: every driver, installed or not, with version and hints.

import type { Argv } from './yargs.js';
import { describeAgents, formatAgents } from '../plugins/describe-agents.js';
import { agentCatalog } from './agent-catalog.js';
import { jsonText, type Io } from './io.js';

export function registerAgents(y: Argv, io: Io): Argv {
  return y.command(
    'agents',
    'the agent drivers baton knows: installed?, version, login hint',
    (c) => c.option('json', { type: 'boolean', default: false }),
    async (a) => {
      const { registry } = await agentCatalog(io);
      try {
        const rows = await describeAgents(registry);
        io.out(a.json ? jsonText(rows, 2) + '\n' : formatAgents(rows) + '\n');
      } finally {
        await registry.dispose();
      }
    },
  );
}
