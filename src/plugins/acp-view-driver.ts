// baton's own view of an ACP agent, as a driver of its own (`<agent>-view`, "<Title> (baton
// view)"), offered for every driver that can say how to run its agent over ACP (acp()). Its
// tab program is `baton acp-view`: one ACP session for the life of the tab, drawn as
// structured blocks with approval cards, recording its events in its own log
// (acp-view-log.ts), which this driver's ingest follows like any CLI's session log. So the
// tab, its delivery, status and switching are a CLI tab's, unchanged. The native session a
// conversation records is the view's id; a headless turn (`baton chat`) runs the base
// driver's own headless path in the agent session that view last held. A switch to another
// model of the agent is made in the running session where it offers that (changeModelInTab:
// the view is asked through its terminal and answers in its log).

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { packageRoot } from '../package-root.js';
import type {
  AgentStatus,
  DriverDefinition,
  HarnessDriver,
  HeadlessTurn,
  LaunchOptions,
  LaunchSpecDefinition,
  ModelChangeOptions,
  ModelChangeResult,
} from './api.js';
import { ingestViewLog, isViewId, lastAgentSession, lastModels, modelRequest, readViewLog, viewLogPath } from './acp-view-log.js';

/** How often the view's log is read for its answer to a model change. */
const POLL_MS = 50;

/**
 * Asks the running view `opts.session` to change its model and waits for its answer in its
 * log. A view whose session offers no model change (its log says so, or says nothing) is not asked.
 */
export async function changeViewModel(opts: ModelChangeOptions, title: string): Promise<ModelChangeResult> {
  if (!isViewId(opts.session)) return { kind: 'unsupported', why: 'not a view' };
  const path = viewLogPath(opts.env, opts.session);
  const offered = lastModels(readViewLog(path));
  if (!offered || offered.via === 'none') return { kind: 'unsupported', why: `${title} offers no model change in a running session` };
  const nonce = randomUUID();
  opts.write(modelRequest(nonce, opts.model));
  const deadline = Date.now() + opts.timeoutMs;
  while (Date.now() < deadline) {
    const answer = readViewLog(path).find((l) => l.modelSet?.nonce === nonce)?.modelSet;
    if (answer) return answer.ok ? { kind: 'changed' } : { kind: 'refused', why: answer.why ?? `${title} did not change its model` };
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  return { kind: 'refused', why: `${title} did not answer the model change` };
}

export const VIEW_SUFFIX = '-view';

/** The words the view's status line says (acp-view-screen.ts SAYS), read back for the tab's status. */
export function viewStatusFromScreen(lines: readonly string[]): AgentStatus | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lines[i]!;
    if (!l.startsWith('─ ')) continue;
    if (l.includes('waiting for you')) return 'approval';
    if (l.includes('working · Esc cancels') || l.includes('starting…')) return 'working';
    if (l.includes('Enter sends')) return 'idle';
    if (l.includes('the agent has ended')) return 'exited';
  }
  return undefined;
}

function batonCli(): string {
  const built = join(packageRoot(), 'dist/src/cli.js');
  return existsSync(built) ? built : process.argv[1]!;
}

/** The agent session a view (or a headless turn's own id) stands for. */
function agentSessionOf(env: NodeJS.ProcessEnv, session: string): string | undefined {
  if (!isViewId(session)) return session;
  return lastAgentSession(readViewLog(viewLogPath(env, session)));
}

export function acpViewDriver(base: HarnessDriver, pluginDirs: readonly string[]): DriverDefinition {
  const view: DriverDefinition = {
    name: `${base.name}${VIEW_SUFFIX}`,
    title: `${base.title} (baton view)`,
    families: [],
    // Modes in the tab are the view's own (acp-modes.ts); a headless turn's are the base driver's.
    capabilities: { resume: true, fork: false, tabSession: true, tab: true, permissionModes: base.capabilities.permissionModes, launchModes: true },
    detect: (opts) => base.detect(opts),
    launch(opts: LaunchOptions): LaunchSpecDefinition {
      const viewId = opts.resume && isViewId(opts.resume) ? opts.resume : `view-${randomUUID()}`;
      const args = [batonCli(), ...pluginDirs.flatMap((d) => ['--plugins', d]), 'acp-view', '--agent', base.name, '--view', viewId];
      // A session a headless turn left (the agent's own id) is continued in a new view.
      if (opts.resume && !isViewId(opts.resume)) args.push('--agent-session', opts.resume);
      if (opts.model) args.push('--model', opts.model);
      if (opts.account) args.push('--account', opts.account);
      if (opts.mode) args.push('--mode', opts.mode);
      return { command: process.execPath, args, env: {}, cwd: opts.cwd, session: viewId };
    },
    ingest: ingestViewLog,
    statusFromScreen: viewStatusFromScreen,
    changeModelInTab: (opts) => changeViewModel(opts, base.title),
  };
  if (base.headless) {
    const headless = base.headless.bind(base);
    view.headless = (turn: HeadlessTurn) => {
      const resume = turn.resume ? agentSessionOf(turn.env, turn.resume) : undefined;
      const { resume: _r, ...rest } = turn;
      return headless(resume ? { ...rest, resume } : rest);
    };
  }
  // The view runs the same agent, so the same models (the pickers list them for a view tab in front only).
  if (base.models) view.models = base.models.bind(base);
  if (base.testedVersions) view.testedVersions = base.testedVersions;
  if (base.defaultModel) view.defaultModel = base.defaultModel;
  return view;
}
