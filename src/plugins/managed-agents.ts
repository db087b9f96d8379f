// Where `baton agents install` puts agent CLIs, and how baton then finds them: one npm
// prefix per agent under `$XDG_DATA_HOME/baton/agents/<name>` (else
// ~/.local/share/baton/agents), 0700, and one directory of links to their commands,
// `agents/bin`. withManagedAgents() appends that directory to the PATH of the environment
// baton gives everything it runs (detection, launches, headless turns, the server's tabs):
// appended, so a CLI the user installed on their own PATH always wins over baton's copy.
// It never installs or removes anything (agent-install.ts does), and reads no registry.

import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { packageRoot } from '../package-root.js';

/** `$XDG_DATA_HOME/baton/agents`, else `~/.local/share/baton/agents`. */
export function managedAgentsDir(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_DATA_HOME;
  const base = xdg?.startsWith('/') ? xdg : join(env.HOME || homedir(), '.local/share');
  return join(base, 'baton', 'agents');
}

/** The directory holding a link to each installed agent's command. */
export function managedBinDir(env: NodeJS.ProcessEnv): string {
  return join(managedAgentsDir(env), 'bin');
}

/** The npm prefix of agent `name`. */
export function managedPrefix(env: NodeJS.ProcessEnv, name: string): string {
  return join(managedAgentsDir(env), name);
}

/**
 * `env` with the managed bin dir at the end of PATH (once: a child baton given this env
 * again leaves it as it is). The same object when it is there already.
 */
export function withManagedAgents(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const bin = managedBinDir(env);
  const parts = (env.PATH ?? '').split(delimiter).filter(Boolean);
  if (parts.includes(bin)) return env;
  return { ...env, PATH: [...parts, bin].join(delimiter) };
}

/** How one agent CLI is installed (config/agent-installs.json). */
export interface InstallRecipe {
  /** The driver's name (claude, codex, ...). */
  name: string;
  /** Its npm package. */
  package: string;
  /** The exact version the driver was tested with. */
  version: string;
  /** The command the package puts in its bin. */
  command: string;
  /** What the CLI needs before it can run a turn: a login, an API key, a local server. */
  needs: string;
  /** Packages of its tree whose install scripts must run (npm's allowScripts, by name). */
  allowScripts: string[];
}

let recipes: Map<string, InstallRecipe> | undefined;

/** Every agent baton can install, by driver name (read once from config/agent-installs.json). */
export function installRecipes(): ReadonlyMap<string, InstallRecipe> {
  if (recipes) return recipes;
  const raw = JSON.parse(readFileSync(join(packageRoot(), 'config/agent-installs.json'), 'utf8')) as Record<string, unknown>;
  recipes = new Map();
  for (const [name, v] of Object.entries(raw)) {
    if (name.startsWith('$') || !v || typeof v !== 'object') continue;
    const r = v as Record<string, unknown>;
    const allowScripts = Array.isArray(r.allowScripts) ? r.allowScripts.filter((x): x is string => typeof x === 'string') : [];
    if ([r.package, r.version, r.command, r.needs].every((x) => typeof x === 'string'))
      recipes.set(name, { name, package: String(r.package), version: String(r.version), command: String(r.command), needs: String(r.needs), allowScripts });
  }
  return recipes;
}
