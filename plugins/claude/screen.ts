// What Claude Code 2.1's TUI shows, read as a status: the last resort after the session log
// and terminal signals (the log says more, sooner). Pure.

/** Screen heuristics for the TUI (last resort: the log says more, sooner). */
export function claudeStatusFromScreen(lines: readonly string[]): 'idle' | 'working' | 'approval' | undefined {
  const screen = lines.join('\n');
  if (/Do you want to (proceed|make this edit|create|allow)|Esc to cancel · Tab to amend/.test(screen)) return 'approval';
  if (/esc to interrupt/i.test(screen)) return 'working';
  // Not working and its input box is there (empty, or holding a prompt an interrupt put back): idle.
  if (/\? for shortcuts/.test(screen) || lines.some((l) => /^\s*❯(\s|$)/.test(l))) return 'idle';
  return undefined;
}
