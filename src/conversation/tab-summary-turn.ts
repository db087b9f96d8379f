// The summary before a switch in a tab (the switch dialog's `s`; `baton chat --summary` is
// summary-turn.ts): before the armed switch stops the tab's agent, that agent gets the same
// request (SUMMARY_PROMPT) as its next turn in its own pane, where the user watches it write.
// Its answer is recorded as one `summary` entry (its author, the seqs it covers), never as a
// user message or a reply, so the brief planned next (the switch's own launch) uses it in place
// of the oldest entries it leaves out, and the card still regenerates from the transcript.
// The user's message waits for the new agent: it never goes to the outgoing one. A summary
// that cannot be had is a notice in the transcript, and the switch goes on without it.
// It must never stop or start an agent (the switch transaction does), nor record the request.

import { planHandoff } from './handoff-plan.js';
import { hasContext } from './prepare-brief.js';
import { SUMMARY_PROMPT } from './summary-turn.js';
import type { TabSessionDelivery } from './tab-session-delivery.js';
import type { ArmedSwitch } from './tab-session-state.js';

/** How long the outgoing agent may take over its summary, unless the tab's deps say. */
const SUMMARY_TURN_MS = 10 * 60_000;

/** The session the summary turn runs on (TabSession): its own turn in the CLI (tab-session.ts). */
type SummarizingSession = TabSessionDelivery & {
  ownTurn(text: string, timeoutMs: number): Promise<{ text: string } | { failed: string }>;
};

/**
 * Asks the tab's agent for its summary when `armed` switches away from it and there is
 * something to summarize, and records it. Gives back what to tell the user before the
 * switch's own outcome (undefined: nothing was asked). Asked once per armed switch: a retry
 * of the same switch (its launch failed) goes on from the summary already recorded.
 */
export async function summarizeInTab(session: SummarizingSession, armed: ArmedSwitch & { summarized?: boolean }): Promise<string | undefined> {
  if (!armed.summary || armed.summarized) return undefined;
  const { conversation: conv, registry, env, git, terminal } = session.deps;
  const t = conv.transcript;
  const current = t.currentSegment;
  if (!current || !hasContext(t.entries)) return undefined;
  let switching: boolean;
  try {
    const plan = await planHandoff({
      conversation: conv,
      registry,
      driver: registry.get(armed.agent),
      ...(armed.model ? { model: armed.model } : {}),
      ...(armed.account !== undefined ? { account: armed.account } : {}),
      ...(armed.local ? { local: armed.local } : {}),
      env,
      git,
      inTab: true,
    });
    switching = plan.switching;
  } catch {
    // The switch's own launch plans it again and says what is wrong.
    return undefined;
  }
  if (!switching) return undefined;
  const outgoing = session.driver;
  if (!outgoing || outgoing.name !== current.harness || !terminal.isRunning()) {
    const who = registry.has(current.harness) ? registry.get(current.harness).title : current.harness;
    return skip(session, `${who} is not running in the tab, so it wrote no summary`);
  }
  session.say(`Asking ${outgoing.title} for a summary before the switch to ${armed.title}: your message goes to ${armed.title} after it.`);
  const fromSeq = t.entries[0]?.seq ?? 1;
  const toSeq = t.lastSeq;
  const answer = await session.ownTurn(SUMMARY_PROMPT, session.deps.summaryTimeoutMs ?? SUMMARY_TURN_MS);
  if ('failed' in answer) return skip(session, `${outgoing.title}'s summary failed: ${answer.failed}`);
  t.flush();
  const entry = t.summary(answer.text, fromSeq, toSeq);
  // Its session has now seen the conversation up to the summary: a return to it resumes there.
  const seg = t.currentSegment;
  if (seg?.agentSession) t.confirmCursor(seg.harness, seg.agentSession, entry.seq);
  conv.sync();
  armed.summarized = true;
  return `${outgoing.title} wrote its summary (#${entry.seq}).`;
}

/** No summary: said in the transcript (as `baton chat --summary` says it) and to the user. */
function skip(session: SummarizingSession, why: string): string {
  session.conversation.transcript.apply({ type: 'notice', text: `${why}; the brief is made without a summary.` });
  session.conversation.sync();
  return `${why}; switching without it.`;
}
