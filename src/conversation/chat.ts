// One headless turn of a conversation (`baton chat`): picks the agent, and when it differs
// from the conversation's current one performs the handoff that handoff-plan.ts plans (the
// planner a tab's switch uses too): a new segment and handoff entry, then the brief (a fresh
// replay, or a returning agent's own session plus only the delta) followed by the user's
// message. A native fork's first turn (its cursor is marked
// `fork`) forks that agent's own session instead of continuing it, and sends the message
// alone; should the fork fail before the prompt reached the model, the turn falls back to
// the replay with the full brief. Everything is checked before anything is written,
// so bad input changes nothing (chat-check.ts); once the message is recorded, a failure leaves it and an
// error entry in the transcript, never loses it. The driver's time limits are baton's to
// keep (turn-guard.ts: its deadline and a cancel hold whatever the driver does), and a turn
// that ends without an answer (see `answered`) is a failure too, never a silent success.

import { randomUUID } from 'node:crypto';
import { BatonError, EXIT } from '../errors.js';
import { ResumeFailedError, type HarnessDriver, type HeadlessResult, type LocalEndpointSpec, type PermissionMode } from '../plugins/api.js';
import type { Registry } from '../plugins/registry.js';
import type { GitFactsProvider } from '../transcript/git-facts-types.js';
import { DEFAULT_ACCOUNT } from '../plugins/account-dir.js';
import { requireAccount } from '../plugins/account-store.js';
import { titleFrom } from '../transcript/store.js';
import type { OpenConversation } from '../transcript/store.js';
import type { Transcript } from '../transcript/transcript.js';
import type { Entry, LocalEndpointRef } from '../transcript/types.js';
import { checkTurn } from './chat-check.js';
import { localRunSpec } from './local-run.js';
import { briefFor, planHandoff, recordHandoff, type HandoffInput, type HandoffPlan } from './handoff-plan.js';
import { summarizeBeforeSwitch } from './summary-turn.js';
import { guardTurn, TurnAbandonedError } from './turn-guard.js';

export interface ChatTurn {
  /** The agent to run; default the conversation's current one. */
  agent?: string;
  model?: string;
  /** The account to run under (`default`: the CLI's own configuration); default: see handoff-plan's accountFor. */
  account?: string;
  prompt: string;
  yes: boolean;
  /** The permission mode (`full-access` is `yes`); plan and accept-edits need a driver with capabilities.permissionModes. */
  mode?: PermissionMode;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  /** Extra CLI arguments. */
  args?: string[];
  /**
   * The local model server to point the agent at (`--local`, local-choice.ts); default: the
   * one this agent's last segment here talked to, unless another model is asked for.
   */
  local?: LocalEndpointRef;
  /** Cancels the turn: the driver ends the CLI's process group and the turn ends `cancelled`. */
  signal?: AbortSignal;
  /** Before a switch, ask the outgoing agent for a summary the brief uses (summary-turn.ts). */
  summary?: boolean;
}

export interface ChatDeps {
  conversation: OpenConversation;
  registry: Registry;
  git?: GitFactsProvider;
  /** Snapshots the worktree before the user message with this seq; returns the commit. */
  checkpoint?: (seq: number) => Promise<string | undefined>;
  /** Warnings for the user (clamped budget, fallbacks). */
  warn?: (text: string) => void;
}

export interface ChatResult {
  conversationId: string;
  agent: string;
  model: string;
  /** The account the agent ran under (`default`: the CLI's own configuration). */
  account: string;
  /** The local model server the agent was pointed at (absent: its own provider). */
  local?: LocalEndpointRef;
  /** Entries this turn committed, the handoff included. */
  entries: Entry[];
  /** The agent's text, as one string. */
  reply: string;
  /** `fromAccount`: the baton account the previous segment ran under (absent: the CLI's own configuration). */
  /** fromModel: the model the previous segment ran (a model change keeps the agent). */
  handoff?: { from: string | null; fromModel?: string; fromAccount?: string; mode: 'fresh' | 'resume'; briefChars: number };
  /** Why the turn ended, when the driver says (`cancelled`: the signal ended it). */
  stopReason?: string;
}

/** One turn: checked, planned, recorded, run (falling back once to a fresh session), settled. */
export async function runChat(turn: ChatTurn, deps: ChatDeps): Promise<ChatResult> {
  const { conversation: conv, registry } = deps;
  const { name, driver } = await checkTurn(turn, { registry, current: conv.transcript.currentSegment?.harness, ...(deps.warn ? { warn: deps.warn } : {}) });
  const input: HandoffInput = {
    conversation: conv,
    registry,
    driver,
    ...(turn.model ? { model: turn.model } : {}),
    ...(turn.account !== undefined ? { account: turn.account } : {}),
    ...(turn.local ? { local: turn.local } : {}),
    env: turn.env,
    git: deps.git,
    inTab: false,
  };
  let plan = await planHandoff(input);
  // The turn's entries include a summary written before its switch.
  const before = conv.transcript.entries.length;
  // The account the conversation ran under may have been removed since: refused, never made anew empty.
  if (plan.account) requireAccount(turn.env, name, plan.account);
  // A driver that cannot point at the recorded local server is refused before anything is written.
  localRunSpec(driver, plan.local, plan.model, turn.env);
  // The summary is recorded before the switch, so the brief planned again is made with it.
  if (turn.summary && (await summarizeBeforeSwitch(turn, deps, input, plan))) plan = await planHandoff(input);

  // From here on the conversation changes.
  const run = await recordTurn(turn, deps, plan, name, before);
  let result: HeadlessResult;
  try {
    result = await runDriver(run, compose(turn, plan.brief?.text ?? null));
  } catch (err) {
    if (!(err instanceof ResumeFailedError) || !run.resume) return fail(run, err);
    result = await startFresh(run, input, err);
  }
  return settle(run, result);
}

/** What the steps of a turn share once its message is recorded. */
interface TurnRun {
  turn: ChatTurn;
  deps: ChatDeps;
  t: Transcript;
  driver: HarnessDriver;
  name: string;
  model: string;
  /** The baton account the driver runs under (undefined: the CLI's own configuration). */
  account: string | undefined;
  /** The local model server the segment talks to, and what points the driver at it. */
  localRef: LocalEndpointRef | undefined;
  local: LocalEndpointSpec | undefined;
  /** How many entries there were before the turn: it committed the ones after. */
  before: number;
  /** The newest seq before the user's message: what a fallback's brief covers. */
  beforeMessageSeq: number;
  /** The native session the driver continues (or forks, with `fork`); dropped by a fallback. */
  resume: string | undefined;
  fork: boolean;
  handoff?: ChatResult['handoff'];
}

/** Records the handoff, when the plan is a switch, and the user's message with its checkpoint: the turn is under way. */
async function recordTurn(turn: ChatTurn, deps: ChatDeps, plan: HandoffPlan, name: string, before: number): Promise<TurnRun> {
  const conv = deps.conversation;
  const t = conv.transcript;
  const switchId = randomUUID();
  const h = recordHandoff(conv, plan, switchId);
  const handoff =
    h?.kind === 'handoff'
      ? {
          from: h.from ? h.from.harness : null,
          ...(h.from ? { fromModel: h.from.model } : {}),
          ...(h.fromAccount ? { fromAccount: h.fromAccount } : {}),
          mode: h.mode,
          briefChars: h.briefChars,
        }
      : undefined;
  const beforeMessageSeq = t.lastSeq;
  const checkpoint = deps.checkpoint ? await deps.checkpoint(t.lastSeq + 1) : undefined;
  t.apply({ type: 'user_text', text: turn.prompt, checkpoint, switchId: plan.switching ? switchId : undefined });
  conv.sync();
  return {
    turn,
    deps,
    t,
    driver: plan.driver,
    name,
    model: plan.model,
    account: plan.account,
    localRef: plan.local,
    local: localRunSpec(plan.driver, plan.local, plan.model, turn.env),
    before,
    beforeMessageSeq,
    resume: plan.resume,
    fork: !!plan.fork,
    ...(handoff ? { handoff } : {}),
  };
}

/** The prompt the driver gets: the brief, when there is one, then the user's message. */
function compose(turn: ChatTurn, brief: string | null): string {
  return brief ? `${brief}\n\n${turn.prompt}` : turn.prompt;
}

/**
 * One run of the driver, on the run's session (continued or forked) if any. baton keeps the
 * turn's deadline and cancel itself (turn-guard.ts); once a run is over (settled, or
 * abandoned by baton) its driver's late events are not recorded.
 */
async function runDriver(run: TurnRun, prompt: string): Promise<HeadlessResult> {
  const { turn, t, driver, model, resume } = run;
  let listening = true;
  try {
    return await guardTurn(
      (signal) =>
        driver.headless!({
          cwd: run.deps.conversation.meta.data.cwd,
          prompt,
          model: run.local?.model ?? (model === 'default' ? undefined : model),
          ...(run.account ? { account: run.account } : {}),
          resume,
          ...(resume && run.fork ? { fork: true } : {}),
          yes: turn.yes || turn.mode === 'full-access',
          ...(turn.mode ? { mode: turn.mode } : {}),
          args: [...(run.deps.registry.settings(run.name).args ?? []), ...(turn.args ?? []), ...(run.local?.args ?? [])],
          timeoutMs: turn.timeoutMs,
          env: run.local ? { ...turn.env, ...run.local.env } : turn.env,
          signal,
          onEvent: (e) => {
            // The message itself was recorded above; a driver echoing it back adds nothing.
            if (listening && e.type !== 'user_text') t.apply(e);
          },
        }),
      { timeoutMs: turn.timeoutMs, signal: turn.signal, title: driver.title },
    );
  } finally {
    listening = false;
  }
}

/**
 * The native session is gone (nothing reached the model): forget it and run the turn again,
 * in the same switch, in a fresh session given the full brief.
 */
async function startFresh(run: TurnRun, input: HandoffInput, err: ResumeFailedError): Promise<HeadlessResult> {
  const { t, driver, name } = run;
  t.flush();
  t.invalidateCursor(name);
  const how = run.fork ? 'Forking' : 'Resuming';
  t.apply({ type: 'notice', text: `${how} ${driver.title}'s own session ${run.resume} failed (${err.message}); starting it fresh with the full brief.` });
  run.deps.warn?.(`${how.toLowerCase()} ${name} session ${run.resume} failed; starting fresh with the full brief`);
  const fresh = await briefFor(input, run.model, { canResume: false, uptoSeq: run.beforeMessageSeq });
  // The fresh session gets the whole history in its brief: it is this conversation's own.
  run.resume = undefined;
  run.fork = false;
  try {
    return await runDriver(run, compose(run.turn, fresh.brief.text));
  } catch (err2) {
    return fail(run, err2);
  }
}

/**
 * The driver settled: a turn without an answer fails (or, cancelled, says so), and the
 * session the CLI answered in becomes the one the next turn continues, unless it was a new
 * one where an old one was asked for. Then the conversation's metadata.
 */
async function settle(run: TurnRun, result: HeadlessResult): Promise<ChatResult> {
  const { turn, t, driver, name, model } = run;
  const conv = run.deps.conversation;
  t.flush();
  if (!answered(t.entries.slice(run.before))) {
    if (!turn.signal?.aborted) noAnswer(run, t.entries.slice(run.before));
    t.apply({ type: 'error', text: `The turn was cancelled (${String(turn.signal!.reason)}) before ${driver.title} answered.`, code: String(EXIT.cancelled) });
  }
  if (run.resume && !result.resumed) {
    // The CLI answered in a new session of its own: the reply stands, but that session
    // lacks the history, so the next turn must not treat it as carrying the conversation.
    t.flush();
    t.invalidateCursor(name);
    t.apply({
      type: 'notice',
      text: `${driver.title} did not ${run.fork ? 'fork' : 'resume'} session ${run.resume} and answered in a new session; the next turn starts it with a full brief.`,
    });
    run.deps.warn?.(`${name} did not ${run.fork ? 'fork' : 'resume'} its session; the next turn replays the conversation`);
    t.flush();
    if (!t.entries.slice(run.before).some((e) => e.kind === 'turn_end')) t.apply({ type: 'turn_end' });
    if (result.agentSession) t.apply({ type: 'session', agentSession: result.agentSession });
    await conv.meta.update({ lastAgent: { harness: name, model } });
    return done(run, result.stopReason);
  }
  t.flush();
  if (result.agentSession) t.apply({ type: 'session', agentSession: result.agentSession });
  if (!t.entries.slice(run.before).some((e) => e.kind === 'turn_end')) t.apply({ type: 'turn_end' });
  // After a fork, only the new session (the driver reports it) is this conversation's own.
  const session = result.agentSession ?? (run.fork ? undefined : t.currentSegment?.agentSession);
  if (session) t.confirmCursor(name, session, t.lastSeq);
  await conv.meta.update({ lastAgent: { harness: name, model }, ...(conv.meta.data.title ? {} : { title: titleFrom(turn.prompt) }) });
  return done(run, result.stopReason);
}

/** The turn's result: the entries it committed and the agent's text. */
function done(run: TurnRun, stopReason: string | undefined): ChatResult {
  const entries = run.t.entries.slice(run.before);
  const reply = entries.flatMap((e) => (e.kind === 'agent_text' ? [e.text] : [])).join('\n\n');
  const r: ChatResult = {
    conversationId: run.deps.conversation.id,
    agent: run.name,
    model: run.model,
    account: run.account ?? DEFAULT_ACCOUNT,
    ...(run.localRef ? { local: run.localRef } : {}),
    entries,
    reply,
  };
  if (run.handoff) r.handoff = run.handoff;
  if (stopReason) r.stopReason = stopReason;
  return r;
}

/** The driver settled without an answer: a failed turn, its own error entry saying why, or baton's. */
function noAnswer(run: TurnRun, entries: Entry[]): never {
  const conv = run.deps.conversation;
  const said = entries.filter((e) => e.kind === 'error').pop();
  const why = said?.kind === 'error' ? `: ${said.text}` : ' (no text, no tool call, no approval request)';
  const err = new BatonError(
    `${run.driver.title} ended the turn without an answer${why}`,
    EXIT.agentFailed,
    `your message is kept in the transcript (baton transcript show ${conv.id}); retry with baton chat`,
  );
  if (!said) return fail(run, err);
  conv.sync();
  throw err;
}

/** The turn failed after its message was recorded: an error entry says why, the message stays. */
function fail(run: TurnRun, err: unknown): never {
  const { t, driver } = run;
  t.flush();
  const message = err instanceof Error ? err.message : String(err);
  const text =
    err instanceof TurnAbandonedError
      ? message.charAt(0).toUpperCase() + message.slice(1)
      : message.startsWith(driver.title)
        ? message
        : `${driver.title} failed: ${message}`;
  t.apply({ type: 'error', text, code: err instanceof BatonError ? String(err.exitCode) : 'internal' });
  run.deps.conversation.sync();
  if (err instanceof BatonError) throw err;
  throw new BatonError(`${driver.title} failed: ${message}`, EXIT.agentFailed, 'your message is kept in the transcript; retry with baton chat');
}

/**
 * Whether a turn's entries hold an answer: something the agent said or did — text that is
 * not blank, a tool call, or an approval request. Reasoning, usage (turn_end), a session
 * id, notices and errors alone are not one: a turn of only those ended without an answer.
 */
export function answered(entries: readonly Entry[]): boolean {
  return entries.some((e) => (e.kind === 'agent_text' && e.text.trim() !== '') || e.kind === 'tool_call' || e.kind === 'approval');
}
