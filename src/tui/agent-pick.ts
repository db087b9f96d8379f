// Choosing an agent for a tab: the new-tab picker and the switch picker (prefix a) with what
// hangs off them — the agent's model picker ("other model…", model-choices.ts), the "Local
// model…" dialog (local-model-dialog.ts) and the switch's "summary first" key
// (summary-toggle.ts). It answers with what the user chose and starts nothing: opening the
// tab, starting or arming the agent is the caller's (conversation-tabs.ts).

import type { TabSnapshot } from '../conversation/index.js';
import type { Registry } from '../plugins/registry.js';
import type { App } from './app.js';
import type { OverlayHost } from './overlay.js';
import { AgentChoices, type Choice } from './agent-choices.js';
import { askLocalModel, withLocalRow, type LocalPick, type LocalRow } from './local-model-dialog.js';
import { pickModel, type ModelPickOptions } from './model-choices.js';
import { openPicker, type PickerNote, type PickerToggle } from './picker.js';
import { summaryToggle } from './summary-toggle.js';

export interface AgentPickContext {
  app: App;
  registry: Registry;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** An agent chosen to run a conversation: by name, or a local model's harness with its server. */
export interface AgentTarget {
  name: string;
  model?: string;
  account?: string;
  local?: LocalPick['local'];
}

/** What the new-tab picker answered: a plain shell, an install of a missing agent, or an agent to start. */
export type NewTabPick = { kind: 'shell' } | { kind: 'install'; name: string } | ({ kind: 'agent' } & AgentTarget);

/** What the switch picker answered: the agent to arm, and whether the running one writes a summary first. */
export interface SwitchPick {
  target: AgentTarget;
  summary?: boolean;
  /** Nothing has been said yet: there is no context to carry (the agent may simply start instead). */
  noContext: boolean;
}

/** How long a picker waits for agents' detections before it is drawn with what it has. */
const QUICK_ANSWER_MS = 150;

/** Installed agents that can run in a tab, by title, with version and default model, as they are found; then the plain shell. */
export function agentChoices(ctx: AgentPickContext, opts: { current?: string; agentsOnly?: boolean } = {}): AgentChoices {
  return new AgentChoices({ registry: ctx.registry, cwd: ctx.cwd, env: ctx.env, ...opts });
}

/**
 * A picker on agents as they are found: drawn once the quick answers are in, or after a
 * moment at most (a CLI asked for its version may take seconds; its row says "checking…"
 * until then), so the picker never waits behind a blank screen.
 */
async function pickAgent(
  ctx: AgentPickContext,
  title: string,
  choices: AgentChoices,
  note?: PickerNote<Choice | LocalRow>,
  running?: { agent?: string; model?: string },
  toggles?: PickerToggle[],
): Promise<Choice | LocalRow | undefined> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([choices.settled, new Promise<void>((r) => (timer = setTimeout(r, QUICK_ANSWER_MS)))]);
  clearTimeout(timer);
  const choice = await openPicker(ctx.app, title, withLocalRow(choices), note, toggles);
  if (choice?.kind === 'local') return choice;
  return withModel(ctx.app, choice, { registry: ctx.registry, cwd: ctx.cwd, env: ctx.env, running });
}

/**
 * A picker's answer with its model: the "other model…" row opens the agent's model picker
 * (`running`: the tab's agent and model, marked there); any other answer is returned as it is.
 */
async function withModel(
  host: OverlayHost,
  choice: Choice | undefined,
  opts: Omit<ModelPickOptions, 'running'> & { running?: { agent?: string; model?: string } },
): Promise<Choice | undefined> {
  if (choice?.kind !== 'agent' || !choice.pickModel) return choice;
  const { running, ...rest } = opts;
  const model = await pickModel(host, opts.registry.get(choice.name), {
    ...rest,
    ...(running?.agent === choice.name && running.model ? { running: running.model } : {}),
  });
  return model ? { kind: 'agent', name: choice.name, model } : undefined;
}

/** The picker's "Local model…": asked, probed and chosen (local-model-dialog.ts); undefined when given up. */
async function pickLocal(ctx: AgentPickContext): Promise<AgentTarget | undefined> {
  const say = (text: string) => ctx.app.showMessage(text, 8000);
  const pick = await askLocalModel(ctx.app, { registry: ctx.registry, env: ctx.env, say });
  if (!pick) return undefined;
  say(`${pick.model} at ${pick.endpoint}: ${pick.title} (${pick.choice.family} family, ${pick.choice.api})${pick.warning ? `. ${pick.warning}` : ''}`);
  return { name: pick.agent, model: pick.model, local: pick.local };
}

/** The new-tab picker (prefix c); undefined when dismissed. */
export async function pickNewTab(ctx: AgentPickContext): Promise<NewTabPick | undefined> {
  const choice = await pickAgent(ctx, 'New tab', agentChoices(ctx));
  if (!choice) return undefined;
  if (choice.kind === 'local') {
    const local = await pickLocal(ctx);
    return local && { kind: 'agent', ...local };
  }
  return choice;
}

/** What the switch picker says under its entries when nothing has been said yet. */
export const NO_CONTEXT_NOTE = 'Nothing has been said yet: there is no context to carry; the agent simply starts.';
/** ... for an agent that starts afresh: the conversation is told to it as text (the brief). */
export const FRESH_NOTE = 'Recent conversation continues as text; images and files are not carried.';
/** ... for an agent that ran here before: a switch resumes its own session with the delta (handoff-plan.ts resumeFor). */
export const RESUME_NOTE = 'Resumes its own session; sends only what it missed.';
/** ... for the agent that runs now: it is not switched away from (another model of it goes on in the same session). */
export const CURRENT_NOTE = 'Runs this conversation now.';
export const SAME_SESSION_NOTE = 'The same session goes on, on another model.';

/**
 * The switch picker's note for the row selected: `resumes` says whether a switch to that
 * row's agent resumes its own session (the planner's rule, TabConversation.resumes);
 * `current`: the tab's agent, whose row is no switch away.
 */
export function switchNote(noContext: boolean, choice: Choice | LocalRow | undefined, resumes: (t: AgentTarget) => boolean, current?: string): string {
  if (noContext) return NO_CONTEXT_NOTE;
  if (choice?.kind === 'agent' && choice.name === current && choice.account === undefined) return choice.pickModel ? SAME_SESSION_NOTE : CURRENT_NOTE;
  // "Other model…" too: which model does not decide a resume (the agent's cursor and account do).
  if (choice?.kind !== 'agent') return FRESH_NOTE;
  return resumes({ name: choice.name, ...(choice.model ? { model: choice.model } : {}), ...(choice.account !== undefined ? { account: choice.account } : {}) })
    ? RESUME_NOTE
    : FRESH_NOTE;
}

/**
 * The switch picker (prefix a) for a tab in `snap`'s state; undefined when dismissed.
 * `resumes`: whether a switch to an agent resumes its own session here (its row's note says so).
 */
export async function pickSwitch(
  ctx: AgentPickContext,
  snap: TabSnapshot,
  resumes: (t: AgentTarget) => boolean = () => false,
): Promise<SwitchPick | undefined> {
  const noContext = snap.noContext;
  const note = (choice: Choice | LocalRow | undefined) => switchNote(noContext, choice, resumes, snap.agent);
  // `s`: the agent that runs now writes a summary first, in its pane, which the brief uses
  // (tab-summary-turn.ts); offered when there is a conversation to summarize and it runs.
  const summary = !noContext && snap.running && snap.agentTitle ? summaryToggle(snap.agentTitle) : undefined;
  const picked = await pickAgent(ctx, 'Continue with', agentChoices(ctx, { current: snap.agent, agentsOnly: true }), note, snap, summary ? [summary] : []);
  if (!picked || picked.kind === 'shell' || picked.kind === 'install') return undefined;
  const target = picked.kind === 'local' ? await pickLocal(ctx) : picked;
  if (!target) return undefined;
  return { target, noContext, ...(summary ? { summary: summary.on } : {}) };
}
