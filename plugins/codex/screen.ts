// What Codex 0.171's TUI shows, read as a status: the last resort after the session log and
// terminal signals. Pure.
// Also what the user left in its input box (inputDraft), read the same way.

import { type AgentStatus, inputBoxText } from '../../src/plugins/kit.js';

// What codex 0.171's TUI shows. Approval prompts and the folder-trust dialog first: they also
// show the working footer, and an Enter from baton would answer them. So does a choice list
// ("enter select · esc back"), such as the one /new opens ("Where should the new conversation
// run?"), where an Enter picks the highlighted entry.
const APPROVAL =
  /Would you like to (run|make|grant|send|apply)|Yes, just this once|No, and tell Codex what to do differently|Press enter to confirm or esc to cancel|Trust this folder\?|Trust and continue|Do you trust the contents of this directory|enter select · esc back/;
const WORKING = /esc to interrupt|Waiting for startup/;
const IDLE = /\? for shortcuts|Ask Codex to do anything|for agents ·/;

export function codexStatusFromScreen(lines: readonly string[]): AgentStatus | undefined {
  const screen = lines.join('\n');
  if (APPROVAL.test(screen)) return 'approval';
  if (WORKING.test(screen)) return 'working';
  if (IDLE.test(screen)) return 'idle';
  return undefined;
}

/**
 * What the user left in the composer: the last `›` line (those above are the history's echo)
 * and the lines under it down to the blank line over the footer. Its placeholders in an empty
 * composer are these two (codex 0.171's binary holds no others).
 */
export function codexInputDraft(lines: readonly string[]): string | undefined {
  return inputBoxText(lines, {
    prompt: /^›(\s|$)/,
    end: (l) => !l.trim(),
    placeholders: [/^Ask Codex to do anything$/, /^Ask a follow-up question$/],
  });
}
