// The registry as the command line sees it: loaded once per command with the user's
// drop-ins and `--plugins` dirs, and asked for a target's title and whether it can resume.

import { loadRegistry, type Registry } from '../plugins/registry.js';
import type { BriefTarget } from '../conversation/prepare-brief.js';
import type { Io } from './io.js';
import { pluginDirs } from './plugin-dirs.js';

export interface AgentCatalog {
  registry: Registry;
  /** Display titles by driver name. */
  titles: Record<string, string>;
  /** A brief target for driver `name` (an unknown name is exit 2 listing the known ones). */
  target(name: string, model?: string): BriefTarget;
}

export async function agentCatalog(io: Io): Promise<AgentCatalog> {
  const registry = await loadRegistry({ env: io.env, pluginDirs: pluginDirs() });
  for (const p of registry.problems) io.err(`baton: warning: ${p.path}: ${p.message}\n`);
  const titles: Record<string, string> = {};
  for (const d of registry.drivers()) titles[d.name] = d.title;
  return {
    registry,
    titles,
    target(name, model) {
      const d = registry.get(name);
      const m = model ?? registry.settings(name).model ?? d.defaultModel ?? 'default';
      return { harness: d.name, model: m, title: d.title, canResume: d.capabilities.resume, canFork: d.capabilities.fork };
    },
  };
}
