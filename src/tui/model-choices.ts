// Choosing a model in the pickers (issue 14 item 2). An agent that can list its models
// (driver.models()) gets one row under it, "<Agent> · other model…"; taking it opens a second
// picker with the agent's models (describe-models.ts: from the CLI itself or the driver's
// documented table), drawn at once and filled in when the list comes (an ACP agent is asked
// once per build, then cached), the model the tab runs now marked "current" and the one the
// CLI would run by itself "its default". Choosing one gives the agent choice with that model;
// what a model change does is the conversation's (a switch to the same agent: a new segment,
// the CLI's own session resumed). The rows say what they offer; nothing starts here.

import { Emitter, type Event } from '../lifecycle/index.js';
import type { HarnessDriver } from '../plugins/api.js';
import { modelsOf, type AgentModels } from '../plugins/describe-models.js';
import type { Registry } from '../plugins/registry.js';
import type { OverlayHost } from './overlay.js';
import { openPicker, type LiveChoices, type PickerChoice } from './picker.js';

/** What the row under an agent says. */
export const OTHER_MODEL = 'other model…';

/** The title of an agent's model picker. */
export const modelPickerTitle = (agentTitle: string): string => `Model of ${agentTitle}`;

/** Until the agent's list comes. */
export const ASKING = 'asking for its models…';

/** The row that opens `d`'s model picker; none for a driver that lists no models. */
export function otherModelRow<T>(d: HarnessDriver, value: T): PickerChoice<T> | undefined {
  if (!d.models) return undefined;
  return { label: `${d.title} · ${OTHER_MODEL}`, detail: 'choose one of its models', value };
}

export interface ModelPickOptions {
  registry: Registry;
  cwd: string;
  env: NodeJS.ProcessEnv;
  account?: string;
  /** The model the tab runs now, when this agent runs it (marked "current"). */
  running?: string;
}

/** One agent's models as they come: "asking…" until the list answers, then a row each. */
export class ModelChoices implements LiveChoices<string> {
  private found: AgentModels | undefined;
  private readonly changes = new Emitter<void>();
  readonly onChange: Event<void> = this.changes.event;
  readonly settled: Promise<void>;

  constructor(
    private readonly driver: HarnessDriver,
    private readonly opts: ModelPickOptions,
  ) {
    this.settled = modelsOf(opts.registry, driver, { cwd: opts.cwd, env: opts.env, ...(opts.account ? { account: opts.account } : {}) }).then((found) => {
      this.found = found;
      this.changes.fire();
    });
  }

  list(): PickerChoice<string>[] {
    if (!this.found) return [];
    const running = this.opts.running && this.opts.running !== 'default' ? this.opts.running : undefined;
    const rows = this.found.models.map((m) => ({
      label: m.id,
      detail: [m.name, m.id === running ? 'current' : undefined, m.current ? 'its default' : undefined].filter(Boolean).join(' · '),
      value: m.id,
      ...(m.id === running ? { current: true as const } : {}),
    }));
    // A model the tab runs that the list does not name is still said, first.
    if (running && !rows.some((r) => r.value === running)) rows.unshift({ label: running, detail: 'current', value: running, current: true });
    return rows;
  }

  note(): string | undefined {
    if (!this.found) return ASKING;
    if (this.found.error) return `${this.driver.title}: ${this.found.error}`;
    if (!this.found.models.length) return `${this.driver.title} lists no models.`;
    return this.found.note ? `From ${this.found.note}.` : undefined;
  }
}

/** The model picker for `driver`; resolves with the model chosen, or undefined when dismissed. */
export function pickModel(host: OverlayHost, driver: HarnessDriver, opts: ModelPickOptions): Promise<string | undefined> {
  return openPicker(host, modelPickerTitle(driver.title), new ModelChoices(driver, opts));
}
