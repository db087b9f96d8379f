// What Qwen Code 0.15's TUI shows, read as a status: the last resort after the session log
// and terminal signals (the log says more, sooner). Pure.
// Also what the user left in its input box (inputDraft), read the same way.

import { inputBoxText } from '../../src/plugins/kit.js';

/** Screen heuristics for the TUI (last resort: the log says more, sooner). */
export function qwenStatusFromScreen(lines: readonly string[]): 'idle' | 'working' | 'approval' | undefined {
  const screen = lines.join('\n');
  // A confirmation or the folder-trust dialog: an Enter from baton would answer it.
  if (/Waiting for user confirmation|Allow execution of|Apply this change\?|Yes, allow once|Do you trust this folder\?|Trust folder \(/.test(screen))
    return 'approval';
  // Still starting up: what is typed now may not be taken yet.
  if (/esc to cancel|Initializing\.\.\./i.test(screen)) return 'working';
  if (/Type your message or @path\/to\/file|\? for shortcuts/.test(screen)) return 'idle';
  return undefined;
}

/**
 * What the user left in the input box: the last `>` line (the history's echo, indented, is
 * above it) down to the box's lower rule. Its placeholder in an empty box: "Type your message
 * or @path/to/file".
 */
export function qwenInputDraft(lines: readonly string[]): string | undefined {
  return inputBoxText(lines, { prompt: /^\s*>\s/, end: (l) => /^\s*─{8,}/.test(l), placeholders: [/^Type your message or @path\/to\/file$/] });
}
