// A switch to another model of the agent the tab runs, made in its running session where the
// driver can (changeModelInTab: baton's ACP view, through session/set_config_option or
// session/set_model; the TUIs of Claude Code, Codex, Gemini CLI and Qwen Code, through their
// own `/model` command typed at the prompt; opencode's TUI, through its model dialog), instead
// of stopping the CLI and relaunching it on its session. Recorded the same way as that
// relaunch (handoff-plan.ts): a new segment for the same agent with the new model, in resume
// mode on the same session, no brief; then the message is delivered.
// Anything it cannot do in place (another account, a local server, a summary first, a
// session that offers no model change, a brief to hear, text in the CLI's input box) is left
// to the relaunch.
// A CLI whose resume keeps the session's last model whatever its launch names
// (capabilities.resumeKeepsModel: opencode) gets the same change once it is up again
// (modelAfterResume), so what the transcript records is what it runs.

import type { HarnessDriver } from '../plugins/api.js';
import type { UserAuthor } from '../transcript/types.js';
import { type HandoffPlan, planHandoff, recordHandoff } from './handoff-plan.js';
import type { TabSessionDelivery } from './tab-session-delivery.js';
import type { ArmedSwitch, SwitchOutcome } from './tab-session-state.js';

/** How long the running program may take to answer a model change. */
const ANSWER_MS = 30_000;

/**
 * The switch `armed`, carried out in place with `message`; undefined when it is not one to
 * make in place or the running session offers no model change (the caller relaunches).
 */
export async function changeModelInPlace(
  session: TabSessionDelivery,
  armed: ArmedSwitch & { switchId: string; summarized?: boolean },
  message: string,
  author?: UserAuthor,
): Promise<SwitchOutcome | undefined> {
  const { registry, terminal, conversation: conv, env, git } = session.deps;
  const driver = session.driver;
  const current = conv.transcript.currentSegment;
  if (!driver?.changeModelInTab || driver.name !== armed.agent || armed.local || armed.summary || !terminal.isRunning()) return undefined;
  // Text in the input box (a recorded message the CLI put back after an interrupt: a draft of
  // the user's holds the switch before this) would join a `/model …` typed after it and go to
  // the model as a message: the relaunch on the same session changes the model instead.
  if (session.boxText()) return undefined;
  if (!current?.agentSession || current.harness !== driver.name || armed.model === current.model) return undefined;
  if (armed.account !== undefined && armed.account !== current.account) return undefined;
  const plan = await planHandoff({ conversation: conv, registry, driver, model: armed.model, env, git, inTab: true });
  // Only a switch of the model alone, continuing the very session the tab runs with nothing to hear.
  if (!plan.switching || plan.brief || plan.fork || plan.local || plan.resume !== current.agentSession || plan.account !== current.account) return undefined;
  const changed = await driver.changeModelInTab({
    session: current.agentSession,
    model: plan.model,
    env,
    cwd: conv.meta.data.cwd,
    ...(current.account ? { account: current.account } : {}),
    write: (data) => terminal.write(data),
    screen: () => terminal.screenLines(),
    timeoutMs: ANSWER_MS,
  });
  if (changed.kind === 'unsupported') return undefined;
  if (changed.kind === 'refused') {
    session.settle({});
    return { kind: 'not-sent', message: `${changed.why}. Nothing was sent; the switch stays armed.`, draft: message };
  }
  if (recordHandoff(conv, plan, armed.switchId)) conv.sync();
  session.modelChanged(plan.model);
  await conv.meta.update({ lastAgent: { harness: driver.name, model: plan.model } });
  const sent = await session.deliver(message, { switchId: armed.switchId, ...(author ? { author } : {}) });
  session.settle({ done: true });
  if (sent.kind === 'delivered') return { kind: 'switched', message: `${driver.title} now runs ${plan.model}, in the same session.` };
  if (sent.kind === 'queued')
    return { kind: 'switched-not-started', message: `${driver.title} now runs ${plan.model}; your message is queued and goes out as soon as it can.` };
  session.settle({ unresolved: true });
  return {
    kind: 'unknown',
    message: `${driver.title} now runs ${plan.model} but never showed your message. Check the pane before sending again; your message was not recorded and is back in the compose bar.`,
  };
}

/**
 * After a relaunch that resumed `plan.resume` on `plan.model`, for a driver whose resume keeps
 * the session's last model (capabilities.resumeKeepsModel): changes the model in the running
 * session when that session last ran another one. Undefined when nothing was needed or the
 * change took; else what the user must know (the agent runs its earlier model).
 */
export async function modelAfterResume(session: TabSessionDelivery, driver: HarnessDriver, plan: HandoffPlan): Promise<string | undefined> {
  const { terminal, conversation: conv, env } = session.deps;
  if (!driver.capabilities.resumeKeepsModel || !driver.changeModelInTab || !plan.resume || plan.fork || plan.local || plan.model === 'default')
    return undefined;
  // The model the resumed session ran last: its newest segment before the one just recorded.
  const segments = conv.transcript.segments;
  const before = segments
    .slice(0, -1)
    .reverse()
    .find((s) => s.harness === driver.name && s.agentSession === plan.resume);
  if (!before || before.model === plan.model) return undefined;
  const changed = await driver.changeModelInTab({
    session: plan.resume,
    model: plan.model,
    env,
    cwd: conv.meta.data.cwd,
    ...(plan.account ? { account: plan.account } : {}),
    write: (data) => terminal.write(data),
    screen: () => terminal.screenLines(),
    timeoutMs: ANSWER_MS,
  });
  if (changed.kind === 'changed') return undefined;
  return `${driver.title} resumed its session on ${before.model} and could not be moved to ${plan.model} (${changed.why}); choose the model again from the switch picker.`;
}
