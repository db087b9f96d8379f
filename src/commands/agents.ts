// `baton agents [--json]`: every driver, installed or not, with version and hints.
// `baton agents --models [--refresh] [--json]`: the models each installed agent can run, the
// current one marked (describe-models.ts); --refresh asks the CLIs again instead of the cache.
// `baton agents install NAME`: one installed into baton's own prefix (agents-install.ts).

import type { Argv } from './yargs.js';
import { describeAgents, formatAgents } from '../plugins/describe-agents.js';
import { describeModels, formatModels } from '../plugins/describe-models.js';
import { agentCatalog } from './agent-catalog.js';
import { agentsInstall } from './agents-install.js';
import { jsonText, type Io } from './io.js';

export function registerAgents(y: Argv, io: Io): Argv {
  return y.command(
    'agents',
    'the agent drivers baton knows: installed?, version, login hint; --models: the models each can run; `agents install NAME` installs one',
    (c) =>
      c
        .option('json', { type: 'boolean', default: false })
        .option('models', { type: 'boolean', default: false, describe: 'list the models each installed agent can run, the current one marked' })
        .option('refresh', { type: 'boolean', default: false, describe: 'with --models: ask the CLIs again instead of using the cached lists' })
        .command(
          'install <name>',
          "installs an agent CLI at the version baton's driver was tested with, into baton's own prefix under $XDG_DATA_HOME/baton/agents (never globally)",
          (i) =>
            i
              // Its own --version (the CLI's), not baton's: yargs's version flag is off for this command.
              .version(false)
              .positional('name', { type: 'string', demandOption: true, describe: 'claude, codex, gemini, opencode or qwen' })
              .option('version', { type: 'string', describe: 'another exact version (baton agents then warns when it is outside the tested range)' })
              .option('login', { type: 'boolean', default: false, describe: "then run the CLI's own login in this terminal" })
              .option('account', { type: 'string', describe: 'with --login: the account to log in (default: the agent’s default account)' }),
          (a) =>
            agentsInstall(io, { name: a.name, ...(a.version ? { version: a.version } : {}), login: a.login, ...(a.account ? { account: a.account } : {}) }),
        ),
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
