// The summary before a switch (`baton chat --summary`): before a conversation moves to
// another agent (or model, or account), the agent that ran last gets one extra headless turn,
// on its own session as its normal next turn would be (handoff-plan.ts plans it), asking for
// a short summary of the conversation. Its answer is recorded as one `summary` entry (author:
// that agent; the seqs it covers), never as a user message or a reply, so the brief can show
// it in place of the oldest entries it leaves out and a card still regenerates from the
// transcript. A summary that fails is a notice and a warning: the switch goes on without it.
// It must never record the summary prompt or the turn's own events as conversation entries.

import { BatonError, EXIT } from '../errors.js';
import type { HarnessDriver } from '../plugins/api.js';
import type { Registry } from '../plugins/registry.js';
import type { OpenConversation } from '../transcript/store.js';
import { planHandoff, type HandoffInput, type HandoffPlan } from './handoff-plan.js';
import { localRunSpec } from './local-run.js';
import { hasContext } from './prepare-brief.js';
import { guardTurn } from './turn-guard.js';

/** The fixed request the outgoing agent gets (documented in README, `baton chat --summary`). */
export const SUMMARY_PROMPT = [
  'baton is about to hand this conversation to another agent, which will read your summary in place of the oldest part of the conversation.',
  'Write a short summary of the conversation so far: what the user wants, what was done and decided, which files changed, and what is still open.',
  'Plain text, at most 300 words. Do not use tools and do not change anything; just answer with the summary.',
].join(' ');

export interface SummaryTurn {
  yes: boolean;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  args?: string[];
  signal?: AbortSignal;
}

/**
 * Asks the current segment's agent for a summary when `plan` switches away from it and
 * there is something to summarize; records it. True when a summary entry was recorded.
 */
export async function summarizeBeforeSwitch(
  turn: SummaryTurn,
  deps: { conversation: OpenConversation; registry: Registry; warn?: (text: string) => void },
  input: HandoffInput,
  plan: HandoffPlan,
): Promise<boolean> {
  const t = deps.conversation.transcript;
  const current = t.currentSegment;
  if (!plan.switching || !current || !hasContext(t.entries)) {
    deps.warn?.('--summary: this turn does not switch away from an agent that ran here; nothing to summarize');
    return false;
  }
  const driver = deps.registry.get(current.harness);
  const found = await deps.registry.detect(current.harness);
  if (!found.installed || !driver.headless) {
    return skip(deps, `${driver.title} (${current.harness}) cannot run a headless turn here, so it wrote no summary`);
  }
  // The outgoing agent's next turn, as it would be: its own session (plus any delta), same model and account.
  // (Neither the target's account nor its local server: the outgoing agent keeps its own.)
  const { account: _asked, local: _local, ...rest } = input;
  const own = await planHandoff({ ...rest, driver, model: current.model });
  const prompt = own.brief ? `${own.brief.text}\n\n${SUMMARY_PROMPT}` : SUMMARY_PROMPT;
  const fromSeq = t.entries[0]?.seq ?? 1;
  const toSeq = t.lastSeq;
  let text = '';
  try {
    const result = await run(driver, own, prompt, turn, deps.conversation.meta.data.cwd, deps.registry, (chunk) => {
      text += chunk;
    });
    text = text.trim();
    if (!text) return skip(deps, `${driver.title} answered the summary request with no text`);
    t.flush();
    const entry = t.summary(text, fromSeq, toSeq);
    // Its session has now seen the conversation up to the summary: the next turn of it resumes there.
    const session = own.resume && !own.fork ? (result.resumed ? (result.agentSession ?? own.resume) : undefined) : result.agentSession;
    if (session) t.confirmCursor(current.harness, session, entry.seq);
    deps.conversation.sync();
    return true;
  } catch (err) {
    if (turn.signal?.aborted)
      throw new BatonError(`the turn was cancelled (${String(turn.signal.reason)}) while ${driver.title} wrote its summary`, EXIT.cancelled);
    return skip(deps, `${driver.title}'s summary failed (${err instanceof Error ? err.message : String(err)})`);
  }
}

function skip(deps: { conversation: OpenConversation; warn?: (text: string) => void }, why: string): false {
  deps.conversation.transcript.apply({ type: 'notice', text: `${why}; the brief is made without a summary.` });
  deps.conversation.sync();
  deps.warn?.(`--summary: ${why}; switching without it`);
  return false;
}

/** The summary turn itself: only the agent's text is kept, nothing enters the transcript. */
function run(driver: HarnessDriver, own: HandoffPlan, prompt: string, turn: SummaryTurn, cwd: string, registry: Registry, onText: (chunk: string) => void) {
  let listening = true;
  // An outgoing local agent writes its summary against its own local server.
  const local = localRunSpec(driver, own.local, own.model, turn.env);
  return guardTurn(
    (signal) =>
      driver.headless!({
        cwd,
        prompt,
        model: local?.model ?? (own.model === 'default' ? undefined : own.model),
        ...(own.account ? { account: own.account } : {}),
        resume: own.resume,
        ...(own.resume && own.fork ? { fork: true } : {}),
        yes: turn.yes,
        args: [...(registry.settings(driver.name).args ?? []), ...(turn.args ?? []), ...(local?.args ?? [])],
        timeoutMs: turn.timeoutMs,
        env: local ? { ...turn.env, ...local.env } : turn.env,
        signal,
        onEvent: (e) => {
          // Streamed chunks of one message; separate messages are separate paragraphs.
          if (listening && e.type === 'agent_text') onText(e.text);
        },
      }),
    { timeoutMs: turn.timeoutMs, signal: turn.signal, title: driver.title },
  ).finally(() => {
    listening = false;
  });
}
