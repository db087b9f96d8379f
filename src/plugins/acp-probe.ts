// Asks an ACP agent what it offers, without a turn: spawn it as its own process group,
// `initialize`, read the capabilities, end the group. Used where a decision depends on the
// agent and not on baton (does it offer session/fork?). Any failure (not installed, no
// answer in time, a crash) reads as "not offered"; it never leaves the agent running.

import { readFileSync } from 'node:fs';
import type { DriverEnv } from './api.js';
import type { AcpClient, InitializeResponse } from './acp-client.js';
import { findExecutable } from './find-executable.js';
import { spawnGroup, type ProcessGroup } from '../proc/index.js';
import type { AcpAgentDecl } from './validate.js';

/**
 * A bound for the failure case only (an answer ends the wait): Gemini CLI and Qwen Code,
 * started cold on a busy 2-core machine (load 12, the whole test suite beside helpers), took
 * more than 20 s to answer session/new, and `agents --models` then said they could not be asked.
 */
const PROBE_TIMEOUT_MS = 45_000;

/** The agent's `initialize` answer, or undefined when it could not be asked. */
export function probeAcpAgent(decl: AcpAgentDecl, opts: DriverEnv & { cwd: string }, timeoutMs = PROBE_TIMEOUT_MS): Promise<InitializeResponse | undefined> {
  return askAcpAgent(decl, opts, async (_client, init) => init, timeoutMs);
}

/**
 * `ask` of the agent once it answered `initialize` (a session/new for its models), then the
 * agent ended; undefined when it could not be asked, failed, or took longer than `timeoutMs`.
 */
export async function askAcpAgent<T>(
  decl: AcpAgentDecl,
  opts: DriverEnv & { cwd: string },
  ask: (client: AcpClient, init: InitializeResponse) => Promise<T>,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<T | undefined> {
  const env = { ...opts.env, ...(decl.env ?? {}) };
  const path = findExecutable(decl.command, env, opts.cwd);
  if (!path) return undefined;
  const { AcpClient } = await import('./acp-client.js');
  let group: ProcessGroup;
  try {
    group = await spawnGroup(path, [...(decl.args ?? [])], { cwd: opts.cwd, env, graceMs: 1000 });
  } catch {
    return undefined;
  }
  // Its stderr is not read; drained so a chatty agent never blocks on a full pipe.
  group.child.stderr?.resume();
  const client = new AcpClient(group.child.stdout!, group.child.stdin!, {
    cwd: opts.cwd,
    env,
    fs: decl.fs !== false,
    terminal: decl.terminal !== false,
    onUpdate() {},
    onPermission: () => ({ outcome: { outcome: 'cancelled' } }),
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      client.initialize(BATON_VERSION).then((init) => ask(client, init)),
      group.exited.then(() => undefined),
      new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), timeoutMs))),
    ]);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
    await endOneShotAgent(client, group);
  }
}

/**
 * Ends an agent started for one question (a probe, a fork): the connection, then its stdin
 * (an agent that exits at EOF goes by itself, given a moment), then its whole group.
 */
export async function endOneShotAgent(client: Pick<AcpClient, 'close'>, group: ProcessGroup): Promise<void> {
  await client.close().catch(() => {});
  group.child.stdin!.end();
  await Promise.race([group.exited, new Promise((r) => setTimeout(r, 300))]);
  await group.stop();
}

/** Whether the agent advertises session/fork (sessionCapabilities.fork). */
export async function acpOffersFork(decl: AcpAgentDecl, opts: DriverEnv & { cwd: string }): Promise<boolean> {
  const init = await probeAcpAgent(decl, opts);
  return !!init?.agentCapabilities?.sessionCapabilities?.fork;
}

/** baton's version, as a client tells an agent in `initialize`. */
export const BATON_VERSION = (() => {
  for (const rel of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'baton' && pkg.version) return pkg.version;
    } catch {
      // try the next layout (source tree or dist/)
    }
  }
  return '0.0.0';
})();
