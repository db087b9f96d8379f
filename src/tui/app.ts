// The baton screen: tab bar, the active tab's pane, the compose bar's place, the status
// line; its tabs and overlays, the commands that reach it (routed from the keyboard by
// app-input.ts: raw bytes to the focused program, prefix commands to baton, keys to an open
// overlay), and the pacing of frames. The only module that owns the blessed screen. It never parses a program's output itself (panes do) and never
// decides about conversations: commands it does not implement are hooks for the caller.

import blessed from './blessed.js';
import { BatonError } from '../errors.js';
import { fsFailure } from '../fs-failure.js';
import { AppChrome, STATUS_ROWS, TOP_ROWS } from './app-chrome.js';
import { FrameScheduler } from './frames.js';
import { AppInput } from './app-input.js';
import type { Command, InputRouter, KeyConfig, SimpleCommand } from './keys.js';
import { OuterTerminal } from './outer-terminal.js';
import type { OverlayHost } from './overlay.js';
import { Emitter, type Disposable, type Event } from '../lifecycle/index.js';
import { FrontPane } from './front-pane.js';
import { PaneView } from './pane-view.js';
import { openPicker, type PickerChoice } from './picker.js';
import type { BlessedKey } from './scroll-mode.js';
import { ScrollWiring } from './scroll-wiring.js';
import { askToQuit, runBuiltIn, type CommandHost } from './app-commands.js';
import { Tab, type TabLaunch } from './tab.js';
import { terminalCaps, type TerminalCaps } from './terminal-caps.js';

export interface AppOptions {
  keys: KeyConfig;
  /** The terminal the user sits at. */
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  /** Environment programs in tabs start from (the user's, unchanged). */
  env: NodeJS.ProcessEnv;
  scrollback?: number;
  /** Entries of the new-tab / switch-agent picker; a plain shell is always among them. */
  choices: () => PickerChoice<TabLaunch>[] | Promise<PickerChoice<TabLaunch>[]>;
  /** Handlers that replace the built-in behaviour of a command (the conversation layer plugs in here). */
  commands?: Partial<Record<SimpleCommand, (app: App) => void | Promise<void>>>;
  /** Called once the app has quit (all tabs disposed, terminal restored). */
  onQuit?: () => void;
  /** Each message the status line shows, as it is shown (a server keeps them in its log). */
  said?: (text: string) => void;
}

/** Commands that open a picker: one at a time (see HeldInput.runPicker). */
const PICKER_COMMANDS: ReadonlySet<Command> = new Set<Command>(['new-tab', 'switch-agent']);

/** A change within this long after a keystroke in the focused pane is drawn at once. */
const ECHO_WINDOW_MS = 100;
/** Longest wait for a program's synchronized update to end before drawing anyway. */
const SYNC_UPDATE_MAX_MS = 500;

export class App implements OverlayHost, CommandHost {
  readonly screen: blessed.Widgets.Screen;
  readonly tabs: Tab[] = [];
  active = -1;
  readonly view: PaneView;
  readonly router: InputRouter;
  readonly frames: FrameScheduler;
  /** The tab bar, the compose rows and the status line with its message. */
  private readonly chrome: AppChrome;
  /** The keyboard: routed to the front pane, to baton's commands, or to the overlay on top. */
  private readonly input: AppInput;
  private overlays: blessed.Widgets.BlessedElement[] = [];
  /** Scroll mode of the active tab's pane, when open. */
  private readonly scroll: ScrollWiring;
  private chromeDirty = true;
  private readonly outer: OuterTerminal;
  private quitting: Promise<void> | undefined;

  constructor(private readonly opts: AppOptions) {
    this.input = new AppInput(
      {
        tabs: () => this.tabs,
        activeTab: () => this.activeTab,
        topOverlay: () => this.overlays[this.overlays.length - 1],
        run: (command) => this.run(command),
        showMessage: (text) => this.showMessage(text),
        showFailure: (e) => this.showFailure(e),
      },
      opts.keys,
      opts.output,
    );
    this.router = this.input.router;
    // blessed never reads the real terminal: raw bytes are ours to route, and only keys meant
    // for an overlay are handed to blessed's parser through this stream.
    this.screen = blessed.screen({
      input: this.input.uiInput as unknown as NodeJS.ReadStream,
      output: opts.output,
      terminal: 'xterm-256color',
      fullUnicode: true,
      smartCSR: false,
      warnings: false,
      title: 'baton',
      autoPadding: false,
      forceUnicode: true,
    } as blessed.Widgets.IScreenOptions);
    (this.screen as unknown as { tput: { brokenACS: boolean } }).tput.brokenACS = true;
    this.chrome = new AppChrome(this.screen, { ...(opts.said ? { said: opts.said } : {}), changed: () => this.requestChrome() });
    // First among the front's listeners: a message about the tab left is off before the new tab's own is said.
    this.activeChange.event(() => this.chrome.frontIs(this.activeTab));
    this.view = new PaneView(this.screen, { top: TOP_ROWS, bottom: STATUS_ROWS + this.chrome.composeRows }, terminalCaps(opts.env));
    this.frames = new FrameScheduler(() => this.frame());
    this.outer = new OuterTerminal(this.screen.program);
    this.screen.on('resize', () => this.onResize());
    this.scroll = new ScrollWiring({
      view: this.view,
      router: this.router,
      overlaysOpen: () => this.overlays.length > 0,
      requestChrome: () => this.requestChrome(),
      requestFrame: () => this.frames.request(true),
      showMessage: (text, about) => this.showMessage(text, 4000, about),
      write: (data) => this.screen.program.write(data),
    });
    this.screen.on('keypress', (ch: string | undefined, key: BlessedKey) => this.scroll.handleKey(ch, key));
    opts.input.setEncoding?.('utf8');
    if (opts.input.isTTY) opts.input.setRawMode(true);
    opts.input.on('data', this.input.onData);
    opts.input.resume();
    // Pasted text arrives marked (so it is not taken for keys); focus changes are reported.
    this.screen.program.write('\x1b[?2004h\x1b[?1004h');
    this.screen.program.hideCursor();
    this.requestChrome();
  }

  get activeTab(): Tab | undefined {
    return this.tabs[this.active];
  }

  /** Size a pane gets: the area between the tab bar and the compose bar. */
  paneSize(): { cols: number; rows: number } {
    const rows = (this.screen.height as number) - TOP_ROWS - STATUS_ROWS - this.chrome.composeRows;
    return { cols: Math.max(2, this.screen.width as number), rows: Math.max(1, rows) };
  }

  /** Rows above and below the pane, and tab bar and status line laid out for another width: a read-only client's crop keeps them (cropped-view.ts). */
  chromeRows(): { top: number; bottom: number; rowsAt: (width: number) => { tabBar: string; status: string } | undefined } {
    return { top: TOP_ROWS, bottom: STATUS_ROWS + this.chrome.composeRows, rowsAt: (width) => this.chrome.rowsAt(width) };
  }

  /** The compose bar's row; the conversation layer replaces its content. */
  get composeBar(): blessed.Widgets.BoxElement {
    return this.chrome.composeBar;
  }

  /** Give the compose bar `rows` rows (a multi-line draft); the pane and its program shrink to match. */
  setComposeHeight(rows: number): void {
    if (!this.chrome.setComposeRows(rows, this.screen.height as number)) return;
    this.view.setInsets(TOP_ROWS, STATUS_ROWS + this.chrome.composeRows);
    this.onResize();
  }

  openTab(launch: TabLaunch): Tab {
    const tab = new Tab(launch, { ...this.paneSize(), scrollback: this.opts.scrollback, baseEnv: this.opts.env });
    this.tabSubs.set(
      tab,
      tab.onChange(() => {
        if (this.activeTab === tab && (this.view.getPane() !== tab.pane || this.view.getNotice() !== tab.notice)) this.attach(tab);
        if (tab.status === 'exited' && this.activeTab === tab) {
          this.showMessage(`${tab.label}: exited${tab.exit ? ` (code ${tab.exit.exitCode})` : ''} · ${this.opts.keys.prefix} x closes the tab`, 4000, tab);
        }
        this.requestChrome();
      }),
    );
    this.tabs.push(tab);
    this.select(this.tabs.length - 1);
    return tab;
  }

  select(index: number): void {
    if (index < 0 || index >= this.tabs.length) return;
    const prev = this.activeTab;
    this.scroll.leave();
    this.active = index;
    const tab = this.tabs[index]!;
    if (prev && prev !== tab) prev.pane.focus(false);
    this.attach(tab);
    tab.pane.focus(true);
    this.requestChrome();
    if (prev !== tab) this.activeChange.fire();
  }

  /** The terminal the user sits at has the focus, as it last reported (true until it reports otherwise). */
  get outerFocused(): boolean {
    return this.input.outerFocused;
  }

  /** Whether a tab runs an agent (the conversation layer knows); without one, every tab is a plain shell's. */
  isAgentTab: (tab: Tab) => boolean = () => false;

  private readonly activeChange = new Emitter<void>();
  /** Another tab (or none) came to the front: the compose bar follows it. */
  readonly onActiveChange: Event<void> = this.activeChange.event;

  private attach(tab: Tab): void {
    const pane = tab.pane;
    this.front.set(pane);
    pane.resize(this.paneSize().cols, this.paneSize().rows);
    this.view.setPane(pane, tab.notice);
    this.chromeDirty = true;
    this.frames.request(true);
  }

  /** The pane in front: only it rings, sets the clipboard, and asks for frames (an echo's at once). */
  private readonly front = new FrontPane({
    write: (data) => this.screen.program.write(data),
    changed: () => this.frames.request(performance.now() - this.input.lastKeyAt < ECHO_WINDOW_MS),
  });
  /** The app's subscription to each open tab (the tab bar follows it), ended as the tab closes. */
  private readonly tabSubs = new Map<Tab, Disposable>();

  async closeTab(tab: Tab): Promise<void> {
    const i = this.tabs.indexOf(tab);
    if (i < 0) return;
    if (this.activeTab === tab) this.scroll.leave();
    this.tabs.splice(i, 1);
    if (this.view.getPane() === tab.pane) this.view.setPane(undefined);
    if (this.front.pane === tab.pane) this.front.clear();
    if (this.tabs.length === 0) this.active = -1;
    else this.select(Math.min(i, this.tabs.length - 1));
    // (select may see the same Tab at the index and stay quiet: the front changed all the same.)
    this.activeChange.fire();
    this.requestChrome();
    this.tabSubs.get(tab)?.dispose();
    this.tabSubs.delete(tab);
    await tab.dispose();
  }

  /**
   * A command that failed, on the status line: an expected failure (a BatonError, a full
   * disk, a read-only directory) as its message and hint; anything else as `error: ...`.
   * The app stays as it was: keys, quit and signals keep working.
   */
  showFailure(e: unknown): void {
    const known = e instanceof BatonError ? e : fsFailure(e);
    if (known) this.showMessage(`${known.message}${known.hint ? ` · ${known.hint}` : ''}`, 15_000);
    else this.showMessage(`error: ${e instanceof Error ? e.message : String(e)}`, 15_000);
  }

  /**
   * Says `text` on the status line for `ms`. `about`: the tab it concerns, if one does; it is
   * taken off when another tab comes to the front (AppChrome.frontIs), and not said at all
   * when that tab is no longer in front (an answer that came after a wait, the user gone
   * to another tab meanwhile).
   */
  showMessage(text: string | undefined, ms = 4000, about?: Tab): void {
    if (text && about && about !== this.activeTab) return;
    this.chrome.showMessage(text, ms, about);
  }

  /** Clears the status line if it still says `text`. */
  withdrawMessage(text: string): void {
    this.chrome.withdrawMessage(text);
  }

  /**
   * Everything drawn again from nothing, on a terminal that may have shown something else
   * meanwhile (a client attached to this view): the terminal's modes set again, the screen
   * cleared and every row written.
   */
  redrawAll(): void {
    if (this.quitting) return;
    this.screen.program.write('\x1b[?2004h\x1b[?1004h');
    this.outer.reset();
    this.screen.realloc();
    this.view.invalidate();
    this.requestChrome();
  }

  /**
   * What the terminal (every attached client's, when a server hosts this view) can draw: the
   * pane's rows are written again for it. Without this, the caps of the environment baton
   * started in.
   */
  setTerminalCaps(caps: TerminalCaps): void {
    this.view.setCaps(caps);
    this.frames.request(true);
  }

  /** Redraw tab bar, compose bar and status line (and everything else) on the next frame. */
  requestChrome(): void {
    this.chromeDirty = true;
    this.frames.request(true);
  }

  // ---- input ----

  /** Handles `data` as if the user typed it now. */
  feed(data: string): void {
    this.input.feed(data);
  }

  async run(command: Command): Promise<void> {
    if (command.startsWith('select-tab:')) {
      const n = Number(command.slice('select-tab:'.length));
      return this.select(n === 0 ? 9 : n - 1);
    }
    const custom = this.opts.commands?.[command as SimpleCommand];
    const builtIn = () => runBuiltIn(this, command, this.opts.keys, this.opts.env);
    if (PICKER_COMMANDS.has(command)) return this.input.held.runPicker(() => (custom ? custom(this) : builtIn()));
    if (custom) return custom(this);
    return builtIn();
  }

  /** A quit asked for by the user: asks first when a tab is busy (see askToQuit); `note` is added to that question. */
  requestQuit(note?: string): Promise<void> {
    return askToQuit(this, note);
  }

  enterScroll(): void {
    this.scroll.enter(this.activeTab);
  }

  async newTabFromPicker(): Promise<void> {
    const choices = await this.opts.choices();
    const launch = await openPicker(this, 'New tab', choices);
    if (launch) this.openTab(launch);
  }

  /** End every tab's program, restore the terminal, and report through onQuit. */
  quit(): Promise<void> {
    this.quitting ??= (async () => {
      this.frames.dispose();
      this.chrome.dispose();
      this.opts.input.off('data', this.input.onData);
      this.front.dispose();
      this.view.dispose();
      for (const sub of this.tabSubs.values()) sub.dispose();
      this.tabSubs.clear();
      this.activeChange.dispose();
      await Promise.all(this.tabs.splice(0).map((t) => t.dispose()));
      this.screen.program.write('\x1b[?2004l\x1b[?1004l\x1b[0 q');
      this.screen.destroy();
      if (this.opts.input.isTTY) this.opts.input.setRawMode(false);
      this.opts.input.pause();
      this.opts.onQuit?.();
    })();
    return this.quitting;
  }

  // ---- overlays ----

  openOverlay(el: blessed.Widgets.BlessedElement): void {
    this.overlays.push(el);
    this.router.mode = 'ui';
    el.focus();
    this.requestChrome();
    // What was typed for it (after a picker, before the first view) goes to it now.
    this.input.overlayOpened();
  }

  closeOverlay(el: blessed.Widgets.BlessedElement): void {
    this.overlays = this.overlays.filter((o) => o !== el);
    if (this.overlays.length === 0) this.input.held.overlaysClosed();
    if (this.overlays.length === 0 && !this.scroll.active) this.router.mode = 'pane';
    this.view.invalidate();
    this.requestChrome();
  }

  get inScrollMode(): boolean {
    return this.scroll.active;
  }

  // ---- drawing ----

  private onResize(): void {
    const { cols, rows } = this.paneSize();
    for (const t of this.tabs) t.resize(cols, rows);
    this.view.invalidate();
    this.requestChrome();
  }

  private frame(): void {
    if (this.quitting) return;
    const pane = this.activeTab?.pane;
    // A program inside a synchronized update (DEC 2026) has not finished its frame: wait,
    // but not forever (a program that dies mid-update must not freeze the pane).
    if (pane?.term.modes.synchronizedOutputMode && !this.chromeDirty) {
      this.syncSince ??= performance.now();
      if (performance.now() - this.syncSince < SYNC_UPDATE_MAX_MS) {
        this.frames.request();
        return;
      }
    }
    this.syncSince = undefined;
    if (this.chromeDirty || this.overlays.length > 0) {
      this.chromeDirty = false;
      this.chrome.draw({
        tabs: this.tabs.map((t) => t.barItem()),
        active: this.active,
        prefix: this.opts.keys.prefix,
        width: this.screen.width as number,
        ...(this.scroll.active ? { scroll: { status: this.scroll.status } } : {}),
        noTab: !this.activeTab,
        composeOwned: this.composeBarOwned,
      });
      // The pane's rows follow blessed's draw (see PaneView).
      this.screen.render();
    } else {
      this.view.flush();
    }
    // The terminal's cursor: the pane's (or scroll mode's) when nothing covers the pane.
    this.outer.follow(pane, {
      overlay: this.overlays.length > 0,
      scroll: this.scroll.active ? this.scroll : undefined,
      left: this.view.left,
      top: this.view.top,
    });
    // Out now, not on blessed's next setImmediate: in the turn of the event loop between, a
    // neighbour's PTY read (and its parse) could run while the frame waited in the buffer.
    this.screen.program.flush();
  }

  private syncSince: number | undefined;

  /** Set by the conversation layer once it draws the compose bar itself. */
  composeBarOwned = false;
}
