// What Gemini CLI 0.61's TUI shows, read as a status: the last resort after the session log and
// terminal signals. Pure.
// Also what the user left in its input box (inputDraft), read the same way.

import { type AgentStatus, inputBoxText } from '../../src/plugins/kit.js';

// What gemini 0.61's TUI shows. A confirmation box or the folder-trust dialog first: the
// spinner line may show with it, and an Enter from baton would answer it.
const APPROVAL =
  /Allow execution of|Apply this change\?|Do you want to proceed\?|Allow once|No, suggest changes|Do you trust the files in this folder\?|Trust folder \(/;
// (Not "Initializing... Prompts will be queued.": that is an info line gemini adds to its
// history when a prompt is typed before it is ready, and it stays on the screen long after.)
const WORKING = /\(esc to cancel/;
const IDLE = /Type your message|\? for shortcuts/;
/** The top of the input area: its hint line, else the input line itself. */
const INPUT_TOP = [/\? for shortcuts/, /Type your message/];
/** A line of the input area's own (a border, a hint) or an empty one. */
const CHROME = /^[\s\u2500-\u259f]*$|\? for shortcuts|to accept edits/;

/**
 * Gemini draws its input box a second or more before it has initialised, and a prompt
 * submitted meanwhile is queued by gemini itself ("Initializing... Prompts will be
 * queued."), not taken. Until it has initialised it draws nothing above the input box (its
 * history, the banner first, is drawn only then), so an input box with nothing above it is
 * a CLI still starting: no verdict. (Later a screen always has the banner or history there;
 * a user who turned both banner and tips off gets idle once baton stops waiting, STARTUP_MS.)
 */
function stillStarting(lines: readonly string[]): boolean {
  for (const anchor of INPUT_TOP) {
    const top = lines.findIndex((l) => anchor.test(l));
    if (top >= 0) return lines.slice(0, top).every((l) => CHROME.test(l));
  }
  return false;
}

export function geminiStatusFromScreen(lines: readonly string[]): AgentStatus | undefined {
  const screen = lines.join('\n');
  if (APPROVAL.test(screen)) return 'approval';
  if (WORKING.test(screen)) return 'working';
  if (IDLE.test(screen)) return stillStarting(lines) ? undefined : 'idle';
  return undefined;
}

/**
 * What the user left in the input box: the last `>` line (the history's echo of earlier
 * messages is boxed the same way, above it) down to the box's lower edge. Its placeholder
 * in an empty box: "Type your message or @path/to/file". (In shell mode, `!`, no verdict.)
 */
export function geminiInputDraft(lines: readonly string[]): string | undefined {
  // (Its edges are rows of half blocks where colour is drawn, blank rows where it is not.)
  return inputBoxText(lines, { prompt: /^\s*>\s/, end: (l) => !l.trim() || /^\s*▀/.test(l), placeholders: [/^Type your message or @path\/to\/file$/] });
}
