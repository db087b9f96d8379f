// `baton server`: the long-lived process that owns every tab (PTYs, emulators, agent
// conversations) so they outlive the terminal that opened them. It listens on a Unix socket
// only (socket-place.ts: an owner-only directory, the socket 0600), hosts one view of its
// tabs (the TUI, drawn on a VirtualTerminal) and relays that view to every attached client;
// a client's keys go to the view (unless it attached read-only). Like tmux, the view is
// drawn at the smallest size among the clients that may resize it; a read-only client
// smaller than that is sent a crop of it at its own size (cropped-view.ts).
// One per user and name: a lock file holds the server's pid while it runs, and a socket
// left by a server that died is noticed (nothing answers on it) and replaced (server-claim.ts).
// It ends when the view quits (C-b q, or the last tab closed with nobody attached), on
// `baton kill-server`, or on SIGTERM; detaching (C-b d) or a client dying changes nothing.

import { chmodSync, unlinkSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { packageVersion } from '../package-root.js';
import type { App } from '../tui/app.js';
import type { ConversationTabs } from '../tui/conversation-tabs.js';
import type { UserAuthor } from '../transcript/types.js';
import { runBaton } from '../tui/run-baton.js';
import { commonCaps, terminalCapsOf } from '../tui/terminal-caps.js';
import { notificationBytes, type Notification, type NotifySettings } from '../tui/desktop-notify.js';
import { authorOf } from './client-author.js';
import { claimPlace, releaseLock } from './server-claim.js';
import type { SocketPlace } from './socket-place.js';
import {
  decodeJson,
  encodeFrame,
  encodeJson,
  FRAME,
  FrameReader,
  PROTOCOL_VERSION,
  versionMismatch,
  type ExitNotice,
  type Frame,
  type Hello,
  type Refusal,
} from './protocol.js';
import { HIGH_WATER, VirtualTerminal, type ViewSink } from './virtual-terminal.js';
import { CroppedView } from './cropped-view.js';
import { tabList, type TabListing } from './tab-list.js';

/** How long a connection may take to say who it is. */
const HELLO_MS = 5000;
/** A server nobody ever attached to ends after this long. */
const FIRST_ATTACH_MS = 60_000;

export interface ServerOptions {
  place: SocketPlace;
  name: string;
  env: NodeJS.ProcessEnv;
  pluginDirs?: string[];
  log: (line: string) => void;
}

interface Client {
  socket: Socket;
  hello: Hello;
  /** Who the client said it is, cleaned: the author of what it sends from the compose bar. */
  author: UserAuthor;
  sink: ViewSink;
  readOnly: boolean;
  /** The view cropped to this client's size: a read-only client smaller than the view. */
  crop?: CroppedView;
}

/** What the client is drawn through: its crop, else its socket. */
const drawnThrough = (c: Client): ViewSink => c.crop ?? c.sink;

export class BatonServer {
  private net: Server | undefined;
  private readonly clients = new Set<Client>();
  private readonly vt = new VirtualTerminal(80, 24);
  private app: App | undefined;
  private tabs: ConversationTabs | undefined;
  private view: Promise<number> | undefined;
  /** Said to the clients with the quit (the worktrees that stay). */
  private quitNote: string | undefined;
  private ending: Promise<void> | undefined;
  private firstAttach: NodeJS.Timeout | undefined;
  /** The client whose keys the view is handling right now (C-b d detaches that one). */
  private typing: Client | undefined;
  /** The attached client that typed last: the compose bar names it as the one writing. */
  private lastTyping: Client | undefined;
  private resolveDone!: () => void;
  /** Resolves when the server has ended. */
  readonly done = new Promise<void>((r) => (this.resolveDone = r));

  constructor(private readonly opts: ServerOptions) {
    // (The view lives as long as the server: so does this subscription.)
    this.vt.onRedraw(() => this.app?.redrawAll());
  }

  /** Listens; false when another server of this name already runs. */
  async start(): Promise<boolean> {
    const { place } = this.opts;
    if (!(await claimPlace(place, this.opts.log))) return false;
    const net = createServer((socket) => this.accept(socket));
    this.net = net;
    // The socket is made 0600 from the start (the directory already keeps others out).
    const umask = process.umask(0o177);
    try {
      await new Promise<void>((resolve, reject) => {
        net.once('error', reject);
        net.listen(place.path, () => resolve());
      });
    } finally {
      process.umask(umask);
    }
    chmodSync(place.path, 0o600);
    this.firstAttach = setTimeout(() => {
      if (!this.view) void this.end('nobody attached');
    }, FIRST_ATTACH_MS);
    this.opts.log(`listening on ${place.path} (pid ${process.pid}, baton ${packageVersion()}, protocol ${PROTOCOL_VERSION})`);
    return true;
  }

  private accept(socket: Socket): void {
    const reader = new FrameReader();
    let client: Client | undefined;
    const hello = setTimeout(() => socket.destroy(), HELLO_MS);
    socket.on('data', (data: Buffer) => {
      let frames: Frame[];
      try {
        frames = reader.push(data);
      } catch (e) {
        this.opts.log(`a connection sent a bad frame (${(e as Error).message}): closed`);
        socket.destroy();
        return;
      }
      for (const f of frames) {
        if (!client) {
          clearTimeout(hello);
          client = this.greet(socket, f);
          if (!client) return;
        } else this.fromClient(client, f);
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(hello);
      if (client) this.leave(client);
    });
  }

  /** The handshake; the client once it may attach (an ls or kill-server is answered here). */
  private greet(socket: Socket, f: Frame): Client | undefined {
    const refuse = (r: Refusal) => {
      socket.end(encodeJson(FRAME.refused, r));
      return undefined;
    };
    if (f.type !== FRAME.hello) return refuse({ message: 'the first frame was not a hello', code: 2 });
    let hello: Hello;
    try {
      hello = decodeJson<Hello>(f);
    } catch {
      return refuse({ message: 'the hello was not JSON', code: 2 });
    }
    const ours = { protocol: PROTOCOL_VERSION, baton: packageVersion() };
    const mismatch = versionMismatch({ protocol: Number(hello.protocol), baton: String(hello.baton) }, ours, 'server');
    if (mismatch) return refuse({ ...mismatch, working: this.workingTabs() });
    // A tab asked for that is not there is refused before anything is shown, as tmux's
    // `attach -t` is: attaching anyway showed whatever tab was in front, taken for the one asked for.
    const asked = hello.request.kind === 'attach' ? hello.request.tab : undefined;
    if (asked !== undefined && this.view && this.tabIndex(asked) < 0) return refuse(this.noSuchTab(asked));
    socket.write(encodeJson(FRAME.welcome, { ...ours, pid: process.pid }));
    const req = hello.request;
    if (req.kind === 'ls') {
      socket.end(encodeJson(FRAME.reply, { tabs: this.listing() }));
      return undefined;
    }
    if (req.kind === 'kill-server') {
      socket.end(encodeJson(FRAME.reply, { ending: true, working: this.workingTabs() }));
      void this.end('baton kill-server');
      return undefined;
    }
    const client: Client = {
      socket,
      hello,
      author: authorOf(hello.user),
      readOnly: req.readOnly === true,
      sink: {
        write: (data) => {
          socket.write(encodeFrame(FRAME.output, data));
          return socket.writableLength < HIGH_WATER;
        },
        onDrain: (cb) => socket.once('drain', cb),
      },
    };
    this.clients.add(client);
    this.opts.log(`attached: ${client.author.name}@${client.author.device}${client.readOnly ? ' (read-only)' : ''}, ${hello.cols}x${hello.rows}`);
    this.fitView();
    this.fitCaps();
    if (!this.view) this.startView(req.cwd);
    else if (req.tab !== undefined) this.selectTab(req.tab);
    this.vt.attach(drawnThrough(client));
    return client;
  }

  private fromClient(client: Client, f: Frame): void {
    switch (f.type) {
      case FRAME.input:
        if (client.readOnly) return;
        if (this.lastTyping !== client) {
          // Another client took the keyboard: the compose bar says who writes from now on.
          this.lastTyping = client;
          this.tabs?.refreshCompose();
        }
        this.typing = client;
        try {
          this.vt.type(f.payload);
        } finally {
          this.typing = undefined;
        }
        return;
      case FRAME.resize: {
        const size = decodeJson<{ cols: number; rows: number }>(f);
        client.hello.cols = size.cols;
        client.hello.rows = size.rows;
        this.fitView();
        return;
      }
      case FRAME.detach:
        this.sendExit(client, { reason: 'detached' });
        return;
      default:
        this.opts.log(`a client sent an unknown frame type ${f.type}: ignored`);
    }
  }

  /** Like tmux: the view takes the smallest size among the clients that may resize it; a read-only client smaller than that, a crop of it. */
  private fitView(): void {
    const sizers = [...this.clients].filter((c) => !c.readOnly);
    if (sizers.length) {
      const cols = Math.min(...sizers.map((c) => c.hello.cols));
      const rows = Math.min(...sizers.map((c) => c.hello.rows));
      this.vt.resize(cols, rows);
    }
    for (const c of this.clients) this.fitCrop(c, sizers.length > 0);
  }

  /**
   * A read-only client smaller than the view gets it cropped to its size (its own tab bar
   * and status line rows), one that holds it the view's bytes as they are (top-left, as a
   * larger client of tmux). A client switched from one to the other is drawn in full.
   */
  private fitCrop(c: Client, sized: boolean): void {
    const view = { cols: this.vt.output.columns, rows: this.vt.output.rows };
    const size = { cols: c.hello.cols, rows: c.hello.rows };
    const small = c.readOnly && (size.cols < view.cols || size.rows < view.rows);
    const note = ` read-only, cropped to ${size.cols}x${size.rows}: ${sized ? 'another client sets the size' : 'the view keeps the size it was given'}`;
    if (small && c.crop) return c.crop.resize(size, view, note);
    if (small === (c.crop !== undefined)) return;
    const was = drawnThrough(c);
    c.crop?.dispose();
    const chrome = () => this.app?.chromeRows() ?? { top: 0, bottom: 0 };
    c.crop = small ? new CroppedView(c.sink, size, view, chrome, terminalCapsOf(c.hello.term, c.hello.colorterm, this.opts.env), note) : undefined;
    // (Not attached yet: greet() attaches it once the view is there.)
    if (this.vt.detach(was)) this.vt.attach(drawnThrough(c));
  }

  /**
   * Every attached client gets the same bytes, so the panes are drawn with what all their
   * terminals have (truecolour only when every one has it).
   */
  private fitCaps(): void {
    const caps = commonCaps([...this.clients].map((c) => terminalCapsOf(c.hello.term, c.hello.colorterm, this.opts.env)));
    if (caps) this.app?.setTerminalCaps(caps);
  }

  private leave(client: Client): void {
    this.forget(client);
    if (!this.clients.delete(client)) return;
    this.vt.detach(drawnThrough(client));
    client.crop?.dispose();
    this.fitCaps();
    this.opts.log(`detached: ${client.author.name}@${client.author.device}`);
    this.fitView();
    // A view with no tab and nobody to open one has nothing left to keep.
    if (this.clients.size === 0 && this.app && this.app.tabs.length === 0) void this.end('the last tab closed and nobody is attached');
  }

  /** A client that leaves is no longer the one writing. */
  private forget(client: Client): void {
    if (this.lastTyping !== client) return;
    this.lastTyping = undefined;
    this.tabs?.refreshCompose();
  }

  private sendExit(client: Client, notice: ExitNotice): void {
    this.forget(client);
    this.vt.detach(drawnThrough(client));
    client.crop?.dispose();
    if (this.clients.delete(client)) {
      this.opts.log(`${notice.reason}: ${client.author.name}@${client.author.device}`);
      this.fitCaps();
    }
    client.socket.end(encodeJson(FRAME.exit, notice));
    this.fitView();
  }

  private startView(cwd: string): void {
    if (this.firstAttach) clearTimeout(this.firstAttach);
    this.view = runBaton({
      dir: cwd,
      env: this.opts.env,
      ...(this.opts.pluginDirs ? { pluginDirs: this.opts.pluginDirs } : {}),
      warn: (w) => this.opts.log(`warning: ${w}`),
      hosted: {
        input: this.vt.input as unknown as NodeJS.ReadStream,
        output: this.vt.output as unknown as NodeJS.WriteStream,
        author: () => (this.typing ?? this.lastTyping)?.author,
        detach: () => {
          // C-b d detaches the client that typed it; the others stay.
          const c = this.typing;
          if (c) this.sendExit(c, { reason: 'detached' });
        },
        onStart: (app, tabs) => {
          this.app = app;
          this.tabs = tabs;
          this.fitCaps();
        },
        afterQuit: (note) => {
          this.quitNote = note;
        },
        needsYou: (n, settings) => this.tellClients(n, settings),
        said: (text) => this.opts.log(`said: ${text.replace(/\s+/g, ' ')}`),
      },
    });
    this.view.then(
      () => this.end('baton quit', { reason: 'quit', ...(this.quitNote ? { message: this.quitNote } : {}) }),
      (e: unknown) => {
        this.opts.log(`the view failed: ${(e as Error).stack ?? String(e)}`);
        void this.end('the view failed', { reason: 'server-exit', message: (e as Error).message });
      },
    );
  }

  /**
   * A tab needs the user: each attached client's terminal is told once, in what it shows
   * (its own hello says what it is), even one too congested to be drawn on right now.
   */
  private tellClients(n: Notification, settings: NotifySettings): void {
    for (const c of this.clients) {
      const h = c.hello;
      const bytes = notificationBytes(n, settings, { term: h.term, termProgram: h.termProgram, lcTerminal: h.lcTerminal, vteVersion: h.vteVersion });
      if (bytes) c.socket.write(encodeFrame(FRAME.output, Buffer.from(bytes, 'utf8')));
    }
  }

  /** The index of the tab `tab` names (its number from 1, or its title), -1 when none does. */
  private tabIndex(tab: string): number {
    const app = this.app;
    if (!app) return -1;
    const n = Number(tab);
    return /^\d+$/.test(tab) && n >= 1 && n <= app.tabs.length ? n - 1 : app.tabs.findIndex((t) => t.label === tab);
  }

  private selectTab(tab: string): void {
    const i = this.tabIndex(tab);
    if (i >= 0) this.app?.select(i);
  }

  private noSuchTab(tab: string): Refusal {
    const tabs = this.listing().map((t) => `${t.index}:${t.label}`);
    return {
      message: `no tab ${JSON.stringify(tab)} in this baton server; ${tabs.length ? `its tabs: ${tabs.join(', ')}` : 'it has no tabs'}`,
      hint: "`baton attach -t N` takes a tab's number or its title, as `baton ls` lists them; `baton attach` shows the tab in front",
      code: 2,
    };
  }

  private listing(): TabListing[] {
    return this.app ? tabList(this.app, this.tabs, this.clients.size) : [];
  }

  private workingTabs(): string[] {
    return this.listing()
      .filter((t) => t.status === 'working' || t.status === 'approval')
      .map((t) => `${t.index}:${t.label}`);
  }

  /** Ends the view (every tab's program), tells the clients, stops listening. */
  end(why: string, notice: ExitNotice = { reason: 'server-exit', message: why }): Promise<void> {
    this.ending ??= (async () => {
      this.opts.log(`ending: ${why}`);
      if (this.firstAttach) clearTimeout(this.firstAttach);
      for (const c of [...this.clients]) this.sendExit(c, notice);
      if (this.app) await this.app.quit().catch(() => undefined);
      await this.view?.catch(() => undefined);
      await new Promise<void>((r) => (this.net ? this.net.close(() => r()) : r()));
      try {
        unlinkSync(this.opts.place.path);
      } catch {
        // Gone already.
      }
      releaseLock(this.opts.place.lock);
      this.resolveDone();
    })();
    return this.ending;
  }
}
