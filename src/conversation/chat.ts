// One headless turn of a conversation (`baton chat`): picks the agent, and when it differs
// from the conversation's current one performs the handoff — a new segment and handoff
// entry, then the brief (a fresh replay, or a returning agent's own session plus only the
// delta) followed by the user's message. A native fork's first turn (its cursor is marked
// `fork`) forks that agent's own session instead of continuing it, and sends the message
// alone; should the fork fail before the prompt reached the model, the turn falls back to
// the replay with the full brief. Everything is checked before anything is written,
// so bad input changes nothing; once the message is recorded, a failure leaves it and an
// error entry in the transcript, never loses it.

import { randomUUID } from 'node:crypto';
import { BatonError, EXIT } from '../errors.js';
import { ResumeFailedError, type HarnessDriver, type HeadlessResult } from '../plugins/api.js';
import type { Registry } from '../plugins/registry.js';
import type { GitFactsProvider } from '../transcript/git-facts.js';
import { briefMaxCharsFromEnv } from '../transcript/settings.js';
import { titleFrom } from '../transcript/store.js';
import type { OpenConversation } from '../transcript/store.js';
import type { Entry } from '../transcript/types.js';
import { hasContext, lastSegmentOf, prepareBrief, resumableCursor, type PreparedBrief } from './prepare-brief.js';

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

interface Plan {
  driver: HarnessDriver;
  model: string;
  /** A handoff is needed: the agent (or model) differs from the current segment's. */
  switching: boolean;
  prepared?: PreparedBrief;
  /** The native session to continue. */
  resume?: string;
  /** Fork `resume` into a new session instead of continuing it (a native fork's first turn). */
  fork?: boolean;
}

async function readyDriver(registry: Registry, name: string): Promise<HarnessDriver> {
  const driver = registry.get(name);
  const found = await registry.detect(name);
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

  const current = t.currentSegment;
  const name = turn.agent ?? current?.harness;
  if (!name) {
    throw new BatonError('this conversation has no agent yet', EXIT.badInput, `choose one with --agent NAME (known: ${registry.names().join(', ')})`);
  }
  const driver = await readyDriver(registry, name);
  const model = turn.model ?? (current?.harness === name ? current.model : lastSegmentOf(t.segments, name)?.model) ?? registry.settings(name).model ?? driver.defaultModel ?? 'default';
  const titles = Object.fromEntries(registry.drivers().map((d) => [d.name, d.title]));
  const plan: Plan = { driver, model, switching: !current || current.harness !== name || current.model !== model };

  const briefFor = async (canResume: boolean, uptoSeq?: number) =>
    prepareBrief({
      transcript: t,
      title: conv.meta.data.title,
      cwd: conv.meta.data.cwd,
      baseBranch: conv.meta.data.baseBranch,
      target: { harness: name, model, title: driver.title, canResume, canFork: driver.capabilities.fork },
      maxChars: budget.maxChars,
      uptoSeq,
      git: deps.git,
      agentTitles: titles,
    });

  if (hasContext(t.entries)) {
    const cursor = resumableCursor(t, { harness: name, model, canResume: driver.capabilities.resume, canFork: driver.capabilities.fork });
    if (!plan.switching && cursor && !hasContext(t.since(cursor.deliveredSeq))) {
      // Same agent, next turn, nothing it has not seen: its own session and the message alone.
      plan.resume = cursor.agentSession;
      plan.fork = cursor.fork;
    } else {
      plan.prepared = await briefFor(driver.capabilities.resume);
      plan.resume = plan.prepared.resume?.agentSession;
      plan.fork = plan.prepared.resume?.fork;
    }
  }

  // From here on the conversation changes.
  const before = t.entries.length;
  const switchId = randomUUID();
  const briefText = plan.prepared?.brief.text ?? null;
  let handoff: ChatResult['handoff'];
  if (plan.switching) {
    const mode = plan.resume ? 'resume' : 'fresh';
    const h = t.startSegment({
      harness: name,
      model,
      switchId,
      mode,
      briefChars: briefText?.length ?? 0,
      briefHash: plan.prepared?.brief.hash ?? undefined,
      budget: budget.maxChars,
      uptoSeq: t.lastSeq,
      sinceSeq: plan.prepared?.resume?.deliveredSeq,
      briefTitle: conv.meta.data.title,
      git: plan.prepared?.git,
    });
    handoff = { from: h.kind === 'handoff' && h.from ? h.from.harness : null, mode, briefChars: briefText?.length ?? 0 };
    // A session to fork is not this segment's: the new one is, once the driver reports it.
    if (plan.resume && !plan.fork) t.apply({ type: 'session', agentSession: plan.resume });
  }
  const messageSeqBefore = t.lastSeq;
  const checkpoint = deps.checkpoint ? await deps.checkpoint(t.lastSeq + 1) : undefined;
  t.apply({ type: 'user_text', text: turn.prompt, checkpoint, switchId: plan.switching ? switchId : undefined });
  conv.sync();

  const run = (prompt: string, resume: string | undefined): Promise<HeadlessResult> =>
    driver.headless!({
      cwd: conv.meta.data.cwd,
      prompt,
      model: model === 'default' ? undefined : model,
      resume,
      ...(resume && plan.fork ? { fork: true } : {}),
      yes: turn.yes,
      args: [...(registry.settings(name).args ?? []), ...(turn.args ?? [])],
      timeoutMs: turn.timeoutMs,
      env: turn.env,
      ...(turn.signal ? { signal: turn.signal } : {}),
      onEvent: (e) => {
        // The message itself was recorded above; a driver echoing it back adds nothing.
        if (e.type !== 'user_text') t.apply(e);
      },
    });
  const compose = (brief: string | null) => (brief ? `${brief}\n\n${turn.prompt}` : turn.prompt);

  let result: HeadlessResult;
  try {
    result = await run(compose(briefText), plan.resume);
  } catch (err) {
    if (!(err instanceof ResumeFailedError) || !plan.resume) return fail(err);
    // The native session is gone (nothing reached the model): forget it and start over
    // with the full brief, in the same switch.
    t.flush();
    t.invalidateCursor(name);
    const how = plan.fork ? 'Forking' : 'Resuming';
    t.apply({ type: 'notice', text: `${how} ${driver.title}'s own session ${plan.resume} failed (${err.message}); starting it fresh with the full brief.` });
    deps.warn?.(`${how.toLowerCase()} ${name} session ${plan.resume} failed; starting fresh with the full brief`);
    const fresh = await briefFor(false, messageSeqBefore);
    // The fresh session gets the whole history in its brief: it is this conversation's own.
    plan.resume = undefined;
    plan.fork = undefined;
    try {
      result = await run(compose(fresh.brief.text), undefined);
    } catch (err2) {
      return fail(err2);
    }
  }
  if (plan.resume && !result.resumed) {
    // The CLI answered in a new session of its own: the reply stands, but that session
    // lacks the history, so the next turn must not treat it as carrying the conversation.
    t.flush();
    t.invalidateCursor(name);
    t.apply({ type: 'notice', text: `${driver.title} did not ${plan.fork ? 'fork' : 'resume'} session ${plan.resume} and answered in a new session; the next turn starts it with a full brief.` });
    deps.warn?.(`${name} did not ${plan.fork ? 'fork' : 'resume'} its session; the next turn replays the conversation`);
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
  const session = result.agentSession ?? (plan.fork ? undefined : t.currentSegment?.agentSession);
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

  function fail(err: unknown): never {
    t.flush();
    const message = err instanceof Error ? err.message : String(err);
    t.apply({ type: 'error', text: `${driver.title} failed: ${message}`, code: err instanceof BatonError ? String(err.exitCode) : 'internal' });
    conv.sync();
    if (err instanceof BatonError) throw err;
    throw new BatonError(`${driver.title} failed: ${message}`, EXIT.agentFailed, 'your message is kept in the transcript; retry with baton chat');
  }
}

