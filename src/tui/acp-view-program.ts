// The program of an ACP view tab (`baton acp-view`, run in the tab's PTY): one ACP session
// for the life of the tab, its history drawn from the view's own log when the tab is
// reopened (the agent's replay of it is never shown), an input line for messages (typed, or
// pasted and entered by baton's delivery), approval cards answered by a key, Esc to cancel
// the turn (every open card answered `cancelled`), messages typed during a turn sent after
// it. Everything it shows and every event for the transcript goes to the view's log first.
// It draws through `out` only and ends the agent when it ends.

import { userAuthor } from '../conversation/index.js';
import type { PermissionMode, TranscriptEvent } from '../plugins/api.js';
import type { RequestPermissionRequest } from '../plugins/acp-client.js';
import { autoAnswer, batonModeOf, changesSomething, modeLabel, nativeModeId, nextMode } from '../plugins/acp-modes.js';
import { withPlanInstruction } from '../plugins/plan-mode.js';
import { AcpSession, type PermissionAnswer, type SessionOpening } from '../plugins/acp-session.js';
import { lastAgentSession, parseModelRequest, readViewLog, ViewLogWriter } from '../plugins/acp-view-log.js';
import { bareModelName } from '../plugins/acp-models.js';
import { viewBrief } from './acp-view-brief.js';
import type { AcpAgentDecl } from '../plugins/validate.js';
import { permissionKeys } from './acp-view-cards.js';
import { type Key, KeyReader } from './acp-view-keys.js';
import { ViewModel, type ViewRecord } from './acp-view-model.js';
import { type Footer, ViewScreen } from './acp-view-screen.js';

const FRAME_MS = 16;
/** While a turn runs, the screen is redrawn this often (a client terminal's output grows without an update). */
const TICK_MS = 500;

export interface ViewOutput {
  write(bytes: string): void;
  cols(): number;
  rows(): number;
}

export interface ViewProgramOptions {
  decl: AcpAgentDecl;
  cwd: string;
  env: NodeJS.ProcessEnv;
  model?: string;
  viewId: string;
  logPath: string;
  /** An agent session to continue that this view's log does not name (one a headless turn left). */
  agentSession?: string;
  /** The permission mode to start in (default: the agent's own). */
  mode?: PermissionMode;
  out: ViewOutput;
  /** How often frames may be drawn while updates stream in, and redrawn while a turn runs (tests slow them down). */
  pacing?: { frameMs: number; tickMs: number };
}

export class AcpViewProgram {
  readonly model = new ViewModel();
  private readonly screen: ViewScreen;
  private readonly log: ViewLogWriter;
  private readonly keys = new KeyReader();
  private readonly waiters = new Map<string, (a: PermissionAnswer) => void>();
  private readonly author: string;
  private session: AcpSession | undefined;
  private input = '';
  private readonly queue: string[] = [];
  private note: string | undefined;
  private state: Footer['state'] = 'starting';
  private timer: NodeJS.Timeout | undefined;
  private drawnAt = 0;
  /** How long the pending frame's timer was set to wait (0: it draws after this tick). */
  private timerWait = 0;
  private ticker: NodeJS.Timeout | undefined;
  private full = true;
  private ended = false;
  /** baton's permission mode, and whether baton emulates it (the agent has no such mode of its own). */
  private mode: PermissionMode = 'default';
  private emulated = false;
  /** Shift-Tab reaches full-access only in a tab that started in it. */
  private fullAccessOffered = false;
  /** A mode or model change on its way to the agent (another, and the next message, wait for it). */
  private changing: Promise<void> = Promise.resolve();
  /** How the agent's session was opened (for the log's `acp` line). */
  private opened: SessionOpening | undefined;
  /** The model the session runs, as the status line names it (baton's name: Qwen Code's ACP id bare). */
  private modelName: string | undefined;
  /** The conversation so far, for an agent that could not continue its session: sent with the next message. */
  private brief: string | undefined;

  constructor(private readonly opts: ViewProgramOptions) {
    this.screen = new ViewScreen(this.model, { terminalOutput: (id) => this.session?.terminalOutput(id) });
    this.author = userAuthor(opts.env).name;
    this.log = new ViewLogWriter(opts.logPath);
  }

  /** Draws the history, starts the agent and opens (or continues) its session. */
  async start(): Promise<void> {
    const old = readViewLog(this.opts.logPath);
    for (const l of old) if (l.rec) this.model.apply(l.rec as ViewRecord);
    // A turn the last run of this view never finished is over.
    if (this.model.working) this.model.apply({ t: 'turn_end', stopReason: 'cancelled' });
    const resume = lastAgentSession(old) ?? this.opts.agentSession;
    this.draw(true);
    try {
      this.session = await AcpSession.start(this.opts.decl, {
        cwd: this.opts.cwd,
        env: this.opts.env,
        ...(resume ? { resume } : {}),
        ...(this.opts.model ? { model: this.opts.model } : {}),
        onUpdate: (update) => this.record({ t: 'update', update }),
        onEvent: (e) => this.event(e),
        onPermission: (req) => this.ask(req),
        onExit: (why) => this.gone(why),
        refuseWrite: () => (this.mode === 'plan' ? 'plan mode: baton refuses every file write' : undefined),
        onModeChange: (id) => this.agentChangedMode(id),
        onOpened: (how) => (this.opened = how),
      });
      const models = this.session.models;
      const running = models?.current ?? this.opts.model;
      if (running) this.modelName = bareModelName(running);
      this.log.models({ via: models?.via ?? 'none', ...(this.modelName ? { current: this.modelName } : {}) });
      if (resume && !this.session.resumed) {
        this.brief = viewBrief(this.model.blocks, this.title);
        if (this.brief) this.record({ t: 'notice', text: `baton gives ${this.title} the conversation so far with your next message` });
      }
      const current = this.session.modes ? batonModeOf(this.session.modes.currentModeId) : undefined;
      if (current) this.mode = current;
      const wanted = this.opts.mode ?? current ?? 'default';
      this.fullAccessOffered = wanted === 'full-access';
      if (wanted !== current || !this.session.modes) await this.setMode(wanted, wanted !== 'default');
      this.state = 'ready';
      const first = this.queue.shift();
      if (first !== undefined) void this.turn(first);
    } catch (err) {
      this.gone((err as Error).message + ((err as { hint?: string }).hint ? `\n${(err as { hint?: string }).hint}` : ''));
      return;
    }
    this.draw();
  }

  /** Bytes typed into the tab. */
  feed(data: string): void {
    for (const key of this.keys.read(data)) this.key(key);
    this.draw();
  }

  /** The terminal changed size: everything is drawn again at the new width. */
  resized(): void {
    this.draw(true);
  }

  async dispose(): Promise<void> {
    this.ended = true;
    clearTimeout(this.timer);
    clearInterval(this.ticker);
    await this.session?.dispose();
  }

  private key(key: Key): void {
    if (key.k === 'apc') {
      const asked = parseModelRequest(key.text);
      if (asked) void this.setModel(asked.nonce, asked.model);
      return;
    }
    if (key.k === 'backtab') {
      if (this.state === 'ready') void this.setMode(nextMode(this.mode, this.fullAccessOffered), true);
      return;
    }
    const open = this.model.openPermissions()[0];
    if (open) {
      if (key.k === 'escape' || key.k === 'interrupt') void this.cancel();
      else if (key.k === 'text') {
        const opt = permissionKeys(open.request.options).find((k) => k.key === key.text)?.option;
        if (opt) this.answer(open.request, opt.optionId);
      }
      // Nothing else reaches the input while a card waits: a stray key must not answer or type.
      return;
    }
    switch (key.k) {
      case 'text':
      case 'paste':
        this.input += key.text;
        return;
      case 'backspace':
        this.input = [...this.input].slice(0, -1).join('');
        return;
      case 'clear':
        this.input = '';
        return;
      case 'enter':
        if (this.input.trim()) this.submit(this.input);
        return;
      case 'escape':
      case 'interrupt':
        if (this.model.working) void this.cancel();
        else if (key.k === 'interrupt') this.input = '';
        return;
    }
  }

  private submit(text: string): void {
    if (this.state === 'gone') return;
    this.input = '';
    // Entered while the agent is still starting: sent once its session is open, as a message
    // typed during a turn is (a person's Enter on "starting…" was lost before).
    if (this.state !== 'ready' || this.session?.busy || this.queue.length) {
      this.queue.push(text);
      return;
    }
    void this.turn(text);
  }

  private async turn(text: string): Promise<void> {
    const session = this.session!;
    this.record({ t: 'user', text, author: this.author });
    this.ticker ??= setInterval(() => this.draw(), this.opts.pacing?.tickMs ?? TICK_MS);
    await this.changing;
    // Where plan mode is baton's, the agent hears it with every message (the refusals enforce it).
    let sent = this.mode === 'plan' && this.emulated ? withPlanInstruction(text) : text;
    if (this.brief) sent = `${this.brief}\n${sent}`;
    this.brief = undefined;
    const r = await session.prompt(text, sent);
    this.record({ t: 'turn_end', stopReason: r.stopReason, ...(r.usage ? { usage: r.usage } : {}) });
    clearInterval(this.ticker);
    this.ticker = undefined;
    const next = this.queue.shift();
    if (next !== undefined && !this.ended && this.state === 'ready') void this.turn(next);
  }

  private ask(request: RequestPermissionRequest): Promise<PermissionAnswer> {
    this.record({ t: 'permission', request });
    const answered = new Promise<PermissionAnswer>((resolve) => this.waiters.set(request.toolCall.toolCallId, resolve));
    const auto = autoAnswer(request, this.mode, this.emulated);
    if (auto) {
      this.answer(request, auto.optionId);
      this.record({ t: 'notice', text: `${auto.why}: ${request.toolCall.title ?? request.toolCall.kind ?? 'a tool call'}` });
    }
    return answered;
  }

  private answer(request: RequestPermissionRequest, chosen: string | undefined): void {
    let optionId = chosen;
    // In plan nothing that changes a file goes ahead, whatever was answered (a card opened before plan was set, too).
    if (this.mode === 'plan' && changesSomething(request) && request.options.find((o) => o.optionId === optionId)?.kind.startsWith('allow'))
      optionId = request.options.find((o) => o.kind.startsWith('reject'))?.optionId;
    const id = request.toolCall.toolCallId;
    this.record({ t: 'decision', toolCallId: id, ...(optionId ? { optionId } : {}) });
    const w = this.waiters.get(id);
    this.waiters.delete(id);
    w?.(optionId ? { optionId } : 'cancelled');
  }

  /**
   * Changes the permission mode: session/set_mode where the agent has the mode, else baton
   * emulates it; said in the view and, as a notice, in the transcript. Cards open when plan
   * begins are refused at once. The agent refusing the change leaves the mode as it was.
   */
  private setMode(mode: PermissionMode, announce: boolean): Promise<void> {
    this.changing = this.changing.then(async () => {
      const session = this.session;
      if (!session) return;
      const native = nativeModeId(session.modes?.availableModes, mode);
      if (native && native !== session.modes?.currentModeId) {
        try {
          await session.setMode(native);
        } catch (err) {
          this.record({ t: 'error', text: `${this.title} did not change to ${mode} mode: ${(err as Error)?.message ?? err}; still ${this.modeText()}` });
          return;
        }
      }
      this.mode = mode;
      this.emulated = !native;
      if (mode === 'full-access') this.fullAccessOffered = true;
      if (announce) this.event({ type: 'notice', text: `mode: ${this.modeText()}` });
      if (mode === 'plan') for (const card of this.model.openPermissions()) if (changesSomething(card.request)) this.answer(card.request, undefined);
    });
    return this.changing;
  }

  /**
   * Changes the model in the running session (the view driver asked, for a switch to another
   * model of this agent): session/set_config_option or session/set_model, whichever the agent
   * advertised (AcpSession.setModel). The outcome goes to the log for the driver, which waits
   * for it; the conversation records the new segment. Said in the view, never in the transcript.
   */
  private setModel(nonce: string, model: string): Promise<void> {
    this.changing = this.changing.then(async () => {
      const session = this.session;
      let why: string | undefined;
      if (!session || this.state !== 'ready') why = `${this.title} is not running`;
      else if (session.busy) why = `${this.title} is working`;
      else if (!session.models) why = `${this.title} offers no model change in a running session`;
      else {
        try {
          this.modelName = bareModelName(await session.setModel(model));
        } catch (err) {
          why = `${this.title} did not change to model ${model}: ${(err as Error)?.message ?? err}`;
        }
      }
      this.log.modelSet({ nonce, model, ok: !why, ...(why ? { why } : {}) });
      if (!why) this.record({ t: 'notice', text: `model: ${this.modelName}` });
      this.draw();
    });
    return this.changing;
  }

  /** The agent left or entered a mode itself (claude-code-acp leaves plan when the user accepts its plan). */
  private agentChangedMode(modeId: string): void {
    const mode = batonModeOf(modeId);
    if (!mode || mode === this.mode) return;
    this.mode = mode;
    this.emulated = false;
    this.event({ type: 'notice', text: `mode: ${this.modeText()} (set by ${this.title})` });
  }

  private modeText(): string {
    return modeLabel(this.mode, this.emulated);
  }

  private get title(): string {
    return this.opts.decl.title ?? this.opts.decl.name;
  }

  /** session/cancel, every open card answered `cancelled` first. */
  private async cancel(): Promise<void> {
    for (const card of this.model.openPermissions()) this.answer(card.request, undefined);
    await this.session?.cancel();
  }

  private event(e: TranscriptEvent): void {
    if (e.type === 'session') {
      this.log.agentSession(e.agentSession, this.opened);
      // The conversation knows this tab's session by the view's id, which a reopen continues.
      this.log.event({ type: 'session', agentSession: this.opts.viewId });
      return;
    }
    this.log.event(e);
    if (e.type === 'notice' && e.text !== 'turn cancelled') this.record({ t: 'notice', text: e.text });
    else if (e.type === 'error') this.record({ t: 'error', text: e.text });
  }

  private record(r: ViewRecord): void {
    this.log.record(r);
    this.model.apply(r);
    this.schedule(opensCard(r));
  }

  private gone(why: string): void {
    if (this.ended) return;
    this.state = 'gone';
    this.note = why;
    // Messages that were waiting go back to the input line, not lost with the agent.
    if (this.queue.length) this.input = [...this.queue.splice(0), this.input].filter(Boolean).join('\n');
    for (const [, w] of this.waiters) w('cancelled');
    this.waiters.clear();
    this.draw();
  }

  /**
   * A frame for what changed: at once (after the records of this tick) when none was drawn for
   * FRAME_MS; else at most one per FRAME_MS while updates stream in. A new card (`urgent`) is
   * drawn at once even so: the frame of the Enter that sent the message, or of the thought
   * just before the tool call, held it back up to FRAME_MS (p50 16 ms from the agent's
   * tool_call to the card on the user's screen in bench/acp-card.bench.ts), and cards come
   * a few per turn, never at a rate that needs pacing.
   */
  private schedule(urgent = false): void {
    if (this.timer && !(urgent && this.timerWait > 0)) return;
    clearTimeout(this.timer);
    this.timerWait = urgent ? 0 : Math.max(0, this.drawnAt + (this.opts.pacing?.frameMs ?? FRAME_MS) - Date.now());
    this.timer = setTimeout(() => this.draw(), this.timerWait);
  }

  private draw(full = false): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.ended) return;
    this.drawnAt = Date.now();
    const footer: Footer = { title: this.title, mode: this.modeText(), input: this.input, queued: this.queue.length, state: this.state };
    if (this.modelName) footer.model = this.modelName;
    if (this.note) footer.note = this.note;
    this.opts.out.write(this.screen.frame(this.opts.out.cols(), this.opts.out.rows(), footer, full || this.full));
    this.full = false;
  }
}

/** A record that puts a new card on the screen: a tool call announced, or a permission asked. */
function opensCard(r: ViewRecord): boolean {
  return r.t === 'permission' || (r.t === 'update' && r.update.sessionUpdate === 'tool_call');
}
