// What opencode 1.18's TUI shows, read as a status: the last resort after the session log and
// terminal signals. Pure.

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
