// Forks an ACP agent's session without a turn: spawn the agent as its own process group,
// `initialize`, `session/fork`, end the group; the new session's id is the answer. Used where
// a PTY-hosted CLI has to open a fork whose id baton must know before it starts (opencode's
// TUI forks with `--fork` into an id nobody is told, so two tabs could not be told apart).
// Nothing reaches the model. It never leaves the agent running.

import { BatonError, EXIT } from '../errors.js';
import { ResumeFailedError, type DriverEnv } from './api.js';
import { BATON_VERSION, endOneShotAgent } from './acp-probe.js';
import { findExecutable } from './find-executable.js';
import { spawnGroup } from '../proc/index.js';
import type { AcpAgentDecl } from './validate.js';

const FORK_TIMEOUT_MS = 60_000;

/** The id of a new session forked from `session`. ResumeFailedError when the agent cannot fork it. */
export async function acpForkSession(decl: AcpAgentDecl, opts: DriverEnv & { cwd: string; session: string }, timeoutMs = FORK_TIMEOUT_MS): Promise<string> {
  const title = decl.title ?? decl.name;
  const env = { ...opts.env, ...(decl.env ?? {}) };
  const path = findExecutable(decl.command, env, opts.cwd);
  if (!path) throw new BatonError(`${title} is not installed (no ${decl.command} on PATH)`, EXIT.agentNotInstalled, decl.installHint);
  const { AcpClient } = await import('./acp-client.js');
  const group = await spawnGroup(path, [...(decl.args ?? [])], { cwd: opts.cwd, env, graceMs: 1000 });
  let stderr = '';
  group.child.stderr!.setEncoding('utf8');
  group.child.stderr!.on('data', (d: string) => {
    stderr = (stderr + d).slice(-4096);
  });
  const client = new AcpClient(group.child.stdout!, group.child.stdin!, {
    cwd: opts.cwd,
    env,
    fs: false,
    terminal: false,
    onUpdate() {},
    onPermission: () => ({ outcome: { outcome: 'cancelled' } }),
  });
  let timer: NodeJS.Timeout | undefined;
  const gone = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new BatonError(`${title} did not fork session ${opts.session} within ${Math.round(timeoutMs / 1000)} s`, EXIT.agentFailed)),
      timeoutMs,
    );
    void group.exited.then((info) =>
      reject(
        new BatonError(
          `${title} ended (${info.signal ?? `exit ${info.code}`}) before it forked session ${opts.session}`,
          EXIT.agentFailed,
          stderr.trim().split('\n').slice(-3).join('\n') || undefined,
        ),
      ),
    );
  });
  gone.catch(() => {});
  try {
    const init = await Promise.race([client.initialize(BATON_VERSION), gone]);
    if (!init.agentCapabilities?.sessionCapabilities?.fork) throw new ResumeFailedError(opts.session, `${title} does not offer session/fork`);
    try {
      return (await Promise.race([client.forkSession(opts.session, opts.cwd), gone])).sessionId;
    } catch (err) {
      if (err instanceof BatonError) throw err;
      throw new ResumeFailedError(opts.session, (err as Error)?.message ?? String(err));
    }
  } finally {
    clearTimeout(timer);
    await endOneShotAgent(client, group);
  }
}
