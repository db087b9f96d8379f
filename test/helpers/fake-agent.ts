// An agent CLI in memory, for the conversation layer's unit tests (no PTY, no process): a
// terminal whose screen and "log" the test controls, the driver that reads them, and a
// registry of such drivers. The screen is a status line (READY, BUSY, or a DIALOG) over an
// input box that holds what was pasted; what happens on Enter is the test's `onEnter` (by
// default the CLI takes the box: its log shows the text, a turn runs). Every write is
// recorded, and so is every launch (the spec the driver built: resume, fork).
import type { AgentTerminal, TerminalLaunch } from '../../src/conversation/agent-terminal.js';
import type { AgentStatus, Capabilities, HarnessDriver, LaunchOptions, TranscriptEvent } from '../../src/plugins/api.js';
import type { Registry } from '../../src/plugins/registry.js';
import { Emitter } from '../../src/lifecycle/index.js';

export const PASTE = /^\x1b\[200~([\s\S]*)\x1b\[201~$/;
/** A paste and its Enter in one write (a driver whose CLI takes them so: capabilities.enterWithPaste). */
export const PASTE_ENTER = /^\x1b\[200~([\s\S]*)\x1b\[201~\r$/;

export class FakeTerminal implements AgentTerminal {
  writes: string[] = [];
  box = '';
  state: 'READY' | 'BUSY' | 'DIALOG' = 'READY';
  history: string[] = [];
  onEnter: (box: string) => void = () => this.take();
  log: ((e: TranscriptEvent) => void) | undefined;
  /** Each launch, in order. */
  launches: TerminalLaunch[] = [];
  /** What stop() does: by default the program ends; false leaves it running (one that will not stop). */
  stops = true;
  /** What launch() does: by default the program comes up; false: it exits at once. */
  comesUp = true;
  private running = false;
  private readonly outputs = new Emitter<void>();
  private readonly exits = new Emitter<void>();
  readonly onOutput = this.outputs.event;
  readonly onExit = this.exits.event;

  async launch(spec: TerminalLaunch): Promise<void> {
    this.launches.push(spec);
    this.box = '';
    this.history = [];
    this.state = 'READY';
    this.running = this.comesUp;
    // A CLI that comes up draws its screen; one that does not exits at once.
    queueMicrotask(() => (this.comesUp ? this.output() : this.exits.fire()));
  }
  write(data: string): void {
    this.writes.push(data);
    const paste = PASTE.exec(data) ?? PASTE_ENTER.exec(data);
    if (paste) this.box += paste[1];
    if (paste && data.endsWith('\r')) this.onEnter(this.box);
    else if (paste) {
      // (The paste alone.)
    } else if (data === '\r') this.onEnter(this.box);
    else this.box += data;
    this.output();
  }
  bracketedPaste(): boolean {
    return true;
  }
  async stop(): Promise<void> {
    if (!this.stops || !this.running) return;
    this.running = false;
    this.exits.fire();
  }
  isRunning(): boolean {
    return this.running;
  }
  screenLines(): string[] {
    const status = this.state === 'DIALOG' ? 'DIALOG: Yes, I trust this folder' : this.state === 'BUSY' ? 'BUSY esc to interrupt' : '';
    return [...this.history, status, `READY> ${this.box}`];
  }
  /** The screen changed (the test set a state): listeners hear of it, as from a pane. */
  output(): void {
    this.outputs.fire();
  }
  set(state: FakeTerminal['state']): void {
    this.state = state;
    this.output();
  }
  /** The CLI takes what its input box holds: the box empties, the log shows the message, a turn runs. */
  take(): void {
    const text = this.box;
    this.box = '';
    this.history.push(`> ${text}`);
    this.state = 'BUSY';
    this.emit({ type: 'user_text', text });
  }
  emit(e: TranscriptEvent): void {
    this.log?.(e);
    this.output();
  }
  /** The turn ends: the log says so, and the screen shows the prompt again. */
  finish(): void {
    this.state = 'READY';
    this.emit({ type: 'agent_text', text: 'ok' });
    this.emit({ type: 'turn_end' });
  }
  /** The program ends on its own. */
  exit(): void {
    if (!this.running) return;
    this.running = false;
    this.exits.fire();
  }
  /** How many times `text` was pasted (with its Enter in the same write or not). */
  pasted(text: string): number {
    return this.writes.filter((w) => (PASTE.exec(w) ?? PASTE_ENTER.exec(w))?.[1] === text).length;
  }
  /** Every paste, in order. */
  pastes(): string[] {
    return this.writes.flatMap((w) => {
      const m = PASTE.exec(w);
      return m ? [m[1]!] : [];
    });
  }
  get enters(): number {
    return this.writes.filter((w) => w === '\r').length;
  }
}

export interface FakeDriverOptions {
  name?: string;
  title?: string;
  capabilities?: Partial<Capabilities>;
  /** detect() says it is not installed. */
  missing?: boolean;
  /** launch() throws this. */
  launchFails?: string;
  /** Each LaunchOptions the driver was asked to launch with. */
  launched?: LaunchOptions[];
  /** The driver reads its input box (inputDraft: what follows `READY> `); default: it cannot. */
  readsInput?: boolean;
}

/** A driver for the CLI in `term`: its ingest is the terminal's log, its status the screen's line. */
export function fakeDriver(term: FakeTerminal, o: FakeDriverOptions = {}): HarnessDriver {
  return {
    name: o.name ?? 'fake',
    title: o.title ?? 'Fake CLI',
    families: [],
    capabilities: { resume: false, fork: false, tabSession: true, tab: true, accounts: false, ...o.capabilities },
    detect: async () => ({ installed: !o.missing, installHint: 'written by test/helpers/fake-agent.ts' }),
    launch: (opts) => {
      o.launched?.push(opts);
      if (o.launchFails) throw new Error(o.launchFails);
      return { command: 'fake-cli', args: [], env: {}, cwd: opts.cwd, prompt: 'none' };
    },
    ingest: async (opts) => {
      const follower = opts.onEvent;
      term.log = follower;
      // Once disposed, this ingest hears nothing more of the log.
      const dispose = async () => {
        if (term.log === follower) term.log = undefined;
      };
      return { agentSession: undefined, skipped: 0, dispose };
    },
    statusFromScreen: (lines): AgentStatus | undefined => {
      const screen = lines.join('\n');
      if (screen.includes('DIALOG')) return 'approval';
      if (screen.includes('BUSY')) return 'working';
      if (screen.includes('READY>')) return 'idle';
      return undefined;
    },
    ...(o.readsInput
      ? {
          inputDraft: (lines: readonly string[]) =>
            [...lines]
              .reverse()
              .find((l) => l.startsWith('READY> '))
              ?.slice('READY> '.length),
        }
      : {}),
  };
}

/** The registry of these drivers: what the conversation layer asks of one. */
export function registryOf(...drivers: HarnessDriver[]): Registry {
  const refuse = () => {
    throw new Error('not used by the conversation layer');
  };
  const get = (n: string) => {
    const d = drivers.find((x) => x.name === n);
    if (!d) throw new Error(`no driver ${n}`);
    return d;
  };
  return {
    drivers: () => drivers,
    names: () => drivers.map((d) => d.name),
    has: (n: string) => drivers.some((d) => d.name === n),
    get,
    origin: () => undefined,
    problems: [],
    families: [],
    settings: () => ({}),
    detect: (n: string) => get(n).detect({ env: {} }),
    familyOf: () => undefined,
    resolveFamily: refuse,
    onChange: new Emitter<never>().event,
    reload: refuse,
    dispose: async () => {},
  } as unknown as Registry;
}
