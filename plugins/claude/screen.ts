// What Claude Code 2.1's TUI shows, read as a status: the last resort after the session log
// and terminal signals (the log says more, sooner). Pure.
// Also what the user left in its input box (inputDraft), read the same way.

import { inputBoxText } from '../../src/plugins/kit.js';

// What needs the user, whatever else shows: a permission prompt ("Do you want to proceed?",
// "Esc to cancel · Tab to amend"), the folder-trust dialog and the custom-API-key question
// ("Enter to confirm · Esc to cancel"), an AskUserQuestion question ("Enter to select ·
// ↑/↓ to navigate"). An Enter from baton would answer any of them.
const NEEDS_USER =
  /Do you want to (proceed|make this edit|create|allow|use this API key)|Esc to cancel · Tab to amend|Enter to confirm · Esc to|Enter to select · |Yes, I trust this folder/;

/** Screen heuristics for the TUI (last resort: the log says more, sooner). */
export function claudeStatusFromScreen(lines: readonly string[]): 'idle' | 'working' | 'approval' | undefined {
  const screen = lines.join('\n');
  if (NEEDS_USER.test(screen)) return 'approval';
  if (/esc to interrupt/i.test(screen)) return 'working';
  // Not working and its input box is there (empty, or holding a prompt an interrupt put back): idle.
  if (/\? for shortcuts/.test(screen) || lines.some((l) => /^\s*❯(\s|$)/.test(l))) return 'idle';
  return undefined;
}

/**
 * What the user left in the input box: the last `❯` line (those above are the history's echo)
 * and the lines under it down to the box's lower rule. Claude shows a suggestion (`Try "…"`)
 * in an empty box.
 */
export function claudeInputDraft(lines: readonly string[]): string | undefined {
  return inputBoxText(lines, { prompt: /^\s*❯(\s|$)/, end: (l) => /^\s*─{8,}/.test(l), placeholders: [/^Try "/] });
}
