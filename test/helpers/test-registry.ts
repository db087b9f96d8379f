// Drivers and a registry for unit tests of what reads them (the pickers' agent, install and
// model rows, model lists): a driver is a real one, normalized from a definition as the
// registry does it; the registry holds the drivers given and answers only what those modules
// ask of one (drivers, get, settings, detect), as the real registry does, with no plugin
// loading, config or cache behind it.

import type { DriverDefinition, HarnessDriver } from '../../src/plugins/api.js';
import { normalizeDriver } from '../../src/plugins/normalize-driver.js';
import type { Registry } from '../../src/plugins/registry.js';

/**
 * An installed agent `name` (version 1.0.0, title NAME) with `over` applied; `launched`,
 * when given, records each launch (a picker must never launch one).
 */
export function testDriver(name: string, over: Partial<DriverDefinition> = {}, launched?: string[]): HarnessDriver {
  return normalizeDriver({
    name,
    title: name.toUpperCase(),
    detect: async () => ({ installed: true, version: '1.0.0', installHint: `install ${name}` }),
    launch: (opts) => {
      launched?.push(name);
      return { command: name, args: [], cwd: opts.cwd };
    },
    ...over,
  } as DriverDefinition);
}

/** A registry of `drivers`, each with `settings[name]` as its settings (none by default). */
export function registryOf(drivers: HarnessDriver[], settings: Record<string, ReturnType<Registry['settings']>> = {}): Registry {
  const byName = (n: string) => drivers.find((d) => d.name === n)!;
  const subset = {
    drivers: () => drivers,
    get: byName,
    settings: (n: string) => settings[n] ?? {},
    detect: (n: string) => byName(n).detect({ env: {} }),
  };
  return subset as unknown as Registry;
}
