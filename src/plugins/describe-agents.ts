// What `baton agents [--json]` shows: one row per agent (installed? version, login hint, a
// warning when the version is outside what the driver was tested with, the install command
// when missing), its baton view (`<name>-view`, the same agent drawn by baton) named on the
// agent's row rather than listed again as if it were another agent. Detection runs for all
// drivers at once, each under a deadline, so one hanging CLI cannot hang the listing. Reads
// only; installs nothing.

import { VIEW_SUFFIX } from './acp-view-driver.js';
import { installRecipes } from './managed-agents.js';
import type { Registry, DriverOrigin } from './registry.js';

export interface AgentRow {
  name: string;
  title: string;
  origin: DriverOrigin['kind'];
  /** The file the driver (or its declaration) came from. */
  source: string;
  families: string[];
  installed: boolean;
  version?: string;
  /** The executable that would run. */
  path?: string;
  loginHint?: string;
  installHint?: string;
  testedVersions?: string;
  /** Set when the installed version is outside the tested range. */
  warning?: string;
  /** Detection itself failed (a bug in the driver, or a timeout). */
  error?: string;
  /** baton's view of this agent (a tab drawn by baton over its ACP session): the driver to name for it. */
  view?: { name: string; title: string };
}

/**
 * One row per agent, its view on its row (a view detects as its agent does). Detection uses
 * the registry's environment (and its cache) unless `env` is given; each driver gets
 * `timeoutMs` (default 10 s) before it is reported as an error.
 */
export async function describeAgents(registry: Registry, env?: NodeJS.ProcessEnv, opts: { timeoutMs?: number } = {}): Promise<AgentRow[]> {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const drivers = registry.drivers();
  const names = new Set(drivers.map((d) => d.name));
  const viewOf = (name: string) => drivers.find((d) => d.name === `${name}${VIEW_SUFFIX}`);
  // A view whose agent is listed is said on the agent's row.
  const isListedView = (name: string) => name.endsWith(VIEW_SUFFIX) && names.has(name.slice(0, -VIEW_SUFFIX.length));
  return Promise.all(
    drivers
      .filter((d) => !isListedView(d.name))
      .map(async (d): Promise<AgentRow> => {
        const origin = registry.origin(d.name)!;
        const row: AgentRow = { name: d.name, title: d.title, origin: origin.kind, source: origin.path, families: [...d.families], installed: false };
        if (d.testedVersions) row.testedVersions = d.testedVersions;
        let timer: NodeJS.Timeout | undefined;
        try {
          const r = await Promise.race([
            env ? Promise.resolve().then(() => d.detect({ env })) : registry.detect(d.name),
            new Promise<never>((_, reject) => {
              timer = setTimeout(() => reject(new Error(`detection took longer than ${timeoutMs / 1000} s`)), timeoutMs);
            }),
          ]);
          row.installed = r.installed;
          if (r.version) row.version = r.version;
          if (r.path) row.path = r.path;
          if (r.loginHint) row.loginHint = r.loginHint;
          if (!r.installed)
            row.installHint =
              origin.kind === 'builtin' && installRecipes().has(d.name) ? `baton agents install ${d.name} (or ${r.installHint})` : r.installHint;
          if (r.untestedVersion) {
            row.warning = `version ${r.version ?? '?'} is outside the tested range (${d.testedVersions ?? r.untestedVersion}); it may work, but its logs may not be read correctly`;
          }
        } catch (err) {
          row.error = (err as Error).message ?? String(err);
        } finally {
          clearTimeout(timer);
        }
        const view = viewOf(d.name);
        if (view) row.view = { name: view.name, title: view.title };
        return row;
      }),
  );
}

/** The plain-text table `baton agents` prints. */
export function formatAgents(rows: readonly AgentRow[]): string {
  const width = Math.max(4, ...rows.map((r) => r.name.length));
  const lines: string[] = [];
  for (const r of rows) {
    const state = r.error ? `error: ${r.error}` : r.installed ? `installed ${r.version ?? '(version unknown)'}` : 'not installed';
    lines.push(`${r.name.padEnd(width)}  ${r.title} — ${state}${r.origin === 'builtin' ? '' : ` [${r.origin}: ${r.source}]`}`);
    if (r.warning) lines.push(`${''.padEnd(width)}  warning: ${r.warning}`);
    if (r.installed && r.loginHint) lines.push(`${''.padEnd(width)}  login: ${r.loginHint}`);
    if (!r.installed && r.installHint) lines.push(`${''.padEnd(width)}  install: ${r.installHint}`);
    if (r.view) lines.push(`${''.padEnd(width)}  view: ${r.view.name} (its ACP session drawn by baton in a tab)`);
  }
  return lines.join('\n');
}
