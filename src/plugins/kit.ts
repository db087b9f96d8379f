// The one door from a driver into baton: everything a harness driver may use, built-in or
// drop-in. Built-in drivers (plugins/<cli>/) import from this module and nothing else of
// baton's; a drop-in that exports a factory `(kit) => driver` receives this module whole, so
// it needs no path into baton's install and can build on the same pieces the built-ins do:
// the contract and its errors, finding a CLI and its version, the handoff prompt, following
// and parsing a session log, running a headless process in its own group, ACP, typing a
// command into a CLI's own TUI, and what baton knows about processes (src/proc: group
// members, open files, ending by pid).
// It re-exports only; it holds no state and grants nothing a plugin could not do itself.

export * from './api.js';
export { BatonError, EXIT, badInput, type ExitCode } from '../errors.js';
export { accountDir, accountsRoot, checkAccountName, configBase, DEFAULT_ACCOUNT, ensureAccountDir } from './account-dir.js';
export { acpDriver, runAcpTurn, type AcpAgentDecl, type AcpTurnOptions } from './acp-harness.js';
export { acpForkSession } from './acp-fork-session.js';
export { acpModelList, acpModels, modelsFromSession } from './acp-models.js';
export { detectCli, type CliFacts } from './detect-cli.js';
export { findExecutable, probeVersion } from './find-executable.js';
export { ambiguousLogs, firstNewLog, tailLogOnceFound, type FoundLogTail, type LogHeader, type LogSearch } from './found-log-tail.js';
export { briefAndMessage } from './handoff-file.js';
export { cannotStartCli, lastLines, resumeHonoured, runHeadlessProcess, type HeadlessExit, type HeadlessProcessOptions } from './headless-process.js';
export { readJsonlFile } from './json-lines.js';
export { hasText, loginFromEnv, readJsonObject } from './login-files.js';
export { tailJsonl, tailLines, type LogTail, type TailJsonlOptions, type TailLinesOptions } from './log-tail.js';
export {
  alive,
  bootTime,
  endPids,
  groupMembers,
  isZombie,
  openFiles,
  processesUnder,
  readStat,
  runGroup,
  spawnGroup,
  startedAtMs,
  type EndPidsOptions,
  type GroupSpawnOptions,
  type OpenFile,
  type ProcStat,
  type RunResult,
} from '../proc/index.js';
export { followSessionLog, type LogParser, type SessionLogPlace } from './session-log-follower.js';
export { followSessionSwitches, type SessionSwitches } from './session-switch-follower.js';
export { importSessionLog } from './session-log-import.js';
export { cachedModels } from './model-cache.js';
export { unboundIngest } from './unbound-ingest.js';
export { inputBoxText, type InputBoxShape } from './input-box.js';
export { appendedSince, fileSize, jsonRecords, SAFE_MODEL_NAME, stillInInput, typeCommand, type TypedCommand } from './typed-command.js';
export { addUsage } from './usage.js';
export { PLAN_INSTRUCTION, turnMode, withPlanInstruction } from './plan-mode.js';
export { extractVersion } from './version-range.js';
export { watchPath, type PathWatcher } from './watch-path.js';
