// Shape checks for what baton loads from outside its own code: drivers (built-in and
// drop-in), ACP agent declarations and config/harness-registry.json. Every message names
// the field (`capabilities.resume: expected true or false, got "yes"`) so a plugin author
// can fix it without reading baton. Fields a driver may leave out are checked only when
// given (normalize-driver.ts fills in their defaults); capability fields baton does not
// know are not checked at all. Checks only; never calls into the thing it checks. The ACP
// declaration's type is acp-decl.ts's, re-exported here.

import { PERMISSION_MODES, type PermissionMode } from './api.js';
import { type LocalFamilyRule, readLocalRules } from './local-family.js';
import { DEFAULT_CAPABILITIES, METHODS } from './normalize-driver.js';
import type { AcpAgentDecl } from './acp-decl.js';

export type { AcpAgentDecl } from './acp-decl.js';

export const DRIVER_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

export interface FamilyDecl {
  name: string;
  /** Model-name patterns; `*` matches any run of characters, case-insensitively. */
  match: string[];
  /** Drivers in preference order: the first one installed wins. */
  drivers: string[];
}

export interface DriverDefaults {
  args?: string[];
  model?: string;
  /** The permission mode a tab starts the driver in (docs/modes.md); absent: the CLI's own default. */
  mode?: PermissionMode;
  env?: Record<string, string>;
}

export interface RegistryConfig {
  families: FamilyDecl[];
  /** Rules for `baton chat --local` (local-family.ts). */
  local: LocalFamilyRule[];
  defaults: Record<string, DriverDefaults>;
  acpAgents: AcpAgentDecl[];
}

type Problems = string[];

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return typeof v === 'object' ? 'an object' : typeof v;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function str(p: Problems, o: Record<string, unknown>, key: string, field: string, required: boolean, nonEmpty = true): void {
  const v = o[key];
  if (v === undefined && !required) return;
  if (typeof v !== 'string' || (nonEmpty && !v.trim())) p.push(`${field}: expected ${nonEmpty ? 'a non-empty' : 'a'} string, got ${typeOf(v)}`);
}

function bool(p: Problems, o: Record<string, unknown>, key: string, field: string, required: boolean): void {
  const v = o[key];
  if (v === undefined && !required) return;
  if (typeof v !== 'boolean') p.push(`${field}: expected true or false, got ${typeOf(v)}`);
}

function strings(p: Problems, o: Record<string, unknown>, key: string, field: string, required: boolean): void {
  const v = o[key];
  if (v === undefined && !required) return;
  if (!Array.isArray(v)) return void p.push(`${field}: expected an array of strings, got ${typeOf(v)}`);
  v.forEach((s, i) => {
    if (typeof s !== 'string') p.push(`${field}[${i}]: expected a string, got ${typeOf(s)}`);
  });
}

function fn(p: Problems, o: Record<string, unknown>, key: string, field: string, required: boolean): void {
  const v = o[key];
  if (v === undefined && !required) return;
  if (typeof v !== 'function') p.push(`${field}: expected a function, got ${typeOf(v)}`);
}

function stringMap(p: Problems, o: Record<string, unknown>, key: string, field: string): void {
  const v = o[key];
  if (v === undefined) return;
  if (!isObj(v)) return void p.push(`${field}: expected an object of strings, got ${typeOf(v)}`);
  for (const [k, s] of Object.entries(v)) if (typeof s !== 'string') p.push(`${field}.${k}: expected a string, got ${typeOf(s)}`);
}

function name(p: Problems, o: Record<string, unknown>, field: string): void {
  const v = o.name;
  if (typeof v !== 'string' || !DRIVER_NAME.test(v)) {
    p.push(`${field}: expected a lower-case id (letters, digits, ".", "_", "-"; at most 64), got ${typeOf(v)}`);
  }
}

/** Problems with a value offered as a DriverDefinition; empty when it has the right shape. */
export function driverProblems(value: unknown): string[] {
  const p: Problems = [];
  if (!isObj(value)) return [`driver: expected an object, got ${typeOf(value)}`];
  name(p, value, 'name');
  str(p, value, 'title', 'title', true);
  strings(p, value, 'families', 'families', false);
  str(p, value, 'testedVersions', 'testedVersions', false);
  str(p, value, 'defaultModel', 'defaultModel', false);
  const caps = value.capabilities;
  // Other capability fields (planMode and submit, which older drop-ins declare) are ignored.
  if (isObj(caps)) for (const k of Object.keys(DEFAULT_CAPABILITIES)) bool(p, caps, k, `capabilities.${k}`, false);
  else if (caps !== undefined) p.push(`capabilities: expected an object, got ${typeOf(caps)}`);
  fn(p, value, 'detect', 'detect', true);
  fn(p, value, 'launch', 'launch', true);
  for (const k of [...METHODS, 'login']) fn(p, value, k, k, false);
  return p;
}

/** Problems with an ACP agent declaration; `field` prefixes every message (`acpAgents[2]`). */
export function acpDeclProblems(value: unknown, field = 'agent'): string[] {
  const p: Problems = [];
  if (!isObj(value)) return [`${field}: expected an object, got ${typeOf(value)}`];
  name(p, value, `${field}.name`);
  str(p, value, 'title', `${field}.title`, false);
  str(p, value, 'command', `${field}.command`, true);
  strings(p, value, 'args', `${field}.args`, false);
  stringMap(p, value, 'env', `${field}.env`);
  bool(p, value, 'fs', `${field}.fs`, false);
  bool(p, value, 'terminal', `${field}.terminal`, false);
  strings(p, value, 'families', `${field}.families`, false);
  str(p, value, 'installHint', `${field}.installHint`, true);
  str(p, value, 'loginHint', `${field}.loginHint`, false);
  strings(p, value, 'versionArgs', `${field}.versionArgs`, false);
  for (const k of ['npmPackage', 'testedVersions', 'defaultModel', 'modelArg', 'yesMode', 'authMethod']) str(p, value, k, `${field}.${k}`, false);
  if (value.tui !== undefined) {
    if (!isObj(value.tui)) p.push(`${field}.tui: expected an object, got ${typeOf(value.tui)}`);
    else {
      str(p, value.tui, 'command', `${field}.tui.command`, true);
      strings(p, value.tui, 'args', `${field}.tui.args`, false);
    }
  }
  return p;
}

/**
 * Checks a harness-registry.json document. Returns what could be read (bad entries left
 * out) and the problems, each naming its field.
 */
export function readRegistryConfig(value: unknown): { config: RegistryConfig; problems: string[] } {
  const config: RegistryConfig = { families: [], local: [], defaults: {}, acpAgents: [] };
  const p: Problems = [];
  if (!isObj(value)) return { config, problems: [`expected a JSON object, got ${typeOf(value)}`] };
  if (value.families !== undefined) {
    if (!Array.isArray(value.families)) p.push(`families: expected an array, got ${typeOf(value.families)}`);
    else
      value.families.forEach((f, i) => {
        const fp: Problems = [];
        if (!isObj(f)) fp.push(`families[${i}]: expected an object, got ${typeOf(f)}`);
        else {
          str(fp, f, 'name', `families[${i}].name`, true);
          strings(fp, f, 'match', `families[${i}].match`, true);
          strings(fp, f, 'drivers', `families[${i}].drivers`, true);
        }
        if (fp.length) p.push(...fp);
        else config.families.push(f as unknown as FamilyDecl);
      });
  }
  if (value.defaults !== undefined) {
    if (!isObj(value.defaults)) p.push(`defaults: expected an object, got ${typeOf(value.defaults)}`);
    else
      for (const [k, d] of Object.entries(value.defaults)) {
        const dp: Problems = [];
        if (!isObj(d)) dp.push(`defaults.${k}: expected an object, got ${typeOf(d)}`);
        else {
          strings(dp, d, 'args', `defaults.${k}.args`, false);
          str(dp, d, 'model', `defaults.${k}.model`, false);
          if (d.mode !== undefined && !PERMISSION_MODES.includes(d.mode as PermissionMode))
            dp.push(`defaults.${k}.mode: expected one of ${PERMISSION_MODES.join(', ')}, got ${JSON.stringify(d.mode)}`);
          stringMap(dp, d, 'env', `defaults.${k}.env`);
        }
        if (dp.length) p.push(...dp);
        else config.defaults[k] = d as DriverDefaults;
      }
  }
  if (value.acpAgents !== undefined) {
    if (!Array.isArray(value.acpAgents)) p.push(`acpAgents: expected an array, got ${typeOf(value.acpAgents)}`);
    else
      value.acpAgents.forEach((a, i) => {
        const ap = acpDeclProblems(a, `acpAgents[${i}]`);
        if (ap.length) p.push(...ap);
        else config.acpAgents.push(a as AcpAgentDecl);
      });
  }
  const local = readLocalRules(value);
  config.local = local.rules;
  p.push(...local.problems);
  return { config, problems: p };
}
