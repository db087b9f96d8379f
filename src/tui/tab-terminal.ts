// A tab, seen by the conversation layer as the AgentTerminal its CLI runs in. The tab is
// opened by the first launch (so a tab never shows before its agent could start) and
// relaunched in place by later ones. Output is noticed by sampling the pane's parsed-byte
// count a few times a second, so background tabs are watched too without a second
// listener inside the pane.

import type { AgentTerminal, TerminalLaunch } from '../conversation/agent-terminal.js';
import type { Tab, TabLaunch } from './tab.js';

const OUTPUT_SAMPLE_MS = 250;

export class TabTerminal implements AgentTerminal {
  tab: Tab | undefined;
  private readonly outputListeners = new Set<() => void>();
  private readonly exitListeners = new Set<() => void>();
  private lastBytes = -1;
  private readonly timer: NodeJS.Timeout;
  private watchedPane: unknown;

  constructor(
    private readonly openTab: (launch: TabLaunch) => Tab,
    private readonly onOpened: (tab: Tab) => void = () => {},
  ) {
    this.timer = setInterval(() => this.sample(), OUTPUT_SAMPLE_MS);
    this.timer.unref();
  }

  async launch(spec: TerminalLaunch): Promise<void> {
    const launch: TabLaunch = { command: spec.command, args: spec.args, env: spec.env, cwd: spec.cwd, agent: spec.agent, model: spec.model, title: spec.title };
    if (!this.tab) {
      this.tab = this.openTab(launch);
      this.onOpened(this.tab);
    } else {
      await this.tab.relaunch(launch);
    }
    this.lastBytes = -1;
    this.watchExit(this.tab);
  }

  write(data: string): void {
    this.tab?.pane.write(data);
  }

  bracketedPaste(): boolean {
    return this.tab?.pane.term.modes.bracketedPasteMode ?? false;
  }

  async stop(graceMs: number): Promise<void> {
    await this.tab?.pane.dispose(graceMs);
  }

  isRunning(): boolean {
    return !!this.tab && !this.tab.pane.exited && this.tab.status !== 'exited';
  }

  screenLines(): string[] {
    const pane = this.tab?.pane;
    if (!pane) return [];
    const out: string[] = [];
    for (let y = 0; y < pane.term.rows; y++) out.push(pane.rowText(y));
    return out;
  }

  onExit(cb: () => void): () => void {
    this.exitListeners.add(cb);
    return () => this.exitListeners.delete(cb);
  }

  onOutput(cb: () => void): () => void {
    this.outputListeners.add(cb);
    return () => this.outputListeners.delete(cb);
  }

  dispose(): void {
    clearInterval(this.timer);
    this.outputListeners.clear();
    this.exitListeners.clear();
  }

  private watchExit(tab: Tab): void {
    const pane = tab.pane;
    if (this.watchedPane === pane) return;
    this.watchedPane = pane;
    pane.onExit(() => {
      if (tab.pane === pane) for (const l of this.exitListeners) l();
    });
  }

  private sample(): void {
    const bytes = this.tab?.pane.bytesParsed ?? -1;
    if (bytes === this.lastBytes) return;
    this.lastBytes = bytes;
    for (const l of this.outputListeners) l();
  }
}
