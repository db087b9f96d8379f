// A tab: what the user sees as one conversation slot — a title, the agent (and model)
// running in it, a status, and the pane hosting the program. The program is given as a
// launch (command, argv, env, cwd), so a driver's LaunchSpec plugs in unchanged, and a tab
// can relaunch a different program in place (an agent switch). It owns its pane (and its
// subscriptions to it): dispose() ends the program and lets go of every listener. It knows
// nothing of blessed.

import { basename } from 'node:path';
import { DisposableStore, Emitter, MutableDisposable, type Event } from '../lifecycle/index.js';
import { Pane, type PaneExit, type PaneLaunch } from './pane.js';
import type { TabBarItem } from './tab-bar.js';

/**
 * running: a program with no richer status source (a plain shell); idle, working and
 * approval come from drivers; exited: the program ended; stopped: baton ended it on
 * purpose (a reset) and the tab shows a notice of baton's instead of its last screen.
 */
export type TabStatus = 'running' | 'idle' | 'working' | 'approval' | 'exited' | 'stopped';

/** The tab's conversation is a fork: of which entry, and the branch of its worktree if it has one. */
export interface TabFork {
  at: number;
  branch?: string;
}

export interface TabLaunch extends PaneLaunch {
  /** What the tab is called until the program sets a title. */
  title?: string;
  /** Driver name ("claude") or "shell". */
  agent: string;
  model?: string;
}

export interface TabSize {
  cols: number;
  rows: number;
  scrollback?: number;
  baseEnv?: NodeJS.ProcessEnv;
}

let nextId = 1;

export class Tab {
  readonly id = nextId++;
  launch: TabLaunch;
  pane: Pane;
  title: string;
  /** Title the program set through OSC 0/2, shown when no title was given. */
  programTitle = '';
  status: TabStatus = 'running';
  /** Set when the conversation is a fork (the tab bar marks it). */
  fork: TabFork | undefined;
  /** What the pane shows instead of the program's screen while stopped (plain lines, baton's own). */
  notice: string[] | undefined;
  /**
   * The agent needed the user while the tab was not in view (done: a turn ended; approval: it
   * asks): the tab bar marks it until the tab is shown.
   */
  unseen: 'approval' | 'done' | undefined;
  private readonly changeEmitter = new Emitter<void>();
  /** Title, status, notice, program (a relaunch) or fork mark changed: the tab bar redraws. */
  readonly onChange: Event<void> = this.changeEmitter.event;
  /** The tab's subscriptions to its current pane, ended when a relaunch replaces it. */
  private readonly paneSubs = new MutableDisposable<DisposableStore>();

  constructor(
    launch: TabLaunch,
    private readonly size: TabSize,
  ) {
    this.launch = launch;
    this.title = launch.title ?? basename(launch.command);
    this.pane = this.start(launch);
  }

  private start(launch: TabLaunch): Pane {
    const pane = new Pane({ ...launch, cols: this.size.cols, rows: this.size.rows, scrollback: this.size.scrollback, baseEnv: this.size.baseEnv });
    const subs = new DisposableStore();
    subs.add(
      pane.onExit((e: PaneExit) => {
        // (A notice shown already stays: its "stopped" is the truer word. So does baton's own
        // stop, for a switch or a relaunch: the user is not told the program exited.)
        if (this.status !== 'stopped') this.status = this.stopping ? 'stopped' : 'exited';
        this.exit = e;
        this.changed();
      }),
    );
    subs.add(
      pane.onTitle((t) => {
        this.programTitle = t;
        this.changed();
      }),
    );
    this.paneSubs.value = subs;
    return pane;
  }

  exit: PaneExit | undefined;
  /** baton is ending the program on purpose (stopProgram, relaunch). */
  private stopping = false;

  get agent(): string {
    return this.launch.agent;
  }

  get model(): string | undefined {
    return this.launch.model;
  }

  /** Title shown in the tab bar. */
  get label(): string {
    return this.launch.title ?? (this.programTitle || this.title);
  }

  private changed(): void {
    this.changeEmitter.fire();
  }

  /** Marks the tab as needing the user since it was last in view (undefined: it is in view now). */
  setUnseen(kind: Tab['unseen']): void {
    if (this.unseen === kind) return;
    this.unseen = kind;
    this.changed();
  }

  setStatus(status: TabStatus): void {
    if (this.status === status) return;
    this.status = status;
    this.changed();
  }

  /**
   * The program was stopped on purpose and will be started again: the pane shows `lines`
   * (baton's words) instead of the program's last screen, and the status says stopped.
   * A relaunch ends it.
   */
  showNotice(lines: string[]): void {
    this.notice = lines;
    this.status = 'stopped';
    this.changed();
  }

  setTitle(title: string): void {
    this.launch = { ...this.launch, title };
    this.changed();
  }

  /** Whether closing the tab would interrupt work: an agent working or asking, or a shell running a command. */
  /** What the tab bar shows of this tab. */
  barItem(): TabBarItem {
    return {
      label: this.label,
      agent: this.agent,
      model: this.model,
      status: this.status,
      ...(this.fork ? { fork: this.fork } : {}),
      ...(this.unseen ? { unseen: this.unseen } : {}),
    };
  }

  busy(): boolean {
    if (this.status === 'exited' || this.status === 'stopped') return false;
    if (this.status === 'working' || this.status === 'approval') return true;
    return this.launch.agent === 'shell' && this.pane.hasForegroundJob();
  }

  resize(cols: number, rows: number): void {
    this.size.cols = cols;
    this.size.rows = rows;
    this.pane.resize(cols, rows);
  }

  /**
   * Stop the current program (process group, graceful then kill), then start another in
   * the same tab. Returns once the old one is gone and the new one is spawned.
   */
  async relaunch(launch: TabLaunch, graceMs?: number): Promise<void> {
    const old = this.pane;
    this.stopping = true;
    await old.dispose(graceMs);
    this.stopping = false;
    this.launch = launch;
    this.title = launch.title ?? basename(launch.command);
    this.programTitle = '';
    this.exit = undefined;
    this.status = 'running';
    this.notice = undefined;
    this.pane = this.start(launch);
    this.changed();
  }

  /** Ends the program on purpose (a switch, a reset; a launch follows): the tab says stopped, not exited. */
  async stopProgram(graceMs?: number): Promise<void> {
    this.stopping = true;
    await this.pane.dispose(graceMs);
  }

  async dispose(graceMs?: number): Promise<void> {
    this.changeEmitter.dispose();
    this.paneSubs.dispose();
    await this.pane.dispose(graceMs);
  }
}
