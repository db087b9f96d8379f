// Which session a running Claude Code process is in now, as the process itself says: Claude
// Code 2.x keeps one file per process, <config dir>/sessions/<pid>.json, holding the pid, the
// session it is in (rewritten when /clear or /resume moves it to another), and the process's
// start time in clock ticks (procStart, /proc/<pid>/stat field 22), which tells a file left
// by an earlier process with the same pid from this one's. Linux only; it only reads.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { groupMembers, readStat } from '../../src/plugins/kit.js';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The session process `pid` says it is in, if its file is its own (not a reused pid's). */
function sessionOf(configDir: string, pid: number): string | undefined {
  let rec: unknown;
  try {
    rec = JSON.parse(readFileSync(join(currentClaudeSession.dir(configDir), `${pid}.json`), 'utf8'));
  } catch {
    return undefined;
  }
  if (!isObj(rec) || typeof rec.sessionId !== 'string' || rec.pid !== pid) return undefined;
  // A headless claude run by a tool in the tab (claude -p) keeps its own file: not the tab's.
  if (rec.kind !== undefined && rec.kind !== 'interactive') return undefined;
  const stat = readStat(pid);
  if (!stat || String(rec.procStart) !== String(stat.startTicks)) return undefined;
  return rec.sessionId;
}

/**
 * The session the interactive Claude Code in process group `group` is in: the group leader's
 * (the program the tab started), else the one interactive member's; undefined when none says,
 * or more than one does differently.
 */
export function currentClaudeSession(configDir: string, group: number): string | undefined {
  const leader = sessionOf(configDir, group);
  if (leader) return leader;
  const found = new Set<string>();
  for (const pid of groupMembers(group)) {
    const s = pid === group ? undefined : sessionOf(configDir, pid);
    if (s) found.add(s);
  }
  return found.size === 1 ? [...found][0] : undefined;
}

/** Where Claude Code keeps its per-process files. */
currentClaudeSession.dir = (configDir: string): string => join(configDir, 'sessions');
