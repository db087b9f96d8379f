// The one handoff planner, for a headless turn (`baton chat`) and a tab alike: given the
// conversation and the agent about to take it, which model runs, whether this is a switch
// (a new segment), the native session to resume or fork, and the brief the agent must hear
// before the next message (a fresh replay, a returning agent's delta, or none). Then
// recordHandoff() writes the switch: the handoff entry that opens the new segment, and the
// resumed session as that segment's own.
// It must never launch or stop anything, never send anything, and write nothing until
// recordHandoff(): a plan that goes unused changes nothing.

import { defaultAccount, driverAccount } from '../plugins/account-store.js';
import type { HarnessDriver } from '../plugins/api.js';
import type { Registry } from '../plugins/registry.js';
import type { GitFactsProvider } from '../transcript/git-facts-types.js';
import { briefMaxCharsFromEnv, type BriefBudget } from '../transcript/settings.js';
import type { OpenConversation } from '../transcript/store.js';
import type { Transcript } from '../transcript/transcript.js';
import type { Entry, LocalEndpointRef, NativeCursor, Segment } from '../transcript/types.js';
import { hasContext, lastSegmentOf, prepareBrief, resumableCursor, type PreparedBrief } from './prepare-brief.js';

export interface HandoffInput {
  conversation: Pick<OpenConversation, 'transcript' | 'meta'>;
  registry: Registry;
  driver: HarnessDriver;
  /** The model asked for; default: the one this agent ran last in the conversation, else its configured one. */
  model?: string;
  /**
   * The account asked for (`default`: the CLI's own configuration); default: the one this
   * agent ran under last in the conversation, else its default account (`baton accounts default`).
   */
  account?: string;
  /**
   * The local model server asked for (`--local`, the picker's local model); default: the one
   * this agent's last segment here talked to, unless another model is asked for (localFor).
   */
  local?: LocalEndpointRef;
  /** Where BATON_BRIEF_MAX_CHARS is read. */
  env: NodeJS.ProcessEnv;
  git?: GitFactsProvider;
  /**
   * A tab's program opens a native session only by id (capabilities.tabSession); one that
   * cannot would start blank, so in a tab it gets the brief instead of a resume.
   */
  inTab: boolean;
}

export interface HandoffPlan {
  driver: HarnessDriver;
  model: string;
  /** The baton account to run under, as drivers take it (undefined: the CLI's own configuration). */
  account?: string;
  /** The local model server the agent is pointed at (local-run.ts turns it into args and env); undefined: its own provider. */
  local?: LocalEndpointRef;
  /** A handoff is needed: the agent (or model, or account, or local server) differs from the current segment's. */
  switching: boolean;
  budget: BriefBudget;
  /** What the agent must hear before the message; undefined: nothing (no context, or a returning agent with nothing new). */
  brief?: { text: string; hash?: string };
  /** How the brief was made (its git facts are recorded with the handoff). */
  prepared?: PreparedBrief;
  /** The native session to continue (or to fork, with `fork`). */
  resume?: string;
  /** The cursor of a native fork's first turn: `resume` is forked into a new session, never continued. */
  fork?: NativeCursor;
  /** With `resume`: the newest entry that session has seen (the brief, if any, is what came after). */
  sinceSeq?: number;
  /** The newest entry the plan covers. */
  uptoSeq: number;
}

/** The model `driver` runs: the one asked for, else the one it ran last here, else its configured default. */
export function modelFor(t: Transcript, registry: Registry, driver: HarnessDriver, asked: string | undefined): string {
  const current = t.currentSegment;
  const before = current?.harness === driver.name ? current.model : lastSegmentOf(t.segments, driver.name)?.model;
  return asked ?? before ?? registry.settings(driver.name).model ?? driver.defaultModel ?? 'default';
}

/**
 * The account `driver` runs under: the one asked for, else the one it ran under last here
 * (its native session lives there), else its default account. Undefined: the CLI's own
 * configuration. A driver that cannot isolate accounts always runs under its own.
 */
export function accountFor(t: Transcript, driver: HarnessDriver, asked: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (!driver.capabilities.accounts) return undefined;
  if (asked !== undefined) return driverAccount(asked);
  const current = t.currentSegment;
  const before = current?.harness === driver.name ? current : lastSegmentOf(t.segments, driver.name);
  if (before) return before.account;
  return driverAccount(defaultAccount(env, driver.name));
}

/** This agent's segment the next one continues from: the current one if it is this agent's, else its last. */
function ownSegment(t: Transcript, harness: string): Segment | undefined {
  const current = t.currentSegment;
  return current?.harness === harness ? current : lastSegmentOf(t.segments, harness);
}

/**
 * The local model server `driver` talks to: the one asked for, else the one its last segment
 * here talked to — so a later turn or a reopened tab goes on with the same server and model
 * without being told again — unless another model is asked for, which is the CLI's own
 * provider's. Undefined: the CLI's own provider.
 */
export function localFor(
  t: Transcript,
  driver: HarnessDriver,
  askedModel: string | undefined,
  asked: LocalEndpointRef | undefined,
): LocalEndpointRef | undefined {
  if (asked) return asked;
  const before = ownSegment(t, driver.name);
  if (!before?.local) return undefined;
  if (askedModel !== undefined && askedModel !== before.model) return undefined;
  return before.local;
}

const sameLocal = (a: LocalEndpointRef | undefined, b: LocalEndpointRef | undefined): boolean => a?.endpoint === b?.endpoint && a?.api === b?.api;

function capabilities(input: Pick<HandoffInput, 'driver' | 'inTab'>): { canResume: boolean; canFork: boolean } {
  const caps = input.driver.capabilities;
  const ok = !input.inTab || caps.tabSession === true;
  return { canResume: ok && caps.resume, canFork: ok && caps.fork };
}

/** The brief for `input`'s agent; `canResume` false makes it a full replay, `uptoSeq` cuts it there. */
export function briefFor(input: HandoffInput, model: string, opts: { canResume: boolean; uptoSeq?: number; account?: string }): Promise<PreparedBrief> {
  const { conversation: conv, registry, driver } = input;
  return prepareBrief({
    transcript: conv.transcript,
    title: conv.meta.data.title,
    cwd: conv.meta.data.cwd,
    baseBranch: conv.meta.data.baseBranch,
    target: {
      harness: driver.name,
      model,
      title: driver.title,
      canResume: opts.canResume,
      canFork: capabilities(input).canFork,
      ...(opts.account ? { account: opts.account } : {}),
    },
    maxChars: briefMaxCharsFromEnv(input.env).maxChars,
    uptoSeq: opts.uptoSeq,
    git: input.git,
    agentTitles: Object.fromEntries(registry.drivers().map((d) => [d.name, d.title])),
  });
}

/**
 * The native session a switch to `input`'s agent resumes (a returning agent: only what it
 * missed is told), undefined: it starts afresh, with the brief if there is context. The rule
 * planHandoff follows, without planning, for what the compose bar says of an armed switch.
 */
export function resumeFor(input: Omit<HandoffInput, 'git'>): NativeCursor | undefined {
  const t = input.conversation.transcript;
  // No cursor for this agent: it never ran here (and its account need not be looked up).
  if (!t.cursor(input.driver.name) || !hasContext(t.entries)) return undefined;
  const model = modelFor(t, input.registry, input.driver, input.model);
  return cursorFor(input, model, accountFor(t, input.driver, input.account, input.env));
}

function cursorFor(input: Omit<HandoffInput, 'git'>, model: string, account: string | undefined): NativeCursor | undefined {
  const { canResume, canFork } = capabilities(input);
  return resumableCursor(input.conversation.transcript, { harness: input.driver.name, model, canResume, canFork, ...(account ? { account } : {}) });
}

export async function planHandoff(input: HandoffInput): Promise<HandoffPlan> {
  const { conversation: conv, registry, driver } = input;
  const t = conv.transcript;
  const current = t.currentSegment;
  const model = modelFor(t, registry, driver, input.model);
  const account = accountFor(t, driver, input.account, input.env);
  const local = localFor(t, driver, input.model, input.local);
  const plan: HandoffPlan = {
    driver,
    model,
    ...(account ? { account } : {}),
    ...(local ? { local } : {}),
    switching: !current || current.harness !== driver.name || current.model !== model || current.account !== account || !sameLocal(current.local, local),
    budget: briefMaxCharsFromEnv(input.env),
    uptoSeq: t.lastSeq,
  };
  if (!hasContext(t.entries)) return plan;
  const { canResume } = capabilities(input);
  const cursor = cursorFor(input, model, account);
  if (cursor && !hasContext(t.since(cursor.deliveredSeq))) {
    // A returning agent with nothing new to hear: its own session, and the message alone.
    plan.resume = cursor.agentSession;
    plan.sinceSeq = cursor.deliveredSeq;
    if (cursor.fork) plan.fork = cursor;
    return plan;
  }
  const prepared = await briefFor(input, model, { canResume, ...(account ? { account } : {}) });
  plan.prepared = prepared;
  if (prepared.resume) {
    plan.resume = prepared.resume.agentSession;
    plan.sinceSeq = prepared.resume.deliveredSeq;
    if (prepared.resume.fork) plan.fork = prepared.resume;
  }
  if (prepared.brief.text !== null) plan.brief = { text: prepared.brief.text, ...(prepared.brief.hash ? { hash: prepared.brief.hash } : {}) };
  return plan;
}

/**
 * Records a switching plan: the handoff entry opening the new segment (with what the brief
 * was made of, so its card can be regenerated), and the resumed session as that segment's
 * own. A plan that does not switch records nothing (undefined).
 */
export function recordHandoff(conv: Pick<OpenConversation, 'transcript' | 'meta'>, plan: HandoffPlan, switchId: string): Entry | undefined {
  if (!plan.switching) return undefined;
  const t = conv.transcript;
  const entry = t.startSegment({
    harness: plan.driver.name,
    model: plan.model,
    ...(plan.account ? { account: plan.account } : {}),
    ...(plan.local ? { local: plan.local } : {}),
    switchId,
    mode: plan.resume ? 'resume' : 'fresh',
    briefChars: plan.brief?.text.length ?? 0,
    ...(plan.brief?.hash ? { briefHash: plan.brief.hash } : {}),
    budget: plan.budget.maxChars,
    uptoSeq: plan.uptoSeq,
    sinceSeq: plan.sinceSeq,
    briefTitle: conv.meta.data.title,
    git: plan.prepared?.git,
  });
  // A session to fork is not this segment's: the new one is, once the agent reports it.
  if (plan.resume && !plan.fork) t.apply({ type: 'session', agentSession: plan.resume });
  return entry;
}
