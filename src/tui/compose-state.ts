// What the compose bar says for the tab in front, from its conversation's snapshot: the
// author, the agent (and its account), the armed switch (a fresh start, or a return to an
// agent's own session) — or, after a reset stopped the agent, the restart it arms — the brief
// the next message carries, the queue and the status. Words only; the compose bar draws them
// (compose-bar.ts) and conversation-tabs.ts feeds it.

import type { TabSnapshot } from '../conversation/index.js';
import type { UserAuthor } from '../transcript/types.js';
import type { ComposeState } from './compose-lines.js';
import type { StoppedFacts } from './fork-dialog.js';
import { armedName } from './summary-toggle.js';

export interface ComposeFacts {
  /** Who writes what the compose bar sends now. */
  user: UserAuthor;
  /** The front tab's conversation; undefined for a plain shell's tab or no tab. */
  snap?: TabSnapshot;
  /** A reset stopped the front tab's agent and its notice is shown. */
  stopped?: StoppedFacts;
  /** A tab is in front that runs a plain shell. */
  shell: boolean;
  /** Input the front tab's program is still reading in that is not a message of baton's (a paste into its pane). */
  pasting?: { written: number; total: number };
}

/**
 * The armed switch only changes the model of the agent that ran when it was armed (not its
 * account or server): the agent's own session goes on, in place or resumed (model-in-place.ts,
 * handoff-plan.ts), so nothing is carried as text. Compared with `from`, not the tab's agent:
 * while a sent switch runs, the tab's agent is already the new one, and a switch from Qwen Code
 * to Codex read "The same session goes on, on another model" until it was done.
 */
function sameSession(snap: TabSnapshot): boolean {
  const a = snap.armed;
  return (
    !!a && a.agent === a.from && a.agent === snap.agent && !a.local && !a.summary && (a.account === undefined || a.account === (snap.account ?? 'default'))
  );
}

/** "120 / 280 KB in", "1.2 / 3.4 MB in": both in the unit of the whole. */
export function inOf({ written, total }: { written: number; total: number }): string {
  const mb = total >= 1024 * 1024;
  const unit = mb ? 1024 * 1024 : 1024;
  const n = (b: number) => (mb ? (b / unit).toFixed(1) : String(Math.floor(b / unit)));
  return `${n(written)} / ${mb ? n(total) : Math.ceil(total / unit)} ${mb ? 'MB' : 'KB'} in`;
}

export function composeState({ user, snap, stopped, shell, pasting }: ComposeFacts): ComposeState {
  const armedTitle = snap?.armed ? armedName(snap.armed) : undefined;
  // After a reset the armed agent is a restart, not a switch: said as such.
  const armedText =
    stopped && armedTitle
      ? {
          head: `Next message starts ${armedTitle} afresh`,
          // Short: the line is one row at 80 columns (the pane says the rest).
          note: stopped.undone ? 'with the conversation as it is now' : `with a replay up to #${stopped.seq}`,
        }
      : snap && armedTitle && sameSession(snap)
        ? { head: `Continue with ${armedTitle}`, note: 'The same session goes on, on another model. Nothing is sent until you send.' }
        : snap?.armedResumes && armedTitle
          ? // A returning agent: nothing is replayed as text (the default note says a fresh start's words).
            {
              head: `Continue with ${armedTitle}`,
              note: 'Its own session is resumed; your message carries only what it missed. Nothing is sent until you send.',
            }
          : undefined;
  return {
    author: `${user.name}@${user.device}`,
    // The account is said where it is not the CLI's own configuration.
    agentTitle: snap?.agentTitle && snap.account ? `${snap.agentTitle} (account ${snap.account})` : snap?.agentTitle,
    armedTitle,
    ...(armedText ? { armedText } : {}),
    ...(snap?.briefPending && snap.agentTitle ? { carries: `Your next message carries the conversation so far to ${snap.agentTitle}.` } : {}),
    queue: snap?.queue ?? [],
    ...(shell ? { shell: true } : {}),
    ...(snap?.sending
      ? { sending: `sending your message to ${snap.agentTitle ?? 'the agent'}: ${inOf(snap.sending)} · keys typed into its pane go in after it` }
      : pasting
        ? { sending: `pasting into the pane: ${inOf(pasting)} · keys typed meanwhile go in after it` }
        : {}),
    status: stopped
      ? 'stopped'
      : snap
        ? snap.status === 'approval'
          ? `needs you: answer ${snap.agentTitle ?? 'the agent'} in its pane`
          : snap.status
        : 'plain shell',
  };
}
