// A tab, seen by the conversation layer as the AgentTerminal its CLI runs in. The tab is
// opened by the first launch (so a tab never shows before its agent could start) and
// relaunched in place by later ones. Output, input progress and exit are the pane's own events, passed on
// from whichever pane the tab runs now (background tabs too: a pane takes any number of
// listeners); nothing is sampled or polled. dispose() lets go of every subscription.

import type { AgentTerminal, InputProgress, TerminalLaunch } from '../conversation/index.js';
import { DisposableStore, Emitter, MutableDisposable, type Disposable, type Event } from '../lifecycle/index.js';
import type { Pane } from './pane.js';
import type { Tab, TabLaunch } from './tab.js';

export class TabTerminal implements AgentTerminal, Disposable {
  tab: Tab | undefined;
  private readonly outputEmitter = new Emitter<void>();
  private readonly exitEmitter = new Emitter<void>();
  private readonly inputEmitter = new Emitter<InputProgress>();
  readonly onOutput: Event<void> = this.outputEmitter.event;
  readonly onExit: Event<void> = this.exitEmitter.event;
  readonly onInput: Event<InputProgress> = this.inputEmitter.event;
  /** The subscriptions to the pane the tab runs now. */
  private readonly watching = new MutableDisposable<Disposable & { pane: Pane }>();

  constructor(
    private readonly openTab: (launch: TabLaunch) => Tab,
    private readonly onOpened: (tab: Tab) => void = () => {},
  ) {}

  async launch(spec: TerminalLaunch): Promise<void> {
    const launch: TabLaunch = { command: spec.command, args: spec.args, env: spec.env, cwd: spec.cwd, agent: spec.agent, model: spec.model, title: spec.title };
    if (!this.tab) {
      this.tab = this.openTab(launch);
      this.onOpened(this.tab);
    } else {
      await this.tab.relaunch(launch);
    }
    this.watch(this.tab);
  }

  write(data: string): void {
    this.tab?.pane.write(data);
  }

  inputProgress(): InputProgress | undefined {
    return this.tab?.pane.inputProgress();
  }

  bracketedPaste(): boolean {
    return this.tab?.pane.term.modes.bracketedPasteMode ?? false;
  }

  async stop(graceMs: number): Promise<void> {
    await this.tab?.stopProgram(graceMs);
  }

  isRunning(): boolean {
    return !!this.tab && !this.tab.pane.exited && this.tab.status !== 'exited';
  }

  processGroup(): number | undefined {
    return this.isRunning() ? this.tab!.pane.pid : undefined;
  }

  screenLines(): string[] {
    return this.rows((pane, y) => pane.rowText(y));
  }

  inputLines(): string[] {
    return this.rows((pane, y) => pane.rowTextUndimmed(y));
  }

  /** Each row of the screen as `read` gives it; none without a pane. */
  private rows(read: (pane: Pane, y: number) => string): string[] {
    const pane = this.tab?.pane;
    if (!pane) return [];
    const out: string[] = [];
    for (let y = 0; y < pane.term.rows; y++) out.push(read(pane, y));
    return out;
  }

  dispose(): void {
    this.watching.dispose();
    this.outputEmitter.dispose();
    this.exitEmitter.dispose();
    this.inputEmitter.dispose();
  }

  private watch(tab: Tab): void {
    const pane = tab.pane;
    if (this.watching.value?.pane === pane) return;
    const subs = new DisposableStore();
    subs.add(pane.onOutput(() => this.outputEmitter.fire()));
    subs.add(pane.onInput((p) => this.inputEmitter.fire(p)));
    subs.add(
      pane.onExit(() => {
        if (tab.pane === pane) this.exitEmitter.fire();
      }),
    );
    this.watching.value = { pane, dispose: () => subs.dispose() };
    // (An exit before the subscription, which no event would tell again.)
    if (pane.exited) this.exitEmitter.fire();
  }
}
