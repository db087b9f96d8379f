// One headless turn of a conversation (`baton chat`): picks the agent, and when it differs
// from the conversation's current one performs the handoff that handoff-plan.ts plans (the
// planner a tab's switch uses too): a new segment and handoff entry, then the brief (a fresh
// replay, or a returning agent's own session plus only the delta) followed by the user's
// message. A native fork's first turn (its cursor is marked
// `fork`) forks that agent's own session instead of continuing it, and sends the message
// alone; should the fork fail before the prompt reached the model, the turn falls back to
// the replay with the full brief. Everything is checked before anything is written,
// so bad input changes nothing; once the message is recorded, a failure leaves it and an
// error entry in the transcript, never loses it. The driver's time limits are baton's to
// keep (turn-guard.ts: its deadline and a cancel hold whatever the driver does), and a turn
// that ends without an answer (see `answered`) is a failure too, never a silent success.

import { randomUUID } from 'node:crypto';
import { BatonError, EXIT } from '../errors.js';
import { ResumeFailedError, type HarnessDriver, type HeadlessResult } from '../plugins/api.js';
import type { Registry } from '../plugins/registry.js';
import type { GitFactsProvider } from '../transcript/git-facts-types.js';
import { briefMaxCharsFromEnv } from '../transcript/settings.js';
import { titleFrom } from '../transcript/store.js';
import type { OpenConversation } from '../transcript/store.js';
import type { Entry } from '../transcript/types.js';
import { briefFor, planHandoff, recordHandoff, type HandoffInput } from './handoff-plan.js';
import { guardTurn, TurnAbandonedError } from './turn-guard.js';

export interface ChatTurn {
  /** The agent to run; default the conversation's current one. */
  agent?: string;
  model?: string;
  prompt: string;
  yes: boolean;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  /** Extra CLI arguments. */
  args?: string[];
  /** Cancels the turn: the driver ends the CLI's process group and the turn ends `cancelled`. */
  signal?: AbortSignal;
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
  /** Entries this turn committed, the handoff included. */
  entries: Entry[];
  /** The agent's text, as one string. */
  reply: string;
  handoff?: { from: string | null; mode: 'fresh' | 'resume'; briefChars: number };
  /** Why the turn ended, when the driver says (`cancelled`: the signal ended it). */
  stopReason?: string;
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
        () => reject(new BatonError(`${driver.title} (${name}) did not say whether it is installed within ${DETECT_TIMEOUT_MS / 1000} s`, EXIT.agentFailed, 'see `baton agents`; a drop-in driver may be at fault')),
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

export async function runChat(turn: ChatTurn, deps: ChatDeps): Promise<ChatResult> {
  const { conversation: conv, registry } = deps;
  const t = conv.transcript;
  if (!turn.prompt.trim()) throw new BatonError('the message is empty', EXIT.badInput, 'give the message to send as the last argument');
  const budget = briefMaxCharsFromEnv(turn.env);
  if (budget.warning) deps.warn?.(budget.warning);

  const name = turn.agent ?? t.currentSegment?.harness;
  if (!name) {
    throw new BatonError('this conversation has no agent yet', EXIT.badInput, `choose one with --agent NAME (known: ${registry.names().join(', ')})`);
  }
  const driver = await readyDriver(registry, name, turn.signal);
  const input: HandoffInput = { conversation: conv, registry, driver, ...(turn.model ? { model: turn.model } : {}), env: turn.env, git: deps.git, inTab: false };
  const plan = await planHandoff(input);
  const model = plan.model;

  // From here on the conversation changes.
  const before = t.entries.length;
  const switchId = randomUUID();
  const briefText = plan.brief?.text ?? null;
  let handoff: ChatResult['handoff'];
  const h = recordHandoff(conv, plan, switchId);
  if (h?.kind === 'handoff') handoff = { from: h.from ? h.from.harness : null, mode: h.mode, briefChars: h.briefChars };
  let resume = plan.resume;
  let fork = !!plan.fork;
  const messageSeqBefore = t.lastSeq;
  const checkpoint = deps.checkpoint ? await deps.checkpoint(t.lastSeq + 1) : undefined;
  t.apply({ type: 'user_text', text: turn.prompt, checkpoint, switchId: plan.switching ? switchId : undefined });
  conv.sync();

  // baton keeps the turn's deadline and cancel itself (turn-guard.ts); once a run is over
  // (settled, or abandoned by baton) its driver's late events are not recorded.
  const run = async (prompt: string, resume: string | undefined): Promise<HeadlessResult> => {
    let listening = true;
    try {
      return await guardTurn(
        (signal) =>
          driver.headless!({
            cwd: conv.meta.data.cwd,
            prompt,
            model: model === 'default' ? undefined : model,
            resume,
            ...(resume && fork ? { fork: true } : {}),
            yes: turn.yes,
            args: [...(registry.settings(name).args ?? []), ...(turn.args ?? [])],
            timeoutMs: turn.timeoutMs,
            env: turn.env,
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
  };
  const compose = (brief: string | null) => (brief ? `${brief}\n\n${turn.prompt}` : turn.prompt);

  let result: HeadlessResult;
  try {
    result = await run(compose(briefText), resume);
  } catch (err) {
    if (!(err instanceof ResumeFailedError) || !resume) return fail(err);
    // The native session is gone (nothing reached the model): forget it and start over
    // with the full brief, in the same switch.
    t.flush();
    t.invalidateCursor(name);
    const how = fork ? 'Forking' : 'Resuming';
    t.apply({ type: 'notice', text: `${how} ${driver.title}'s own session ${resume} failed (${err.message}); starting it fresh with the full brief.` });
    deps.warn?.(`${how.toLowerCase()} ${name} session ${resume} failed; starting fresh with the full brief`);
    const fresh = await briefFor(input, model, { canResume: false, uptoSeq: messageSeqBefore });
    // The fresh session gets the whole history in its brief: it is this conversation's own.
    resume = undefined;
    fork = false;
    try {
      result = await run(compose(fresh.brief.text), undefined);
    } catch (err2) {
      return fail(err2);
    }
  }
  t.flush();
  if (!answered(t.entries.slice(before))) {
    if (!turn.signal?.aborted) noAnswer(t.entries.slice(before));
    t.apply({ type: 'error', text: `The turn was cancelled (${String(turn.signal!.reason)}) before ${driver.title} answered.`, code: String(EXIT.cancelled) });
  }
  if (resume && !result.resumed) {
    // The CLI answered in a new session of its own: the reply stands, but that session
    // lacks the history, so the next turn must not treat it as carrying the conversation.
    t.flush();
    t.invalidateCursor(name);
    t.apply({ type: 'notice', text: `${driver.title} did not ${fork ? 'fork' : 'resume'} session ${resume} and answered in a new session; the next turn starts it with a full brief.` });
    deps.warn?.(`${name} did not ${fork ? 'fork' : 'resume'} its session; the next turn replays the conversation`);
    t.flush();
    if (!t.entries.slice(before).some((e) => e.kind === 'turn_end')) t.apply({ type: 'turn_end' });
    if (result.agentSession) t.apply({ type: 'session', agentSession: result.agentSession });
    await conv.meta.update({ lastAgent: { harness: name, model } });
    return done(result.stopReason);
  }
  t.flush();
  if (result.agentSession) t.apply({ type: 'session', agentSession: result.agentSession });
  if (!t.entries.slice(before).some((e) => e.kind === 'turn_end')) t.apply({ type: 'turn_end' });
  // After a fork, only the new session (the driver reports it) is this conversation's own.
  const session = result.agentSession ?? (fork ? undefined : t.currentSegment?.agentSession);
  if (session) t.confirmCursor(name, session, t.lastSeq);
  await conv.meta.update({ lastAgent: { harness: name, model }, ...(conv.meta.data.title ? {} : { title: titleFrom(turn.prompt) }) });
  return done(result.stopReason);

  function done(stopReason: string | undefined): ChatResult {
    const entries = t.entries.slice(before);
    const reply = entries.flatMap((e) => (e.kind === 'agent_text' ? [e.text] : [])).join('\n\n');
    const r: ChatResult = { conversationId: conv.id, agent: name!, model, entries, reply };
    if (handoff) r.handoff = handoff;
    if (stopReason) r.stopReason = stopReason;
    return r;
  }

  /** The driver settled without an answer: a failed turn, its own error entry saying why, or baton's. */
  function noAnswer(entries: Entry[]): never {
    const said = entries.filter((e) => e.kind === 'error').pop();
    const why = said?.kind === 'error' ? `: ${said.text}` : ' (no text, no tool call, no approval request)';
    const err = new BatonError(`${driver.title} ended the turn without an answer${why}`, EXIT.agentFailed, `your message is kept in the transcript (baton transcript show ${conv.id}); retry with baton chat`);
    if (!said) return fail(err);
    conv.sync();
    throw err;
  }

  function fail(err: unknown): never {
    t.flush();
    const message = err instanceof Error ? err.message : String(err);
    const text = err instanceof TurnAbandonedError ? message.charAt(0).toUpperCase() + message.slice(1) : message.startsWith(driver.title) ? message : `${driver.title} failed: ${message}`;
    t.apply({ type: 'error', text, code: err instanceof BatonError ? String(err.exitCode) : 'internal' });
    conv.sync();
    if (err instanceof BatonError) throw err;
    throw new BatonError(`${driver.title} failed: ${message}`, EXIT.agentFailed, 'your message is kept in the transcript; retry with baton chat');
  }
}

/**
 * Whether a turn's entries hold an answer: something the agent said or did — text that is
 * not blank, a tool call, or an approval request. Reasoning, usage (turn_end), a session
 * id, notices and errors alone are not one: a turn of only those ended without an answer.
 */
export function answered(entries: readonly Entry[]): boolean {
  return entries.some((e) => (e.kind === 'agent_text' && e.text.trim() !== '') || e.kind === 'tool_call' || e.kind === 'approval');
}
