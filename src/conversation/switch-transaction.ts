// The in-place agent switch of a tab, as a transaction with explicit outcomes:
//   not-sent              nothing was sent and nothing changed (the draft goes back)
//   stopped-not-switched  the old agent was stopped but the new one could not be launched (draft kept)
//   switched-not-started  the handoff is recorded but the new CLI did not come up (message queued)
//   unknown               launched, but delivery was never confirmed (reconcile before the next send)
//   switched / started    done
// The handoff entry carries the switch id; retrying the same armed switch reuses it, so one
// message is delivered, never two. A switch armed with a summary first has the outgoing agent
// write it (tab-summary-turn.ts) before it is stopped, once per armed switch. Another model of
// the running agent is changed in its running session where the driver can (model-in-place.ts). Also the shared launch path for a tab's first agent,
// which honours a native fork's cursor: the CLI is launched with resume + fork, and once its
// log names the new session, that session becomes the conversation's own.

import { randomUUID } from 'node:crypto';
import { BatonError, EXIT } from '../errors.js';
import { checkRunAccount, requireAccount } from '../plugins/account-store.js';
import type { HarnessDriver, Ingestor, LaunchSpec, PermissionMode } from '../plugins/api.js';
import type { LocalEndpointRef, UserAuthor } from '../transcript/types.js';
import { planHandoff, recordHandoff, type HandoffPlan } from './handoff-plan.js';
import { localRunSpec } from './local-run.js';
import { changeModelInPlace, modelAfterResume } from './model-in-place.js';
import type { TabSessionDelivery } from './tab-session-delivery.js';
import { summarizeInTab } from './tab-summary-turn.js';
import type { ArmedSwitch, SwitchOutcome } from './tab-session-state.js';

export type { SwitchOutcome } from './tab-session-state.js';

/**
 * The tab session a switch runs on (TabSession): its state and delivery, and the two commands
 * that replace its ingest and stop its agent. Named here, not imported from tab-session.ts,
 * which runs the switch: the transaction depends on the session's parts, not the other way round.
 */
type SwitchingSession = TabSessionDelivery & {
  /** The permission mode the tab's agent starts in (absent: the CLI's own default). */
  readonly launchMode?: PermissionMode | undefined;
  follow(ingestor: Ingestor | undefined): Promise<void>;
  stopAgent(graceMs: number): Promise<void>;
  /** baton's own turn in the running CLI (the summary before a switch: tab-summary-turn.ts). */
  ownTurn(text: string, timeoutMs: number): Promise<{ text: string } | { failed: string }>;
};

const STOP_GRACE_MS = 3000;

interface Launched {
  spec: LaunchSpec;
  plan: HandoffPlan;
}

/**
 * Plans the handoff to `driver` (handoff-plan.ts, as `baton chat` does), has the driver say
 * how to launch it, and only then records it: a launch the driver refuses leaves the
 * conversation as it was (stopped, not switched), and a retry records one handoff.
 */
async function launch(
  session: SwitchingSession,
  driver: HarnessDriver,
  model: string | undefined,
  switchId: string,
  account: string | undefined,
  local: LocalEndpointRef | undefined,
): Promise<Launched> {
  const { conversation: conv, registry, env, git } = session.deps;
  // The tab's own (C-b M), else the driver's default from harness-registry.json.
  const mode = session.launchMode ?? registry.settings(driver.name).mode;
  // A mode the driver cannot start in is refused before anything is recorded: started in
  // another, plan would let the agent write.
  if (mode && mode !== 'default' && !driver.capabilities.launchModes) {
    const view = registry.drivers().find((d) => d.name === `${driver.name}-view`);
    // The way out goes in the message: a tab shows the message only.
    const instead = view ? `open it as ${view.title}, where baton keeps the mode, or choose the default mode` : 'choose the default mode';
    throw new BatonError(`${driver.title} cannot be started in ${mode} mode in its own terminal UI: ${instead}`, EXIT.badInput);
  }
  // An account that is gone (removed since the picker listed it) is refused, never made anew.
  if (account !== undefined) checkRunAccount(driver, account, env);
  const asked = account !== undefined ? { account } : {};
  const plan = await planHandoff({
    conversation: conv,
    registry,
    driver,
    ...(model ? { model } : {}),
    ...asked,
    ...(local ? { local } : {}),
    env,
    git,
    inTab: true,
  });
  if (plan.account) requireAccount(env, driver.name, plan.account);
  const m = plan.model;
  // A segment on a local model server (asked for now, or remembered from its last segment
  // here) is launched pointed at it again: the driver's own args, and its variables on top.
  const onLocal = localRunSpec(driver, plan.local, m, env);
  const launched = await driver.launch({
    cwd: conv.meta.data.cwd,
    model: onLocal?.model ?? (m === 'default' ? undefined : m),
    resume: plan.resume,
    ...(plan.fork ? { fork: true } : {}),
    ...(plan.account ? { account: plan.account } : {}),
    ...(onLocal ? { args: onLocal.args } : {}),
    ...(mode ? { mode } : {}),
    env,
  });
  const spec = onLocal ? { ...launched, env: { ...launched.env, ...onLocal.env } } : launched;
  if (recordHandoff(conv, plan, switchId)) conv.sync();
  return { spec, plan };
}

/**
 * Launches `agent` in the tab (the previous program must be stopped) and follows its log.
 * The CLI starts with no prompt. The brief it must hear (if any) waits for the next message
 * and goes with it, in one paste, once the CLI is ready: `message` here (a switch), else the
 * user's next send. A brief is never sent alone, so no model turn is spent on it.
 */
export async function launchAgent(
  session: SwitchingSession,
  agent: string,
  model: string | undefined,
  message: string | undefined,
  switchId: string = randomUUID(),
  author?: UserAuthor,
  account?: string,
  local?: LocalEndpointRef,
): Promise<SwitchOutcome> {
  const { registry, terminal, conversation: conv, env } = session.deps;
  const driver = registry.get(agent);
  const found = await registry.detect(agent);
  if (!found.installed) {
    return { kind: 'not-sent', message: `${driver.title} is not installed (${found.installHint}). Nothing was sent.`, draft: message };
  }
  let launched: Launched;
  try {
    launched = await launch(session, driver, model, switchId, account, local);
  } catch (err) {
    const why = err instanceof BatonError ? err.message : String(err);
    return { kind: 'stopped-not-switched', message: `${driver.title} could not be launched: ${why}. Your message is kept.`, draft: message };
  }
  const { spec, plan } = launched;
  const m = plan.model;
  const since = new Date();
  await terminal.launch({ ...spec, agent: driver.name, model: m, title: driver.title });
  session.launched(driver, m, since);
  session.starting(plan.brief ? { text: plan.brief.text, switchId } : undefined);
  const current = conv.transcript.currentSegment;
  if (driver.ingest) {
    let forked = plan.fork;
    // The run's own session: the one its launch fixed, else the one it resumes. A fork runs in
    // a new session, never the one it was forked from; a CLI that picks its own id is found
    // through the tab's process group.
    const agentSession = spec.session ?? (plan.resume && !forked ? current?.agentSession : undefined);
    const ingestor = await driver.ingest({
      cwd: conv.meta.data.cwd,
      ...(agentSession ? { agentSession } : {}),
      ...(terminal.processGroup ? { processGroup: () => terminal.processGroup!() } : {}),
      since,
      env,
      ...(plan.account ? { account: plan.account } : {}),
      onUnbound: (reason) => session.lostBinding(reason),
      onEvent: (e) => {
        session.onAgentEvent(e);
        if (forked && e.type === 'session' && e.agentSession !== forked.agentSession) {
          // The fork's own session, holding what the forked one held: from now on it is this
          // conversation's, and the cursor no longer says fork.
          conv.transcript.confirmCursor(driver.name, e.agentSession, forked.deliveredSeq);
          forked = undefined;
        }
      },
    });
    await session.follow(ingestor);
  } else {
    await session.follow(undefined);
  }
  await conv.meta.update({ lastAgent: { harness: driver.name, model: m } });
  if (!message) {
    const how = plan.fork ? ' in a fork of its own session' : plan.resume ? ' in its own session' : '';
    const next = plan.brief ? (plan.resume ? ': your next message carries what it missed' : ': your next message carries the conversation so far') : '';
    return { kind: 'started', message: `${driver.title} started${how}${next}.` };
  }

  if (!(await session.whenReady(session.deps.readyTimeoutMs ?? 60_000))) {
    if (!terminal.isRunning()) {
      session.requeue(message, author);
      return { kind: 'switched-not-started', message: `Switched to ${driver.title}, but it did not start. Your message is queued and goes out when it runs.` };
    }
    session.requeue(message, author);
    return {
      kind: 'switched-not-started',
      message: `Switched to ${driver.title}, but it is not ready for input yet. Your message is queued and goes out as soon as it is.`,
    };
  }
  const kept = await modelAfterResume(session, driver, plan);
  const sent = await session.deliver(message, { switchId, ...(author ? { author } : {}) });
  if (sent.kind === 'delivered') return { kind: 'switched', message: kept ? `Continued with ${driver.title}. ${kept}` : `Continued with ${driver.title}.` };
  // Not taken: deliver queued it when nothing was typed yet or the CLI is gone (its input box
  // with it), else handed it back to the compose bar (never to the queue: it may still sit in
  // the CLI's input box) and keeps it claimable should it show up late.
  if (!terminal.isRunning())
    return { kind: 'switched-not-started', message: `Switched to ${driver.title}, but it did not start. Your message is queued and goes out when it runs.` };
  if (sent.kind === 'queued')
    return {
      kind: 'switched-not-started',
      message: `Switched to ${driver.title}, but it is not ready for input yet. Your message is queued and goes out as soon as it is.`,
    };
  session.settle({ unresolved: true });
  return {
    kind: 'unknown',
    message: `${driver.title} is running but never showed your message. Check the pane before sending again; your message was not recorded and is back in the compose bar.`,
  };
}

/** The armed switch, carried out with the message that was sent. */
export async function runSwitch(
  session: SwitchingSession,
  armed: ArmedSwitch & { switchId?: string; summarized?: boolean },
  message: string,
  author?: UserAuthor,
): Promise<SwitchOutcome> {
  const { registry, terminal } = session.deps;
  const driver = registry.get(armed.agent);
  const found = await registry.detect(armed.agent);
  if (!found.installed) return { kind: 'not-sent', message: `${driver.title} is not installed (${found.installHint}). Nothing was sent.`, draft: message };
  armed.switchId ??= randomUUID();
  // Another model of the running agent, in its running session where it can (baton's ACP view).
  const inPlace = await changeModelInPlace(session, armed as ArmedSwitch & { switchId: string }, message, author);
  if (inPlace) return inPlace;
  // Asked for (the switch dialog's `s`): the outgoing agent's summary, one turn in its pane
  // while it still runs; the message waits for the new agent.
  const summarized = await summarizeInTab(session, armed);
  // Stop the current CLI. Its log is followed until it is gone: what it writes while ending
  // is its own segment's, and one that does not stop goes on being recorded (nothing changed).
  await session.stopAgent(STOP_GRACE_MS);
  if (terminal.isRunning()) {
    const stuck = `${session.driver?.title ?? 'The agent'} did not stop. Nothing was sent.`;
    return { kind: 'not-sent', message: summarized ? `${summarized} ${stuck}` : stuck, draft: message };
  }
  await session.follow(undefined);
  const launched = await launchAgent(session, armed.agent, armed.model, message, armed.switchId, author, armed.account, armed.local);
  session.settle({ done: launched.kind !== 'not-sent' && launched.kind !== 'stopped-not-switched' });
  return summarized ? { ...launched, message: `${summarized} ${launched.message}` } : launched;
}
