// The registry: every driver baton knows, by name. Built-ins (modules in plugins/), the
// ACP agents declared in config/harness-registry.json (and the user's overlay of it in
// $XDG_CONFIG_HOME/baton), and drop-ins (the user's plugin dir, then each --plugins DIR),
// in that order. Model families map to drivers in preference order: the first installed
// wins. A broken plugin is a problem naming its file and the rest still load (a drop-in
// that does not finish loading in time too, see drop-in-load.ts); two plugins
// with one name is a problem naming both files, and the later one is not registered.
// With `watch`, drop-ins and the user's config are reloaded while baton runs and onChange
// says what changed. Every driver enters through normalizeDriver(): the rest
// of baton sees complete values, and a detection carries the tested-range verdict,
// computed here once for every driver. It never runs a turn: `detect()` is as far as it goes.

import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BatonError, EXIT, badInput } from '../errors.js';
import { Emitter, type Event } from '../lifecycle/index.js';
import type { Detection, DriverDefinition, HarnessDriver } from './api.js';
import { acpDriver } from './acp-harness.js';
import { acpViewDriver } from './acp-view-driver.js';
import { type LocalFamilyRule, overlayLocalRules } from './local-family.js';
import { loadDropIns, pluginLoadTimeout } from './drop-in-load.js';
import { builtinDriverFiles, configDir, defaultPluginDir, loadPluginFile, watchPluginDirs, type LoadedModule, type PluginProblem } from './loader.js';
import { normalizeDriver } from './normalize-driver.js';
import { readRegistryConfig, type DriverDefaults, type FamilyDecl, type RegistryConfig } from './validate.js';

export type { PluginProblem } from './loader.js';
export type { AcpAgentDecl, DriverDefaults, FamilyDecl } from './validate.js';

export interface LoadRegistryOptions {
  env: NodeJS.ProcessEnv;
  /** `--plugins DIR` directories, loaded after the user's own plugin dir. */
  pluginDirs?: string[];
  /** Follow drop-in dirs and the user's config with chokidar and reload on change (the TUI). Default false. */
  watch?: boolean;
  /** Where built-in driver modules live; false for none. Default: baton's plugins/. */
  builtinDir?: string | false;
  /** The bundled registry config. Default: baton's config/harness-registry.json. */
  configPath?: string;
}

export type DriverOrigin = { kind: 'builtin' | 'config' | 'drop-in'; path: string };

export interface RegistryChange {
  added: string[];
  removed: string[];
  /** Reloaded from a file that changed (or whose declaration changed). */
  updated: string[];
  problems: readonly PluginProblem[];
}

export interface FamilyResolution {
  family: string;
  driver: HarnessDriver;
  detected: Detection;
  /** Every candidate in preference order, and whether it was found installed. */
  tried: { name: string; installed: boolean }[];
}

export interface Registry {
  drivers(): HarnessDriver[];
  names(): string[];
  has(name: string): boolean;
  /** The driver called `name`; an unknown name is a BatonError (exit 2) listing the known ones. */
  get(name: string): HarnessDriver;
  origin(name: string): DriverOrigin | undefined;
  /** Broken plugins, duplicate names and config mistakes, each naming its file. */
  readonly problems: readonly PluginProblem[];
  readonly families: readonly FamilyDecl[];
  /** The `local` rules (bundled, then the user's first): which harness runs a local model. */
  readonly localRules: readonly LocalFamilyRule[];
  /** Config defaults for a driver (extra args, model, env); empty when none. */
  settings(name: string): DriverDefaults;
  /**
   * `detect()` of a driver, with `untestedVersion` set when the version found is outside the
   * driver's `testedVersions`; cached until the registry changes or `refresh` is set.
   */
  detect(name: string, opts?: { refresh?: boolean }): Promise<Detection>;
  /** The family a model name belongs to (by family name or `match` pattern). */
  familyOf(model: string): FamilyDecl | undefined;
  /**
   * The driver for a model: its family's drivers in preference order, then drivers that
   * list the family themselves; the first installed wins. BatonError exit 2 for a model no
   * family matches, exit 3 when none of the candidates is installed.
   */
  resolveFamily(model: string): Promise<FamilyResolution>;
  /** Drivers were added, removed or updated, or the problems changed (a reload). */
  readonly onChange: Event<RegistryChange>;
  /** Reload drop-ins and config now (what the watcher does on a change). */
  reload(): Promise<RegistryChange>;
  dispose(): Promise<void>;
}

const here = fileURLToPath(new URL('.', import.meta.url));
const fromSource = import.meta.url.endsWith('.ts');

// src/plugins -> ../../X in the source tree; dist/src/plugins -> ../../X (built) or ../../../X (package files).
function bundled(rel: string): string | undefined {
  for (const up of ['../..', '../../..']) {
    const p = resolve(here, up, rel);
    if (existsSync(p)) return p;
  }
  return undefined;
}

function defaultBuiltinDir(): string {
  return resolve(here, '../../plugins');
}

function readConfigFile(path: string, problems: PluginProblem[]): RegistryConfig | undefined {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    problems.push({ path, message: `cannot read: ${(err as Error).message.split('\n')[0]}` });
    return undefined;
  }
  const { config, problems: p } = readRegistryConfig(json);
  for (const message of p) problems.push({ path, message });
  return config;
}

function globToRegExp(pattern: string): RegExp {
  const body = pattern
    .split('*')
    .map((s) => s.replace(/[.+?^${}()|[\]\\/]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`, 'i');
}

interface Entry {
  driver: HarnessDriver;
  origin: DriverOrigin;
  /** What the driver came from, to tell an unchanged reload from an update. */
  stamp: unknown;
}

class DriverRegistry implements Registry {
  private entries = new Map<string, Entry>();
  private builtins: LoadedModule[] = [];
  private config: RegistryConfig = { families: [], local: [], defaults: {}, acpAgents: [] };
  private problemList: PluginProblem[] = [];
  private detections = new Map<string, Promise<Detection>>();
  private readonly changeEmitter = new Emitter<RegistryChange>();
  readonly onChange: Event<RegistryChange> = this.changeEmitter.event;
  private watcher: { ready: Promise<void>; close(): Promise<void> } | undefined;
  private reloading: Promise<RegistryChange> | undefined;
  private readonly env: NodeJS.ProcessEnv;
  private readonly dropInDirs: string[];
  private readonly userConfigPath: string;
  private readonly bundledConfigPath: string | undefined;

  constructor(private readonly opts: LoadRegistryOptions) {
    this.env = opts.env;
    const seen = new Set<string>();
    this.dropInDirs = [defaultPluginDir(opts.env), ...(opts.pluginDirs ?? [])]
      .map((d) => resolve(d))
      .filter((d) => {
        if (seen.has(d)) return false;
        seen.add(d);
        return true;
      });
    this.userConfigPath = join(configDir(opts.env), 'harness-registry.json');
    this.bundledConfigPath = opts.configPath ?? bundled('config/harness-registry.json');
  }

  async init(): Promise<void> {
    const dir = this.opts.builtinDir === undefined ? defaultBuiltinDir() : this.opts.builtinDir;
    if (dir) {
      const files = builtinDriverFiles(dir, fromSource ? ['.ts'] : ['.js', '.mjs']);
      this.builtins = [];
      for (const file of files) this.builtins.push(await loadPluginFile(file));
    }
    await this.reload();
    if (this.opts.watch) {
      this.watcher = watchPluginDirs(this.dropInDirs, () => void this.reload(), { files: [this.userConfigPath] });
      await this.watcher.ready;
    }
  }

  get problems(): readonly PluginProblem[] {
    return this.problemList;
  }

  get families(): readonly FamilyDecl[] {
    return this.config.families;
  }

  get localRules(): readonly LocalFamilyRule[] {
    return this.config.local;
  }

  drivers(): HarnessDriver[] {
    return [...this.entries.values()].map((e) => e.driver);
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  get(name: string): HarnessDriver {
    const e = this.entries.get(name);
    if (!e) {
      const known = this.names();
      throw badInput(`unknown agent "${name}"`, known.length ? `known agents: ${known.join(', ')}` : 'no agents are registered; see `baton agents`');
    }
    return e.driver;
  }

  origin(name: string): DriverOrigin | undefined {
    return this.entries.get(name)?.origin;
  }

  settings(name: string): DriverDefaults {
    return this.config.defaults[name] ?? {};
  }

  detect(name: string, opts: { refresh?: boolean } = {}): Promise<Detection> {
    const driver = this.get(name);
    let p = opts.refresh ? undefined : this.detections.get(name);
    if (!p) {
      p = Promise.resolve().then(() => driver.detect({ env: this.env }));
      this.detections.set(name, p);
      p.catch(() => this.detections.delete(name));
    }
    return p;
  }

  familyOf(model: string): FamilyDecl | undefined {
    const m = model.toLowerCase();
    return (
      this.config.families.find((f) => f.name.toLowerCase() === m) ?? this.config.families.find((f) => f.match.some((pat) => globToRegExp(pat).test(model)))
    );
  }

  async resolveFamily(model: string): Promise<FamilyResolution> {
    const fam = this.familyOf(model);
    if (!fam) {
      throw badInput(
        `no agent family matches the model "${model}"`,
        `families: ${this.config.families.map((f) => f.name).join(', ') || 'none'}; or name the agent with --agent`,
      );
    }
    const names = fam.drivers.filter((n) => this.has(n));
    for (const d of this.drivers()) if (d.families.includes(fam.name) && !names.includes(d.name)) names.push(d.name);
    const tried: FamilyResolution['tried'] = [];
    let firstMissing: Detection | undefined;
    for (const name of names) {
      let detected: Detection;
      try {
        detected = await this.detect(name);
      } catch {
        tried.push({ name, installed: false });
        continue;
      }
      tried.push({ name, installed: detected.installed });
      if (detected.installed) return { family: fam.name, driver: this.get(name), detected, tried };
      firstMissing ??= detected;
    }
    throw new BatonError(
      `no installed agent serves the ${fam.name} family (model "${model}")${names.length ? `; tried ${names.join(', ')}` : ''}`,
      EXIT.agentNotInstalled,
      firstMissing ? `install ${tried[0]!.name}: ${firstMissing.installHint}` : 'no driver serves this family; see `baton agents`',
    );
  }

  reload(): Promise<RegistryChange> {
    // One reload at a time; a request during one runs right after it.
    const run = async () => this.doReload();
    this.reloading = (this.reloading ?? Promise.resolve()).catch(() => undefined).then(run) as Promise<RegistryChange>;
    return this.reloading;
  }

  private loadConfig(problems: PluginProblem[]): { config: RegistryConfig; declPaths: Map<string, string> } {
    const config: RegistryConfig = { families: [], local: [], defaults: {}, acpAgents: [] };
    const declPaths = new Map<string, string>();
    const layers: [string, RegistryConfig | undefined][] = [];
    if (this.bundledConfigPath) layers.push([this.bundledConfigPath, readConfigFile(this.bundledConfigPath, problems)]);
    if (existsSync(this.userConfigPath)) layers.push([this.userConfigPath, readConfigFile(this.userConfigPath, problems)]);
    // Later layers (the user's) win: their families go first, their defaults and agent
    // declarations replace the bundled ones of the same name.
    for (const [path, layer] of layers) {
      if (!layer) continue;
      const names = new Set(layer.families.map((f) => f.name));
      config.families = [...layer.families, ...config.families.filter((f) => !names.has(f.name))];
      config.local = overlayLocalRules(config.local, layer.local);
      for (const [k, v] of Object.entries(layer.defaults)) config.defaults[k] = { ...config.defaults[k], ...v };
      for (const a of layer.acpAgents) {
        config.acpAgents = [...config.acpAgents.filter((x) => x.name !== a.name), a];
        declPaths.set(a.name, path);
      }
    }
    return { config, declPaths };
  }

  private async doReload(): Promise<RegistryChange> {
    const problems: PluginProblem[] = [];
    const { config, declPaths } = this.loadConfig(problems);
    const candidates: Entry[] = [];
    const add = (def: DriverDefinition, origin: DriverOrigin, stamp: unknown) => candidates.push({ driver: normalizeDriver(def), origin, stamp });
    for (const m of this.builtins) {
      if (m.problem) problems.push(m.problem);
      else if (m.driver) add(m.driver, { kind: 'builtin', path: m.path }, m.driver);
    }
    for (const decl of config.acpAgents) add(acpDriver(decl), { kind: 'config', path: declPaths.get(decl.name)! }, JSON.stringify(decl));
    const timeout = pluginLoadTimeout(this.env);
    if (timeout.problem) problems.push(timeout.problem);
    for (const m of await loadDropIns(this.dropInDirs, { timeoutMs: timeout.ms })) {
      if (m.problem) problems.push(m.problem);
      else add(m.driver!, { kind: 'drop-in', path: m.path }, m.url);
    }
    // baton's own view beside every agent that can be run over ACP (its own TUI, if any, stays).
    for (const c of [...candidates]) if (c.driver.acp) add(acpViewDriver(c.driver, this.opts.pluginDirs ?? []), c.origin, c.stamp);
    const next = new Map<string, Entry>();
    for (const c of candidates) {
      const first = next.get(c.driver.name);
      if (first) {
        problems.push({
          path: c.origin.path,
          paths: [first.origin.path, c.origin.path],
          message: `two plugins are named "${c.driver.name}": ${first.origin.path} and ${c.origin.path}; only the first was loaded`,
        });
        continue;
      }
      next.set(c.driver.name, c);
    }
    const prev = this.entries;
    const change: RegistryChange = {
      added: [...next.keys()].filter((n) => !prev.has(n)),
      removed: [...prev.keys()].filter((n) => !next.has(n)),
      updated: [...next.keys()].filter((n) => prev.has(n) && !sameEntry(prev.get(n)!, next.get(n)!)),
      problems,
    };
    // Keep the old driver objects where nothing changed, so holders of them stay current.
    for (const [n, e] of next) if (prev.has(n) && sameEntry(prev.get(n)!, e)) next.set(n, prev.get(n)!);
    this.entries = next;
    this.config = config;
    this.problemList = problems;
    for (const n of [...change.removed, ...change.updated]) this.detections.delete(n);
    if (change.added.length || change.removed.length || change.updated.length || !sameProblems(problems, this.lastProblems)) {
      this.lastProblems = problems;
      this.changeEmitter.fire(change);
    }
    return change;
  }

  private lastProblems: PluginProblem[] = [];

  async dispose(): Promise<void> {
    this.changeEmitter.dispose();
    await this.watcher?.close();
    this.watcher = undefined;
    await this.reloading?.catch(() => undefined);
  }
}

function sameEntry(a: Entry, b: Entry): boolean {
  return a.origin.path === b.origin.path && a.origin.kind === b.origin.kind && a.stamp === b.stamp;
}

function sameProblems(a: readonly PluginProblem[], b: readonly PluginProblem[]): boolean {
  return a.length === b.length && a.every((p, i) => p.path === b[i]!.path && p.message === b[i]!.message);
}

/** Load every driver: built-ins, config-declared ACP agents, then drop-ins. */
export async function loadRegistry(opts: LoadRegistryOptions): Promise<Registry> {
  const r = new DriverRegistry(opts);
  await r.init();
  return r;
}
