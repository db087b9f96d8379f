// `baton agents install NAME`: one agent CLI installed with npm at the version its driver
// was tested with, into baton's own prefix for it (managed-agents.ts), never globally. npm
// runs as an argv array in its own process group (ended by pgid when the install is
// cancelled or times out), from node's own npm when there is one, with the user's npm
// configuration (registry, proxy) but nothing that could redirect the install (a global
// flag, another prefix). It installs into a staging dir beside the final one and moves it
// into place only once the command is there, so a failure (a registry that cannot be
// reached, a cancel) leaves nothing half-installed; the link in agents/bin is made last.
// The prefix's package.json names the packages whose install scripts the CLI needs
// (allowScripts: npm 11 warns on unreviewed ones, and a later npm skips them).
// It never runs a shell string and never updates a CLI the user installed themselves.

import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { BatonError, EXIT, badInput } from '../errors.js';
import { spawnGroup } from '../proc/index.js';
import { findExecutable } from './find-executable.js';
import { installRecipes, managedAgentsDir, managedBinDir, managedPrefix, type InstallRecipe } from './managed-agents.js';

export type InstallPhase = 'checking' | 'downloading' | 'linking' | 'done';

export interface InstallProgress {
  phase: InstallPhase;
  /** Bytes npm has downloaded so far (what its private cache for this install holds). */
  bytes: number;
  /** Bytes of the CLI's own package unpacked so far, and its whole unpacked size (when the registry says). */
  unpacked?: number;
  unpackedSize?: number;
  /** Packages (packuments and tarballs) npm has fetched so far. */
  fetched: number;
  /** The last thing npm fetched, as a package file name (qwen-code-0.15.10.tgz). */
  last?: string;
}

export interface InstallOptions {
  name: string;
  /** Another version than the tested one (the user's choice; `baton agents` then warns). */
  version?: string;
  env: NodeJS.ProcessEnv;
  onProgress?: (p: InstallProgress) => void;
  /** Cancels the install: npm's group is ended and nothing is left in the prefix. */
  signal?: AbortSignal;
  /** Whole install deadline. Default 15 min. */
  timeoutMs?: number;
}

export interface InstallResult {
  recipe: InstallRecipe;
  version: string;
  /** The agent's npm prefix. */
  prefix: string;
  /** The link baton finds the command by (in agents/bin). */
  bin: string;
  /** npm's registry, as npm reported it. */
  registry: string;
}

/** What an install leaves beside the package, for `baton agents` and for a reinstall. */
export const INSTALL_RECORD = 'baton-install.json';

/** The recipe for `name`, or exit 2 naming the agents baton can install. */
export function installRecipe(name: string): InstallRecipe {
  const r = installRecipes().get(name);
  if (!r) {
    throw badInput(`baton cannot install an agent called '${name}'`, `it installs these: ${[...installRecipes().keys()].join(', ')}`);
  }
  return r;
}

/** node's own npm (run with this node), else `npm` on the PATH; undefined when there is none. */
export function npmCommand(env: NodeJS.ProcessEnv): { command: string; args: string[] } | undefined {
  const cli = join(dirname(process.execPath), '../lib/node_modules/npm/bin/npm-cli.js');
  if (existsSync(cli)) return { command: process.execPath, args: [cli] };
  const npm = findExecutable('npm', env);
  return npm ? { command: npm, args: [] } : undefined;
}

// The user's npm settings stay (registry, proxy, certificates); what would install elsewhere
// or globally, or make npm ask or notify, goes. So does allow-scripts from the environment
// (npm's setting for npx and -g): npm refuses it in an install whose prefix has a package.json
// (EALLOWSCRIPTS), and that package.json names the scripts the CLI needs.
const DROP = /^npm_config_(global|prefix|location|save.*|update_notifier|fund|audit|loglevel|progress|cache|yes|dry_run|allow_scripts)$/i;

function npmEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !DROP.test(k)) out[k] = v;
  return { ...out, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', npm_config_progress: 'false' };
}

const NETWORK = /\b(ECONNREFUSED|ENOTFOUND|ETIMEDOUT|EAI_AGAIN|ECONNRESET|ENETUNREACH|EHOSTUNREACH|ERR_SOCKET_TIMEOUT|EPROTO|CERT_\w+|UNABLE_TO_\w+)\b/;

interface NpmRun {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  cancelled: boolean;
}

async function runNpm(
  args: readonly string[],
  opts: { env: NodeJS.ProcessEnv; cwd: string; timeoutMs: number; signal?: AbortSignal; onLine?: (l: string) => void },
): Promise<NpmRun> {
  const npm = npmCommand(opts.env);
  if (!npm)
    throw new BatonError(
      'npm is not available: baton installs agent CLIs with it',
      EXIT.installFailed,
      'install Node.js with its npm (https://nodejs.org), then try again',
    );
  const g = await spawnGroup(npm.command, [...npm.args, ...args], {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeoutMs: opts.timeoutMs,
    graceMs: 1000,
  });
  let cancelled = false;
  const onAbort = () => {
    cancelled = true;
    void g.stop();
  };
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  if (opts.signal?.aborted) onAbort();
  let stdout = '';
  let stderr = '';
  let partial = '';
  g.child.stdout!.on('data', (d: Buffer) => {
    if (stdout.length < 256 * 1024) stdout += d.toString('utf8');
  });
  g.child.stderr!.on('data', (d: Buffer) => {
    const text = partial + d.toString('utf8');
    const lines = text.split('\n');
    partial = lines.pop() ?? '';
    for (const l of lines) opts.onLine?.(l);
    if (stderr.length < 256 * 1024) stderr += d.toString('utf8');
  });
  const closed = new Promise((r) => g.child.once('close', r));
  const info = await g.exited;
  await g.stop(500);
  await Promise.race([closed, new Promise((r) => setTimeout(r, 1000))]);
  opts.signal?.removeEventListener('abort', onAbort);
  if (partial) opts.onLine?.(partial);
  return { code: info.code, stdout, stderr, timedOut: g.timedOut, cancelled };
}

/** npm's own error lines (`npm error ...`), the last few, for a message. */
function npmErrorText(r: NpmRun): string {
  const lines = `${r.stderr}\n${r.stdout}`.split('\n').filter((l) => /^npm (error|ERR!)/.test(l));
  return lines
    .slice(0, 6)
    .map((l) => l.replace(/^npm (error|ERR!)\s*/, ''))
    .filter(Boolean)
    .join('; ');
}

function failure(r: NpmRun, what: string, registry: string): BatonError {
  if (r.cancelled) return new BatonError(`the install of ${what} was cancelled; nothing was installed`, EXIT.cancelled);
  if (r.timedOut)
    return new BatonError(
      `the install of ${what} took too long and was stopped; nothing was installed`,
      EXIT.installFailed,
      'try again on a faster connection',
    );
  const text = npmErrorText(r) || r.stderr.trim().split('\n').slice(-3).join('; ');
  if (NETWORK.test(text) || /network|request to .* failed/i.test(text)) {
    const reason = /request to \S+ failed, reason: ([^;]+)/.exec(text)?.[1] ?? /\bcode (\w+)/.exec(text)?.[1] ?? text;
    return new BatonError(
      `cannot reach the npm registry at ${registry} to install ${what} (${reason.trim()})`,
      EXIT.registryUnreachable,
      "check the network (and npm's proxy settings), or point npm at a registry it can reach (npm config set registry URL); nothing was installed",
    );
  }
  return new BatonError(
    `npm could not install ${what}: ${text || `npm exited with ${r.code}`}`,
    EXIT.installFailed,
    'nothing was installed; see npm’s message',
  );
}

/** `npm view X version dist.unpackedSize --json`'s size, when the registry gave one. */
function unpackedSizeOf(json: string): number | undefined {
  try {
    const v = JSON.parse(json) as unknown;
    const n = v && typeof v === 'object' ? (v as Record<string, unknown>)['dist.unpackedSize'] : undefined;
    return typeof n === 'number' && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

/** Bytes of every file under dir (npm's private cache for this install). */
function bytesUnder(dir: string): number {
  let total = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const n of names) {
    const p = join(dir, n);
    try {
      const st = lstatSync(p);
      total += st.isDirectory() ? bytesUnder(p) : st.size;
    } catch {
      // gone while walking (npm moves its temp files)
    }
  }
  return total;
}

/**
 * Installs agent `name` (its tested version, or `version`) into baton's prefix for it and
 * links its command into agents/bin. A registry that cannot be reached is exit 17, any
 * other npm failure exit 18, a cancel exit 130; in every case the prefix is as it was.
 */
interface Step {
  recipe: InstallRecipe;
  version: string;
  what: string;
  env: NodeJS.ProcessEnv;
  deadline: number;
  signal?: AbortSignal;
}

/**
 * Is the registry there, and does it have this version? npm answers with the user's own
 * registry and proxy settings. Returns the registry (for messages) and the package's unpacked size.
 */
async function askRegistry(step: Step, cwd: string): Promise<{ registry: string; unpackedSize?: number }> {
  const { env, what, recipe } = step;
  const signal = step.signal ? { signal: step.signal } : {};
  const reg = await runNpm(['config', 'get', 'registry'], { env, cwd, timeoutMs: 30_000, ...signal });
  const registry = reg.code === 0 && reg.stdout.trim() ? reg.stdout.trim() : 'https://registry.npmjs.org/';
  const timeoutMs = Math.max(1000, Math.min(60_000, step.deadline - Date.now()));
  const view = await runNpm(['view', what, 'version', 'dist.unpackedSize', '--json', '--fetch-retries=0'], { env, cwd, timeoutMs, ...signal });
  if (view.code !== 0 || !view.stdout.trim()) {
    const text = `${view.stdout}\n${view.stderr}`;
    if (!view.cancelled && !view.timedOut && /E404|ETARGET|No match found/i.test(text) && !NETWORK.test(text)) {
      throw badInput(`the registry at ${registry} has no ${what}`, `baton's driver was tested with ${recipe.version}; leave out --version to install that one`);
    }
    throw failure(view, what, registry);
  }
  const unpackedSize = unpackedSizeOf(view.stdout);
  return { registry, ...(unpackedSize ? { unpackedSize } : {}) };
}

/**
 * The prefix's own package.json: npm reads the allowScripts of the package.json at its
 * --prefix, and only the packages named there may run install scripts once npm skips
 * unreviewed ones (claude-code's postinstall puts its native binary in place, opencode-ai's
 * too). By name: a --version the user picks runs its scripts as the tested one does.
 */
export function prefixManifest(recipe: InstallRecipe): Record<string, unknown> {
  return {
    name: `baton-agent-${recipe.name}`,
    private: true,
    description: `${recipe.package}, installed by baton agents install ${recipe.name}`,
    allowScripts: Object.fromEntries(recipe.allowScripts.map((p) => [p, true])),
  };
}

/** npm install into `staging` with a private cache, reporting bytes and packages as they come. */
async function npmInstall(
  step: Step,
  staging: string,
  registry: string,
  progress: { get: () => InstallProgress; tell: (p: Partial<InstallProgress>) => void },
): Promise<void> {
  const { recipe } = step;
  const cache = join(staging, '.npm-cache');
  const unpacking = join(staging, 'node_modules', recipe.package);
  writeFileSync(join(staging, 'package.json'), `${JSON.stringify(prefixManifest(recipe), null, 2)}\n`, { mode: 0o600 });
  // Download progress: what npm's private cache for this install holds so far, and how much
  // of the CLI's own package is unpacked.
  const poll = setInterval(() => {
    const bytes = bytesUnder(cache);
    const unpacked = bytesUnder(unpacking);
    if (bytes !== progress.get().bytes || unpacked !== progress.get().unpacked) progress.tell({ bytes, unpacked });
  }, 250);
  try {
    const args = ['install', step.what, '--prefix', staging, '--cache', cache, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=http'];
    const r = await runNpm(args, {
      env: step.env,
      cwd: staging,
      timeoutMs: Math.max(1000, step.deadline - Date.now()),
      ...(step.signal ? { signal: step.signal } : {}),
      onLine: (l) => {
        const m = /^npm http fetch GET 200 (\S+\.tgz)\b/.exec(l);
        if (m) progress.tell({ fetched: progress.get().fetched + 1, last: decodeURIComponent(m[1]!.split('/').pop() ?? '') });
      },
    });
    if (r.code !== 0) throw failure(r, step.what, registry);
  } finally {
    clearInterval(poll);
  }
  progress.tell({ phase: 'linking', bytes: bytesUnder(cache) });
  if (!existsSync(join(staging, 'node_modules/.bin', recipe.command)))
    throw new BatonError(`npm installed ${step.what}, but it has no ${recipe.command} command`, EXIT.installFailed, 'nothing was installed');
  rmSync(cache, { recursive: true, force: true });
}

/** The finished staging dir becomes the agent's prefix; the old install (if any) goes only then. */
function moveIntoPlace(env: NodeJS.ProcessEnv, step: Step, staging: string, registry: string): string {
  const record = { package: step.recipe.package, version: step.version, registry, installedAt: new Date().toISOString() };
  writeFileSync(join(staging, INSTALL_RECORD), `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  const prefix = managedPrefix(env, step.recipe.name);
  const old = existsSync(prefix) ? `${staging}.old` : undefined;
  if (old) renameSync(prefix, old);
  renameSync(staging, prefix);
  if (old) rmSync(old, { recursive: true, force: true });
  return prefix;
}

/**
 * Installs agent `name` (its tested version, or `version`) into baton's prefix for it and
 * links its command into agents/bin. A registry that cannot be reached is exit 17, any
 * other npm failure exit 18, a cancel exit 130; in every case the prefix is as it was.
 */
export async function installAgent(opts: InstallOptions): Promise<InstallResult> {
  const recipe = installRecipe(opts.name);
  const version = opts.version ?? recipe.version;
  if (!/^[0-9A-Za-z.+-]+$/.test(version)) throw badInput(`'${version}' is not a version`, `give an exact version, e.g. --version ${recipe.version}`);
  const step: Step = {
    recipe,
    version,
    what: `${recipe.package}@${version}`,
    env: npmEnv(opts.env),
    deadline: Date.now() + (opts.timeoutMs ?? 15 * 60_000),
    ...(opts.signal ? { signal: opts.signal } : {}),
  };
  const root = managedAgentsDir(opts.env);
  mkdirSync(root, { recursive: true, mode: 0o700 });
  chmodSync(root, 0o700);
  let current: InstallProgress = { phase: 'checking', bytes: 0, fetched: 0 };
  const progress = {
    get: () => current,
    tell: (p: Partial<InstallProgress>) => {
      current = { ...current, ...p };
      opts.onProgress?.(current);
    },
  };
  progress.tell({});
  const { registry, unpackedSize } = await askRegistry(step, root);
  progress.tell({ phase: 'downloading', ...(unpackedSize ? { unpackedSize } : {}) });
  const staging = mkdtempSync(join(root, `.install-${recipe.name}-`));
  try {
    chmodSync(staging, 0o700);
    await npmInstall(step, staging, registry, progress);
    const prefix = moveIntoPlace(opts.env, step, staging, registry);
    const bin = linkCommand(opts.env, recipe, prefix);
    progress.tell({ phase: 'done' });
    return { recipe, version, prefix, bin, registry };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** agents/bin/<command> -> ../<name>/node_modules/.bin/<command>, replaced atomically. */
function linkCommand(env: NodeJS.ProcessEnv, recipe: InstallRecipe, prefix: string): string {
  const binDir = managedBinDir(env);
  mkdirSync(binDir, { recursive: true, mode: 0o700 });
  const link = join(binDir, recipe.command);
  const tmp = `${link}.${process.pid}.tmp`;
  rmSync(tmp, { force: true });
  symlinkSync(relative(binDir, join(prefix, 'node_modules/.bin', recipe.command)), tmp);
  renameSync(tmp, link);
  return link;
}

/** What an install recorded about itself, when agent `name` was installed by baton. */
export function installRecord(env: NodeJS.ProcessEnv, name: string): { package: string; version: string } | undefined {
  try {
    const r = JSON.parse(readFileSync(join(managedPrefix(env, name), INSTALL_RECORD), 'utf8')) as { package?: unknown; version?: unknown };
    return typeof r.package === 'string' && typeof r.version === 'string' ? { package: r.package, version: r.version } : undefined;
  } catch {
    return undefined;
  }
}
