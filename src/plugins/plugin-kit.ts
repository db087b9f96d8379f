// What a drop-in gets from baton without knowing where baton is installed: a drop-in may
// export a factory `(kit) => driver` instead of a driver, and build on these helpers (the
// generic ACP harness above all). Built-in drivers import the same helpers directly. The
// kit is a fixed set of functions; it carries no state and grants nothing the plugin
// could not do itself.

import { ARGV_PROMPT_LIMIT } from './api.js';
import { BatonError, EXIT } from '../errors.js';
import { acpDriver, runAcpTurn } from './acp-harness.js';
import { findExecutable, probeVersion } from './find-executable.js';
import { tailJsonl, tailLines } from './log-tail.js';
import { runGroup, spawnGroup } from './process-group.js';
import { extractVersion, versionInRange } from './version-range.js';

export const pluginKit = Object.freeze({
  acpDriver,
  runAcpTurn,
  tailJsonl,
  tailLines,
  spawnGroup,
  runGroup,
  findExecutable,
  probeVersion,
  extractVersion,
  versionInRange,
  BatonError,
  EXIT,
  ARGV_PROMPT_LIMIT,
});

export type PluginKit = typeof pluginKit;
