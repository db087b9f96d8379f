// A driver as a plugin writes it (DriverDefinition) -> the driver the rest of baton uses
// (HarnessDriver), done once by the registry for every driver it registers, built-in,
// declared or drop-in: defaults filled in (families: none; capabilities: no resume, no
// fork, tabSession and tab true; a launch's env: none), capability fields baton does not know left
// out, and detect()'s result given the tested-range verdict, the one place where a
// version is compared with `testedVersions`. It never changes what a driver does otherwise.

import type { Capabilities, DetectResult, Detection, DriverDefinition, DriverParts, HarnessDriver, LaunchSpec, LaunchSpecDefinition } from './api.js';
import { versionInRange } from './version-range.js';

export const DEFAULT_CAPABILITIES: Readonly<Capabilities> = {
  resume: false,
  fork: false,
  tabSession: true,
  tab: true,
  enterWithPaste: false,
  accounts: false,
  permissionModes: false,
  launchModes: false,
  resumeKeepsModel: false,
};

/**
 * `found` with the verdict on `range`: untestedVersion set (to the range) only when the
 * version is known to be outside it; whatever a driver put there itself is not kept.
 */
export function withTestedRange(found: DetectResult, range: string | undefined): Detection {
  const { untestedVersion: _ignored, ...result } = found as Detection;
  if (range && found.version && versionInRange(found.version, range) === false) return { ...result, untestedVersion: range };
  return result;
}

function completeSpec(spec: LaunchSpecDefinition): LaunchSpec {
  return { ...spec, env: spec.env ?? {} };
}

const isThenable = <T>(v: unknown): v is PromiseLike<T> => typeof (v as { then?: unknown } | null)?.then === 'function';

/** The optional methods, called on the definition itself (a driver that is a class instance keeps its `this`); validate checks the same list (and login, wrapped apart). */
export const METHODS = [
  'ingest',
  'statusFromScreen',
  'inputDraft',
  'headless',
  'readSession',
  'endLeftovers',
  'sessionLogPath',
  'localEndpoint',
  'canFork',
  'carrySession',
  'acp',
  'loginStatus',
  'models',
  'changeModelInTab',
] as const satisfies readonly (keyof DriverParts)[];

/** The HarnessDriver for a definition that passed driverProblems(). */
export function normalizeDriver(def: DriverDefinition): HarnessDriver {
  const caps = def.capabilities ?? {};
  const driver: HarnessDriver = {
    // Own fields a driver adds beyond the contract (codex's endDaemons) stay reachable.
    ...def,
    name: def.name,
    title: def.title,
    families: [...(def.families ?? [])],
    capabilities: {
      resume: caps.resume ?? DEFAULT_CAPABILITIES.resume,
      fork: caps.fork ?? DEFAULT_CAPABILITIES.fork,
      tabSession: caps.tabSession ?? DEFAULT_CAPABILITIES.tabSession,
      tab: caps.tab ?? DEFAULT_CAPABILITIES.tab,
      enterWithPaste: caps.enterWithPaste ?? DEFAULT_CAPABILITIES.enterWithPaste,
      accounts: caps.accounts ?? DEFAULT_CAPABILITIES.accounts,
      permissionModes: caps.permissionModes ?? DEFAULT_CAPABILITIES.permissionModes,
      launchModes: caps.launchModes ?? DEFAULT_CAPABILITIES.launchModes,
      resumeKeepsModel: caps.resumeKeepsModel ?? DEFAULT_CAPABILITIES.resumeKeepsModel,
    },
    detect: async (opts) => withTestedRange(await def.detect(opts), def.testedVersions),
    launch: (opts) => {
      const spec = def.launch(opts);
      return isThenable<LaunchSpecDefinition>(spec) ? Promise.resolve(spec).then(completeSpec) : completeSpec(spec);
    },
  };
  if (typeof def.login === 'function') {
    const login = def.login.bind(def);
    driver.login = (opts) => completeSpec(login(opts));
  }
  const methods = driver as unknown as Record<string, unknown>;
  for (const key of METHODS) {
    const fn = (def as unknown as Record<string, unknown>)[key];
    if (typeof fn === 'function') methods[key] = fn.bind(def);
  }
  return driver;
}
