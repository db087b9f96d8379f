// The agents a picker offers (new tab, switch, fork), as they are found: a list can be shown
// at once, each agent's row "checking…" until its detection answers (a CLI asked for its
// version may take a second or more the first time), then its version and model, or gone
// when it is not installed or cannot run in a tab; in the new-tab picker, an agent baton can
// install that is missing gets an install row (install-choices.ts); the plain shell is always
// last. When none is installed, a note says so. It only detects; it starts nothing in a tab.

import { Emitter, type Event } from '../lifecycle/index.js';
import { DEFAULT_ACCOUNT } from '../plugins/account-dir.js';
import { defaultAccount, listAccounts } from '../plugins/account-store.js';
import type { Detection, HarnessDriver } from '../plugins/api.js';
import type { Registry } from '../plugins/registry.js';
import { INSTALL_NOTE, installRows } from './install-choices.js';
import { VIEW_SUFFIX } from '../plugins/acp-view-driver.js';
import { otherModelRow } from './model-choices.js';
import { shellChoice } from './shell-choice.js';
import type { PickerChoice } from './picker.js';

/**
 * `account`: one of the agent's accounts, chosen on its own row; absent: the usual rule (the
 * one it ran under here, else its default). `model`: the model chosen for it (model-choices.ts);
 * `pickModel`: the row that asks which (the picker's caller opens the agent's model picker).
 * `install`: an agent baton can install that is missing (install-choices.ts).
 */
export type Choice =
  | { kind: 'shell' }
  | { kind: 'agent'; name: string; account?: string; model?: string; pickModel?: true }
  | { kind: 'install'; name: string };

/** Said in a picker when no agent CLI was found (installs are listed by `baton agents`). */
export const NO_AGENT_NOTE = 'No agent CLI found on your PATH. `baton agents` lists them with install commands.';

/** What the pending rows say until their agent's detection answers. */
export const CHECKING = 'checking…';

export interface AgentChoicesOptions {
  registry: Registry;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The agent running now (marked "current"; the picker's selection starts on its row). */
  current?: string;
  /** Without the plain shell (the switch and fork pickers). */
  agentsOnly?: boolean;
}

type Found = { usable: true; detection: Detection } | { usable: false; installed?: boolean };

export class AgentChoices {
  private readonly drivers: HarnessDriver[];
  private readonly found = new Map<string, Found>();
  private readonly changes = new Emitter<void>();
  /** An agent's detection answered. */
  readonly onChange: Event<void> = this.changes.event;
  /** Settles once every driver has answered. */
  readonly settled: Promise<void>;

  constructor(private readonly opts: AgentChoicesOptions) {
    this.drivers = [...opts.registry.drivers()].sort((a, b) => a.title.localeCompare(b.title, 'en'));
    this.settled = Promise.all(
      this.drivers.map(async (d) => {
        this.found.set(d.name, await this.check(d));
        this.changes.fire();
      }),
    ).then(() => undefined);
  }

  /** Installed, and able to run in a tab (an ACP agent with no terminal UI of its own cannot). */
  private async check(d: HarnessDriver): Promise<Found> {
    try {
      let detection = await this.opts.registry.detect(d.name);
      // Asked again when it was missing (a PATH lookup, cheap): it may have been installed
      // since, from this picker's install tab.
      if (!detection.installed) detection = await this.opts.registry.detect(d.name, { refresh: true });
      if (!detection.installed) return { usable: false, installed: false };
      // Asked of the driver, never by a trial launch: a launch may make a session for the
      // tab (opencode's does), and the picker opening must not.
      return d.capabilities.tab ? { usable: true, detection } : { usable: false };
    } catch {
      return { usable: false };
    }
  }

  get done(): boolean {
    return this.found.size === this.drivers.length;
  }

  /** The rows as known now: found agents with version and model, pending ones "checking…", then the shell. */
  list(): PickerChoice<Choice>[] {
    const out: PickerChoice<Choice>[] = [];
    for (const d of this.drivers) {
      const f = this.found.get(d.name);
      if (f && !f.usable) continue;
      const model = this.opts.registry.settings(d.name).model ?? d.defaultModel;
      const detail = f ? [f.detection.version, model, d.name === this.opts.current ? 'current' : undefined].filter(Boolean).join(' · ') : CHECKING;
      out.push({ label: d.title, detail, value: { kind: 'agent', name: d.name }, ...(d.name === this.opts.current ? { current: true as const } : {}) });
      // A baton view lists its models only in the switch picker of the view tab in front (a
      // change in its running session): elsewhere its rows stay short.
      const viewElsewhere = d.name.endsWith(VIEW_SUFFIX) && d.name !== this.opts.current;
      const models = f && !viewElsewhere ? otherModelRow<Choice>(d, { kind: 'agent', name: d.name, pickModel: true }) : undefined;
      if (models) out.push(models);
      if (f) out.push(...this.accountRows(d));
    }
    if (!this.opts.agentsOnly) {
      // Agents baton can install, once their detection said they are not there.
      const missing = this.drivers.filter((d) => {
        const f = this.found.get(d.name);
        return f !== undefined && !f.usable && f.installed === false;
      });
      out.push(...installRows(missing, (name): Choice => ({ kind: 'install', name })));
      const shell = shellChoice(this.opts.cwd, this.opts.env);
      out.push({ label: shell.label, detail: shell.detail, value: { kind: 'shell' } });
    }
    return out;
  }

  /**
   * One row per account of an agent that has baton accounts (`baton accounts add`), `default`
   * (the CLI's own configuration) among them; none for an agent without any.
   */
  private accountRows(d: HarnessDriver): PickerChoice<Choice>[] {
    if (!d.capabilities.accounts) return [];
    let names: string[];
    let chosen: string;
    try {
      names = listAccounts(this.opts.env, d.name);
      chosen = defaultAccount(this.opts.env, d.name);
    } catch {
      return [];
    }
    if (!names.length) return [];
    return [DEFAULT_ACCOUNT, ...names].map((account) => ({
      label: `${d.title} · account ${account}`,
      detail: [account === DEFAULT_ACCOUNT ? "the CLI's own configuration" : undefined, account === chosen ? 'its default' : undefined]
        .filter(Boolean)
        .join(' · '),
      value: { kind: 'agent' as const, name: d.name, account },
    }));
  }

  /** The note a picker shows: that no agent was found, once every detection said so. */
  note(): string | undefined {
    if (!this.done || [...this.found.values()].some((f) => f.usable)) return undefined;
    return this.opts.agentsOnly ? NO_AGENT_NOTE : INSTALL_NOTE;
  }

  /** Whether `name` turned out installed and usable (undefined while it is being checked). */
  usable(name: string): boolean | undefined {
    return this.found.get(name)?.usable;
  }
}
