// What `baton chat` refuses before anything is written, so bad input changes nothing: an
// empty message, a conversation with no agent and none asked for, an agent that is not
// installed, has no headless mode, or does not say within DETECT_TIMEOUT_MS whether it is
// installed (a drop-in's detect() is its own code: bounded, and a cancel does not wait for
// it), an account it cannot run under, a permission mode it does not honour. A clamped
// brief budget is only a warning. It writes nothing and starts no agent.

import { BatonError, EXIT } from '../errors.js';
import type { HarnessDriver, PermissionMode } from '../plugins/api.js';
import { checkRunAccount } from '../plugins/account-store.js';
import type { Registry } from '../plugins/registry.js';
import { briefMaxCharsFromEnv } from '../transcript/settings.js';

/** What of a turn (chat.ts's ChatTurn) is checked. */
export interface TurnToCheck {
  prompt: string;
  /** The agent asked for; default: `current`. */
  agent?: string;
  account?: string;
  mode?: PermissionMode;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

export interface CheckContext {
  registry: Registry;
  /** The conversation's current agent, if it has one. */
  current: string | undefined;
  warn?: (text: string) => void;
}

/** How long a driver's `detect()` may take before `baton chat` gives up on it (version probes take 5 s at most each). */
export const DETECT_TIMEOUT_MS = 30_000;

async function readyDriver(registry: Registry, name: string, signal: AbortSignal | undefined): Promise<HarnessDriver> {
  const driver = registry.get(name);
  // A driver's detect() is its own code: bounded, and a cancel does not wait for it.
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const found = await Promise.race([
    registry.detect(name),
    new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new BatonError(
              `${driver.title} (${name}) did not say whether it is installed within ${DETECT_TIMEOUT_MS / 1000} s`,
              EXIT.agentFailed,
              'see `baton agents`; a drop-in driver may be at fault',
            ),
          ),
        DETECT_TIMEOUT_MS,
      );
      onAbort = () => reject(new BatonError(`the turn was cancelled (${String(signal!.reason)}) before ${driver.title} started`, EXIT.cancelled));
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    }),
  ]).finally(() => {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  });
  if (!found.installed) {
    throw new BatonError(`${driver.title} (${name}) is not installed`, EXIT.agentNotInstalled, found.installHint);
  }
  if (!driver.headless) {
    throw new BatonError(`${driver.title} (${name}) has no headless mode`, EXIT.badInput, 'open it in the TUI instead: baton');
  }
  return driver;
}

/**
 * Everything that can be refused before anything is written (so bad input changes nothing):
 * the message, the agent, its driver installed and headless. A clamped budget is a warning.
 */
export async function checkTurn(turn: TurnToCheck, deps: CheckContext): Promise<{ name: string; driver: HarnessDriver }> {
  if (!turn.prompt.trim()) throw new BatonError('the message is empty', EXIT.badInput, 'give the message to send as the last argument');
  const budget = briefMaxCharsFromEnv(turn.env);
  if (budget.warning) deps.warn?.(budget.warning);
  const name = turn.agent ?? deps.current;
  if (!name) {
    throw new BatonError('this conversation has no agent yet', EXIT.badInput, `choose one with --agent NAME (known: ${deps.registry.names().join(', ')})`);
  }
  const driver = await readyDriver(deps.registry, name, turn.signal);
  if (turn.account !== undefined) checkRunAccount(driver, turn.account, turn.env);
  if ((turn.mode === 'plan' || turn.mode === 'accept-edits') && !driver.capabilities.permissionModes) {
    throw new BatonError(
      `${driver.title} (${name}) cannot run a turn in ${turn.mode} mode`,
      EXIT.badInput,
      'its driver does not say it honours modes; run it with --mode default, or in a tab where you answer its own prompts',
    );
  }
  return { name, driver };
}
