// What opencode 1.18's TUI shows, read as a status: the last resort after the session log and
// terminal signals. Pure.
// Also what the user left in its input box (inputDraft), read the same way.

import type { AgentStatus } from '../../src/plugins/kit.js';

// What opencode 1.18's TUI shows: a permission dialog, the footer's interrupt hint while a
// turn runs ("esc interrupt", then "esc again to interrupt"), and the footer alone when idle.
const APPROVAL = /Permission required[\s\S]*(Allow once|Allow always|Reject)/;
const WORKING = /esc (again to )?interrupt/;
const IDLE = /ctrl\+p commands/;

export function opencodeStatusFromScreen(lines: readonly string[]): AgentStatus | undefined {
  const screen = lines.join('\n');
  if (APPROVAL.test(screen)) return 'approval';
  if (WORKING.test(screen)) return 'working';
  if (IDLE.test(screen)) return 'idle';
  return undefined;
}

/** In an empty prompt opencode shows `Ask anything… "an example"` (or `Run a command… "…"` in shell mode). */
const OPENCODE_PLACEHOLDER = /^(Ask anything|Run a command|Enter shell command)(…|\.\.\.)/;

/**
 * What the user left in the prompt: the box is the run of `┃` lines over its lower edge (╹▀),
 * whose last line names the agent and model ("Build · …"); the lines above that are the text.
 * (The history's messages have a `┃` border too, but are not over that edge.)
 */
export function opencodeInputDraft(lines: readonly string[]): string | undefined {
  let edge = -1;
  for (let i = lines.length - 1; i >= 0 && edge < 0; i--) if (/^\s*╹▀/.test(lines[i]!)) edge = i;
  if (edge < 1) return undefined;
  let top = edge;
  while (top > 0 && /^\s*┃/.test(lines[top - 1]!)) top--;
  // At least the text line and the agent's line.
  if (edge - top < 2) return undefined;
  const text = lines
    .slice(top, edge - 1)
    .map((l) => l.replace(/^\s*┃/, '').trim())
    .join('\n')
    .trim();
  return OPENCODE_PLACEHOLDER.test(text) ? '' : text;
}
