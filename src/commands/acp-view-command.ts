// `baton acp-view --agent NAME --view ID [--agent-session S] [--model M] [--account A] [--mode M]`
// (hidden): the program of a "baton view" tab, started by the view driver in the tab's PTY
// (plugins/acp-view-driver.ts), never typed by a person. It takes the terminal in raw mode,
// draws the view on it (acp-view-program.ts) and ends its agent when the tab ends it
// (SIGHUP, SIGTERM) or the terminal goes.

import { badInput } from '../errors.js';
import { PERMISSION_MODES, type PermissionMode } from '../plugins/api.js';
import { isViewId, viewLogPath } from '../plugins/acp-view-log.js';
import { loadRegistry } from '../plugins/registry.js';
import type { AcpAgentDecl } from '../plugins/validate.js';
import { AcpViewProgram } from '../tui/acp-view-program.js';
import type { Io } from './io.js';
import { pluginDirs } from './plugin-dirs.js';
import type { Argv } from './yargs.js';

/** How long ending the agent gracefully may take when the tab ends this program. */
const END_MS = 1000;

interface ViewArgs {
  agent: string;
  view: string;
  'agent-session'?: string;
  model?: string;
  account?: string;
  mode?: PermissionMode;
}

export function registerAcpView(y: Argv, io: Io): Argv {
  return y.command(
    'acp-view',
    false,
    (c) =>
      c
        .option('agent', { type: 'string', demandOption: true })
        .option('view', { type: 'string', demandOption: true })
        .option('agent-session', { type: 'string' })
        .option('model', { type: 'string' })
        .option('account', { type: 'string' })
        .option('mode', { type: 'string', choices: PERMISSION_MODES }),
    (a) => acpView(io, a as ViewArgs),
  );
}

async function acpView(io: Io, a: ViewArgs): Promise<void> {
  if (!isViewId(a.view)) throw badInput(`not a view id: ${a.view}`);
  const registry = await loadRegistry({ env: io.env, pluginDirs: pluginDirs() });
  let decl: AcpAgentDecl;
  try {
    const driver = registry.get(a.agent);
    if (!driver.acp) throw badInput(`${driver.title} cannot be run over ACP`, 'open its own terminal UI instead');
    decl = driver.acp({ env: io.env, cwd: io.cwd, ...(a.model ? { model: a.model } : {}), ...(a.account ? { account: a.account } : {}) });
  } finally {
    await registry.dispose();
  }
  const stdin = process.stdin;
  const stdout = process.stdout;
  const program = new AcpViewProgram({
    decl,
    cwd: io.cwd,
    env: io.env,
    ...(a.model ? { model: a.model } : {}),
    viewId: a.view,
    logPath: viewLogPath(io.env, a.view),
    ...(a['agent-session'] ? { agentSession: a['agent-session'] } : {}),
    ...(a.mode ? { mode: a.mode } : {}),
    out: { write: (b) => stdout.write(b), cols: () => stdout.columns || 80, rows: () => stdout.rows || 24 },
  });
  if (stdin.isTTY) stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.on('data', (d: string) => program.feed(d));
  stdout.on('resize', () => program.resized());
  let ending: Promise<void> | undefined;
  const end = () => {
    // The tab's pane kills this process 1.5 s after its SIGHUP: it exits before that, and
    // whatever of the agent is still running then is killed as it exits (spawn-group.ts).
    ending ??= Promise.race([program.dispose(), new Promise((r) => setTimeout(r, END_MS))]).then(() => process.exit(0));
    return ending;
  };
  for (const sig of ['SIGHUP', 'SIGTERM', 'SIGINT'] as const) process.on(sig, () => void end());
  stdin.on('end', () => void end());
  await program.start();
  // The command runs until the tab ends it.
  await new Promise<never>(() => {});
}
