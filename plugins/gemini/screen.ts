// What Gemini CLI 0.61's TUI shows, read as a status: the last resort after the session log and
// terminal signals. Pure.

import type { AgentStatus } from '../../src/plugins/kit.js';

// What gemini 0.61's TUI shows. A confirmation box or the folder-trust dialog first: the
// spinner line may show with it, and an Enter from baton would answer it.
const APPROVAL = /Allow execution of|Apply this change\?|Do you want to proceed\?|Allow once|No, suggest changes|Do you trust the files in this folder\?|Trust folder \(/;
// (Not "Initializing... Prompts will be queued.": that is an info line gemini adds to its
// history when a prompt is typed before it is ready, and it stays on the screen long after.)
const WORKING = /\(esc to cancel/;
const IDLE = /Type your message|\? for shortcuts/;

export function geminiStatusFromScreen(lines: readonly string[]): AgentStatus | undefined {
  const screen = lines.join('\n');
  if (APPROVAL.test(screen)) return 'approval';
  if (WORKING.test(screen)) return 'working';
  if (IDLE.test(screen)) return 'idle';
  return undefined;
}
