// Everything baton knows and does about processes, in one place for src, drivers (through
// src/plugins/kit.ts) and tests: what /proc says about a process (stat.ts), whether it is
// alive (alive.ts), who belongs to a group or session (members.ts), where a process runs
// and what it holds open (places.ts), signalling and ending groups and pids (signal.ts),
// and children spawned as whole groups (spawn-group.ts).
// A leaf: it imports nothing of baton's, so every layer may use it. It never finds or
// ends a process by its name.

export { alive, exists, groupExists } from './alive.js';
export { allPids, childrenOf, groupAlive, groupMembers, processes, sessionGroups } from './members.js';
export {
  cmdlineBytes,
  cmdlineOf,
  cwdOf,
  environOf,
  exeOf,
  linkPath,
  openFiles,
  processesUnder,
  splitNul,
  underDir,
  type OpenFile,
  type PlaceKind,
} from './places.js';
export { endGroup, endPids, signalGroup, signalPid, waitUntil, type EndPidsOptions } from './signal.js';
export { ProcessGroup, runGroup, spawnGroup, type ExitInfo, type GroupSpawnOptions, type RunResult } from './spawn-group.js';
export { TICKS_PER_SECOND, bootTime, isZombie, parseBootTime, parseResidentKb, parseStat, readStat, residentKb, startedAtMs, type ProcStat } from './stat.js';
