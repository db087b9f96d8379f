// One ACP session that lives as long as its holder (a tab): the agent is spawned once as its
// own process group, initialized, and given one session (session/new, or session/load or
// session/resume of an earlier one, whose replayed history is observed and never emitted),
// then any number of prompts, one at a time. Every update is passed on raw (for a view) and
// as normalized transcript events (one AcpEventMapper per turn). Permission requests go to
// the holder, which answers when the user does; cancel answers every open request with
// `cancelled`, as the protocol asks, and the session takes the next prompt. The client side
// is served honestly: fs within the session's directory only, terminals as real processes
// with a byte limit. It never leaves the agent or its helpers running after dispose().

import { BatonError, EXIT } from '../errors.js';
import type { ProcessGroup } from '../proc/index.js';
import type { TranscriptEvent } from './api.js';
import { endAgent, keepStderr, spawnAgent } from './acp-agent-process.js';
import type {
  AcpClient,
  InitializeResponse,
  PromptResponse,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionModeState,
  SessionUpdate,
} from './acp-client.js';
import { AcpEventMapper } from './acp-events.js';
import { agentModelId, type ModelControl, modelControl } from './acp-models.js';
import { loginHintFrom } from './acp-harness.js';
import { BATON_VERSION } from './acp-probe.js';
import { findExecutable } from './find-executable.js';
import type { AcpAgentDecl } from './validate.js';

/** How long starting the agent and opening its session may take. */
const OPEN_TIMEOUT_MS = 120_000;
/** How long a cancelled turn's agent has to end the commands it runs in baton's terminals before baton ends them. */
const CANCEL_GRACE_MS = 2000;
/**
 * Gemini CLI announces each change of its approval mode in band, as a message chunk of its own
 * ("[MODE_UPDATE] autoEdit"), in a turn or out of one: its UI state, which baton shows as the
 * mode's notice, not something the agent said to the user.
 */
const MODE_ANNOUNCEMENT = /^\[MODE_UPDATE\] \S+$/;

/**
 * What a session/load replays of the history. An agent may go on replaying after it has
 * answered the load (Gemini CLI 0.61 streams it without awaiting), so these are dropped
 * until baton sends the first prompt, not only until the answer.
 */
const REPLAYED = new Set(['user_message_chunk', 'agent_message_chunk', 'agent_thought_chunk', 'tool_call', 'tool_call_update', 'plan']);

/** How the session was opened: a new one, or an earlier one continued. */
export type SessionOpening = 'new' | 'load' | 'resume';

export type PermissionAnswer = { optionId: string } | 'cancelled';

export interface AcpSessionOptions {
  cwd: string;
  /** The user's environment (the declaration's additions are applied over it). */
  env: NodeJS.ProcessEnv;
  /** The agent's session to continue (session/load, else session/resume); a new one when it cannot. */
  resume?: string;
  model?: string;
  /** A live update of the session (never one of a load's replay). */
  onUpdate(update: SessionUpdate): void;
  /** The same, normalized for the transcript; approvals too. */
  onEvent(event: TranscriptEvent): void;
  /** The agent asks permission: resolve with the option the user chose (or cancelled). */
  onPermission(request: RequestPermissionRequest): Promise<PermissionAnswer>;
  /** The agent's process ended (after dispose() too). */
  onExit?(why: string): void;
  /** Asked before every client file write: a reason refuses it (plan mode). */
  refuseWrite?(path: string): string | undefined;
  /** The agent changed its own mode (current_mode_update), e.g. leaving plan when the user agreed to a plan. */
  onModeChange?(modeId: string): void;
  /** How the session was opened, said just before its `session` event. */
  onOpened?(how: SessionOpening): void;
}

interface OpenRequest {
  request: RequestPermissionRequest;
  resolve(r: RequestPermissionResponse): void;
}

export class AcpSession {
  sessionId = '';
  /** Whether `resume` was honoured. */
  resumed = false;
  opened: SessionOpening = 'new';
  init: InitializeResponse | undefined;
  /** How the model is changed in this session, as the agent advertised it (session/new or session/load), if at all. */
  models: ModelControl | undefined;
  /** The modes the agent advertised for this session (session/new or session/load), if any. */
  modes: SessionModeState | undefined;
  private mapper: AcpEventMapper | undefined;
  /** The session's running cost as last reported, so each turn's own cost can be told apart. */
  private lastUsage: SessionUpdate | undefined;
  private live = false;
  /** A load's replay may still arrive: conversation updates are dropped until the first prompt. */
  private replaying = false;
  private turn: Promise<PromptResponse> | undefined;
  private readonly open = new Set<OpenRequest>();
  private disposed = false;

  private constructor(
    readonly title: string,
    private readonly group: ProcessGroup,
    private readonly client: AcpClient,
    private readonly opts: AcpSessionOptions,
    private readonly stderrHint: () => string | undefined,
  ) {}

  /** Starts the agent and opens the session. BatonError (exit 3 or 4) when it cannot. */
  static async start(decl: AcpAgentDecl, opts: AcpSessionOptions): Promise<AcpSession> {
    const title = decl.title ?? decl.name;
    const env = { ...opts.env, ...(decl.env ?? {}) };
    const path = findExecutable(decl.command, env, opts.cwd);
    if (!path) throw new BatonError(`${title} is not installed (no ${decl.command} on PATH)`, EXIT.agentNotInstalled, decl.installHint);
    const { AcpClient: Client } = await import('./acp-client.js');
    const group = await spawnAgent(decl, { cwd: opts.cwd, ...(opts.model ? { model: opts.model } : {}) }, path, env);
    const hint = keepStderr(group, title);
    let session: AcpSession | undefined;
    const client: AcpClient = new Client(group.child.stdout!, group.child.stdin!, {
      cwd: opts.cwd,
      env,
      fs: decl.fs !== false,
      terminal: decl.terminal !== false,
      fsRoot: opts.cwd,
      ...(opts.refuseWrite ? { refuseWrite: opts.refuseWrite } : {}),
      onUpdate: (sid, update) => session?.update(sid, update),
      onPermission: (req) => session!.permission(req),
    });
    session = new AcpSession(title, group, client, opts, hint);
    void group.exited.then((info) => {
      session!.answerAll();
      if (!session!.disposed) opts.onExit?.(info.signal ? `${title} was killed by ${info.signal}` : `${title} exited with code ${info.code}`);
    });
    try {
      await session.within(session.openSession(decl), OPEN_TIMEOUT_MS);
    } catch (err) {
      await session.dispose();
      throw session.explain(err, decl);
    }
    return session;
  }

  private async openSession(decl: AcpAgentDecl): Promise<void> {
    const { client, opts } = this;
    this.init = await client.initialize(BATON_VERSION);
    if (decl.authMethod) await client.authenticate(decl.authMethod);
    const caps = this.init.agentCapabilities ?? {};
    const how = opts.resume ? (caps.loadSession ? 'load' : caps.sessionCapabilities?.resume ? 'resume' : undefined) : undefined;
    if (opts.resume && how) {
      this.sessionId = opts.resume;
      try {
        const r = await (how === 'load' ? client.loadSession(opts.resume, opts.cwd) : client.resumeSession(opts.resume, opts.cwd));
        this.modes = r.modes ?? undefined;
        this.models = modelControl(r);
        this.resumed = true;
        this.opened = how;
        this.replaying = how === 'load';
      } catch (err) {
        opts.onEvent({ type: 'notice', text: `${this.title} could not continue session ${opts.resume} (${reason(err)}); started a new one` });
      }
    } else if (opts.resume) {
      opts.onEvent({ type: 'notice', text: `${this.title} cannot continue a session over ACP; started a new one` });
    }
    if (!this.resumed) {
      const r = await client.newSession(opts.cwd);
      this.sessionId = r.sessionId;
      this.modes = r.modes ?? undefined;
      this.models = modelControl(r);
    }
    // The load's replay (plain microtask chains) is done by the next macrotask.
    await new Promise((r) => setImmediate(r));
    this.live = true;
    opts.onOpened?.(this.opened);
    opts.onEvent({ type: 'session', agentSession: this.sessionId });
  }

  private update(sid: string, update: SessionUpdate): void {
    if (sid !== this.sessionId || this.disposed) return;
    if (update.sessionUpdate === 'usage_update') this.lastUsage = update;
    if (update.sessionUpdate === 'current_mode_update') {
      if (this.modes) this.modes = { ...this.modes, currentModeId: update.currentModeId };
      if (this.live) this.opts.onModeChange?.(update.currentModeId);
    }
    if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text' && MODE_ANNOUNCEMENT.test(update.content.text)) return;
    // A load's replay: baton has this history already.
    if (!this.live || (this.replaying && REPLAYED.has(update.sessionUpdate))) return;
    this.opts.onUpdate(update);
    this.mapper?.update(update);
  }

  private permission(request: RequestPermissionRequest): Promise<RequestPermissionResponse> {
    this.mapper?.beforeApproval(request.toolCall.toolCallId, request.toolCall);
    return new Promise((resolve) => {
      const entry: OpenRequest = {
        request,
        resolve: (r) => {
          if (!this.open.delete(entry)) return;
          this.recordDecision(request, r);
          resolve(r);
        },
      };
      this.open.add(entry);
      void this.opts.onPermission(request).then(
        (a) => entry.resolve(a === 'cancelled' ? { outcome: { outcome: 'cancelled' } } : { outcome: { outcome: 'selected', optionId: a.optionId } }),
        () => entry.resolve({ outcome: { outcome: 'cancelled' } }),
      );
    });
  }

  private recordDecision(request: RequestPermissionRequest, r: RequestPermissionResponse): void {
    const tc = request.toolCall;
    const what = tc.title ?? tc.kind ?? 'a tool call';
    const picked = r.outcome.outcome === 'selected' ? request.options.find((o) => o.optionId === (r.outcome as { optionId: string }).optionId) : undefined;
    const decision = !picked ? 'cancelled' : picked.kind.startsWith('allow') ? 'allowed' : 'denied';
    const how = picked ? `${picked.name} (${picked.kind})` : 'cancelled';
    this.opts.onEvent({ type: 'approval', toolCallId: tc.toolCallId, decision, detail: `${what}: ${how}` });
    // A rejected call never runs: its result is recorded now, in order (acp-events.ts rejected).
    if (decision === 'denied') this.mapper?.rejected(tc.toolCallId, how);
  }

  /** session/set_mode: one of the modes the agent advertised. Rejects when the agent refuses it. */
  async setMode(modeId: string): Promise<void> {
    await this.client.setMode(this.sessionId, modeId);
    if (this.modes) this.modes = { ...this.modes, currentModeId: modeId };
  }

  /**
   * Changes the model in this running session: session/set_config_option where the agent
   * advertised a model option, else session/set_model. Rejects when the agent advertised
   * neither or refuses. Resolves to the agent's own id of the model now running.
   */
  async setModel(model: string): Promise<string> {
    const control = this.models;
    if (!control) throw new Error(`${this.title} offers no model change in a running session`);
    const id = agentModelId(control.ids, model);
    if (control.via === 'config') await this.client.setConfigOption(this.sessionId, control.configId, id);
    else await this.client.setModel(this.sessionId, id);
    this.models = { ...control, current: id };
    return id;
  }

  /** Permission requests the agent is waiting on. */
  pending(): RequestPermissionRequest[] {
    return [...this.open].map((o) => o.request);
  }

  /** What a client terminal the agent started has printed so far. */
  terminalOutput(terminalId: string): string | undefined {
    return this.client.terminals.outputOf(terminalId);
  }

  get busy(): boolean {
    return this.turn !== undefined;
  }

  /** One turn (`sent` goes to the agent; `text`, the user's own words, to the transcript): resolves with the agent's answer once it ends (cancelled turns too). */
  async prompt(text: string, sent: string = text): Promise<PromptResponse> {
    if (this.turn) throw new BatonError(`${this.title} is still working on the last message`, EXIT.refused);
    const mapper = new AcpEventMapper(this.opts.onEvent, { terminalOutput: (id) => this.client.terminals.outputOf(id) });
    if (this.lastUsage) mapper.observe(this.lastUsage);
    this.mapper = mapper;
    this.opts.onEvent({ type: 'user_text', text });
    this.replaying = false;
    const reply = this.client.prompt(this.sessionId, sent);
    this.turn = reply;
    try {
      const response = await Promise.race([reply, this.group.exited.then((info) => Promise.reject(info))]);
      mapper.finish(response.usage);
      if (response.stopReason === 'cancelled') this.opts.onEvent({ type: 'notice', text: 'turn cancelled' });
      else if (response.stopReason !== 'end_turn') this.opts.onEvent({ type: 'notice', text: `${this.title} stopped: ${response.stopReason}` });
      return response;
    } catch (err) {
      const text = this.failure(err);
      this.opts.onEvent({ type: 'error', text });
      mapper.finish();
      return { stopReason: 'refusal' } as PromptResponse;
    } finally {
      this.turn = undefined;
    }
  }

  /**
   * session/cancel: every open permission request is answered `cancelled` first, as the
   * protocol asks. A command the agent still runs in one of baton's terminals when the turn
   * has not ended CANCEL_GRACE_MS later is ended by baton (its process group): an agent that
   * waits for it would otherwise hold the turn for as long as the command runs.
   */
  async cancel(): Promise<void> {
    this.answerAll();
    if (this.sessionId) await this.client.cancel(this.sessionId).catch(() => {});
    const turn = this.turn;
    if (!turn) return;
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([
      turn.then(
        () => true,
        () => true,
      ),
      new Promise<false>((r) => (timer = setTimeout(() => r(false), CANCEL_GRACE_MS))),
    ]);
    clearTimeout(timer);
    if (!ended && this.turn === turn) await Promise.all(this.client.terminals.running().map((id) => this.client.terminals.kill(id).catch(() => {})));
  }

  private answerAll(): void {
    for (const o of [...this.open]) o.resolve({ outcome: { outcome: 'cancelled' } });
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.answerAll();
    await endAgent(this.client, this.group);
  }

  private within<T>(p: Promise<T>, ms: number): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const out = Promise.race([
      p,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms))),
      this.group.exited.then((info) => Promise.reject(info)),
    ]);
    return out.finally(() => clearTimeout(timer));
  }

  private failure(err: unknown): string {
    const info = err as { code?: unknown; signal?: unknown } | null;
    if (info && 'signal' in info && ('code' in info || info.signal)) {
      const how = info.signal ? `was killed by ${String(info.signal)}` : `exited with code ${String(info.code)}`;
      const said = this.stderrHint();
      return `${this.title} ${how} during the turn${said ? `\n${said}` : ''}`;
    }
    const e = err as { message?: unknown; code?: unknown };
    return `${this.title} failed: ${String(e?.message ?? err)}${typeof e?.code === 'number' ? ` (${e.code})` : ''}`;
  }

  private explain(err: unknown, decl: AcpAgentDecl): BatonError {
    if (err instanceof BatonError) return err;
    if ((err as { code?: unknown })?.code === -32000)
      return new BatonError(`${this.title} needs a login`, EXIT.agentFailed, loginHintFrom(decl, this.init?.authMethods));
    return new BatonError(
      `${this.title} could not open a session: ${this.failure(err).replace(`${this.title} failed: `, '')}`,
      EXIT.agentFailed,
      this.stderrHint(),
    );
  }
}

/** An agent's error as a person can read it: JSON-RPC's generic message with the agent's details (Gemini CLI: "Internal error" and why). */
function reason(err: unknown): string {
  const e = err as { message?: unknown; data?: unknown } | null;
  const message = String(e?.message ?? err);
  const data = e?.data as { details?: unknown } | string | undefined;
  const details = typeof data === 'string' ? data : typeof data?.details === 'string' ? data.details : undefined;
  return details && !message.includes(details) ? `${message}: ${details}` : message;
}
