// The generic ACP harness: any agent that speaks the Agent Client Protocol on stdio,
// declared by command + args (config/harness-registry.json, a drop-in, or a built-in
// driver that picks ACP as its headless path), becomes a HarnessDriver. One headless turn
// = spawn the agent as its own process group, initialize, session new/load/resume (or
// fork, when the agent advertises session/fork), prompt, and end the whole group. Permission requests follow baton's policy: denied
// unless the user said --yes. The client file system is served inside the turn's directory only. A driver that can follow the agent's own session log may
// have the agent ended only once that log shows the turn (some agents save it a moment
// after answering). It never leaves the agent or its helpers running, and never turns a
// replayed history (session/load) into new events.

import { BatonError, EXIT } from '../errors.js';
import {
  ResumeFailedError,
  type DetectResult,
  type IngestOptions,
  type Ingestor,
  type DriverDefinition,
  type DriverEnv,
  type HeadlessResult,
  type HeadlessTurn,
  type LaunchOptions,
  type LaunchSpec,
} from './api.js';
// acp-client.js (and with it the SDK, ~0.5 s to import) loads only when a turn runs, so
// loading the registry for `baton agents` or `baton brief` does not pay for it.
import type { AcpClient, AuthMethod, InitializeResponse, PromptResponse, RequestPermissionRequest, RequestPermissionResponse } from './acp-client.js';
import { AcpEventMapper } from './acp-events.js';
import { acpModelList } from './acp-models.js';
import { acpOffersFork, BATON_VERSION } from './acp-probe.js';
import { findExecutable, npmPackageVersion, probeVersion } from './find-executable.js';
import type { ProcessGroup } from '../proc/index.js';
import { endAgent, keepStderr, spawnAgent, Stop, TurnStops } from './acp-agent-process.js';
import type { AcpAgentDecl } from './validate.js';

export type { AcpAgentDecl } from './validate.js';

/** How long a cancelled turn may take to wind down before its group is ended. */
const CANCEL_GRACE_MS = 2000;
/** How long a finished turn may take to show up in the agent's own session log. */
const LOG_SETTLE_MS = 5000;

function agentEnv(decl: AcpAgentDecl, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, ...(decl.env ?? {}) };
}

export async function detectAcpAgent(decl: AcpAgentDecl, opts: DriverEnv): Promise<DetectResult> {
  const env = agentEnv(decl, opts.env);
  const path = findExecutable(decl.command, env);
  const base: DetectResult = { installed: !!path, installHint: decl.installHint };
  if (decl.loginHint) base.loginHint = decl.loginHint;
  if (!path) return base;
  base.path = path;
  // The package's own record first: no start of the agent (and the adapters print no version).
  const version =
    (decl.npmPackage ? npmPackageVersion(path, decl.npmPackage) : undefined) ??
    (decl.versionArgs ? await probeVersion(path, decl.versionArgs, env) : undefined);
  if (version) base.version = version;
  return base;
}

/** What to do about a login, from the auth methods the agent advertised in `initialize` and the declaration's hint. */
export function loginHintFrom(decl: AcpAgentDecl, methods: readonly AuthMethod[] | undefined): string {
  const parts: string[] = [];
  if (decl.loginHint) parts.push(decl.loginHint);
  for (const m of methods ?? []) {
    const term = m as AuthMethod & { type?: string; args?: string[] };
    if (term.type === 'terminal') parts.push(`run \`${[decl.command, ...(term.args ?? [])].join(' ')}\` (${m.name})`);
    else parts.push(m.description ? `${m.name}: ${m.description}` : m.name);
  }
  return parts.length ? parts.join('; ') : `log in to ${decl.title ?? decl.name} the way its own documentation says, then retry`;
}

/** A JSON-RPC error from the agent (the SDK's RequestError), told by shape to keep the SDK lazy. */
function rpcError(e: unknown): { code: number; message: string } | undefined {
  const x = e as { name?: unknown; code?: unknown; message?: unknown } | null;
  return x && x.name === 'RequestError' && typeof x.code === 'number' ? { code: x.code, message: String(x.message) } : undefined;
}

const isAuthError = (e: unknown) => rpcError(e)?.code === -32000;

export interface AcpTurnOptions {
  /**
   * The agent's own session log, followed the way the driver's ingest follows it. After a
   * turn that ended normally the agent is ended only once this log shows the turn's end
   * (at most 5 s): Qwen Code 0.15 writes its reply there a moment after answering and loses
   * it when ended first, and a later session/load would then miss it too.
   */
  sessionLog?: (opts: IngestOptions) => Promise<Ingestor>;
}

/** Resolves true once `follow` shows a turn end of `opts.agentSession` after `opts.since`, false after `ms`. */
async function loggedTurnEnd(follow: NonNullable<AcpTurnOptions['sessionLog']>, opts: Omit<IngestOptions, 'onEvent'>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  let seen!: () => void;
  const ended = new Promise<boolean>((resolve) => {
    seen = () => resolve(true);
    timer = setTimeout(() => resolve(false), ms);
  });
  let ingestor: Ingestor | undefined;
  try {
    ingestor = await follow({ ...opts, onEvent: (e) => e.type === 'turn_end' && seen() });
    return await ended;
  } finally {
    clearTimeout(timer);
    await ingestor?.dispose();
  }
}

/** One headless turn against an ACP agent. Throws BatonError (exit 3 or 4) on failure. */
export async function runAcpTurn(decl: AcpAgentDecl, turn: HeadlessTurn, opts: AcpTurnOptions = {}): Promise<HeadlessResult> {
  const since = new Date();
  const title = decl.title ?? decl.name;
  const env = agentEnv(decl, turn.env);
  const path = findExecutable(decl.command, env, turn.cwd);
  if (!path) throw new BatonError(`${title} is not installed (no ${decl.command} on PATH)`, EXIT.agentNotInstalled, decl.installHint);
  const { AcpClient: Client } = await import('./acp-client.js');
  const group = await spawnAgent(decl, turn, path, env);
  const stderrHint = keepStderr(group, title);
  const stops = new TurnStops(turn, group);
  const progress: TurnProgress = { live: false, resumed: false };
  const { client, mapper } = connect(Client, decl, turn, env, group, progress);
  const run: AcpRun = { decl, turn, title, env, group, client, mapper, progress, step: stops.step, stderrHint };
  try {
    await openSession(run);
    const response = await prompt(run);
    if (opts.sessionLog && response.stopReason === 'end_turn') await awaitLoggedTurn(run, opts.sessionLog, since);
    mapper.finish(response.usage);
    if (response.stopReason === 'refusal') turn.onEvent({ type: 'error', text: `${title} refused the request`, code: 'refusal' });
    else if (response.stopReason === 'max_tokens' || response.stopReason === 'max_turn_requests') {
      turn.onEvent({ type: 'notice', text: `${title} stopped early: ${response.stopReason}` });
    }
    return { agentSession: progress.sessionId, resumed: progress.resumed, stopReason: response.stopReason };
  } catch (err) {
    if (err instanceof Stop && err.why === 'abort' && progress.sessionId && progress.prompting)
      return await cancelTurn(run, progress.sessionId, progress.prompting);
    throw await explain(run, err);
  } finally {
    stops.dispose();
    await endAgent(client, group);
  }
}

/** What the steps of one turn learn as they go, read by the client's callbacks meanwhile. */
interface TurnProgress {
  /** Set before a load, so the updates replaying the old history are recognised (and observed, not emitted). */
  sessionId?: string;
  /** Updates are new events only once the prompt is sent. */
  live: boolean;
  resumed: boolean;
  init?: InitializeResponse;
  prompting?: Promise<PromptResponse>;
}

/** One turn's agent and connection, shared by its steps. */
interface AcpRun {
  decl: AcpAgentDecl;
  turn: HeadlessTurn;
  title: string;
  env: NodeJS.ProcessEnv;
  group: ProcessGroup;
  client: AcpClient;
  mapper: AcpEventMapper;
  progress: TurnProgress;
  /** Races a request against the turn's stops (timeout, abort, the agent's exit). */
  step: <T>(p: Promise<T>) => Promise<T>;
  stderrHint: () => string | undefined;
}

/** The ACP connection over the agent's stdio, its updates mapped to transcript events once the turn is live. */
function connect(Client: typeof AcpClient, decl: AcpAgentDecl, turn: HeadlessTurn, env: NodeJS.ProcessEnv, group: ProcessGroup, progress: TurnProgress) {
  const mapper = new AcpEventMapper(turn.onEvent, { terminalOutput: (id) => client.terminals.outputOf(id) });
  const client: AcpClient = new Client(group.child.stdout!, group.child.stdin!, {
    cwd: turn.cwd,
    env,
    fs: decl.fs !== false,
    terminal: decl.terminal !== false,
    // The turn's directory is all of the file system baton serves an agent.
    fsRoot: turn.cwd,
    onUpdate(sid, update) {
      if (sid !== progress.sessionId) return;
      if (progress.live) mapper.update(update);
      else mapper.observe(update);
    },
    onPermission: (req) => answerPermission(req, turn, mapper),
  });
  return { client, mapper };
}

/** baton's policy: a tool call is allowed only when the user said --yes; either way the answer is an event. */
function answerPermission(req: RequestPermissionRequest, turn: HeadlessTurn, mapper: AcpEventMapper): RequestPermissionResponse {
  const toolCall = req.toolCall;
  mapper.beforeApproval(toolCall.toolCallId, toolCall);
  const what = toolCall.title ?? toolCall.name ?? toolCall.kind ?? 'a tool call';
  const pick = (kinds: string[]) => kinds.map((k) => req.options.find((o) => o.kind === k)).find(Boolean);
  if (turn.yes) {
    const opt = pick(['allow_once', 'allow_always']);
    turn.onEvent({
      type: 'approval',
      toolCallId: toolCall.toolCallId,
      decision: opt ? 'allowed' : 'denied',
      detail: opt ? `${what}: allowed (--yes)` : `${what}: the agent offered no way to allow it`,
    });
    return opt ? { outcome: { outcome: 'selected', optionId: opt.optionId } } : { outcome: { outcome: 'cancelled' } };
  }
  const opt = pick(['reject_once', 'reject_always']);
  turn.onEvent({
    type: 'approval',
    toolCallId: toolCall.toolCallId,
    decision: 'denied',
    detail: `${what}: denied. A headless turn does not ask; run again with --yes to allow tool use.`,
  });
  return opt ? { outcome: { outcome: 'selected', optionId: opt.optionId } } : { outcome: { outcome: 'cancelled' } };
}

/** initialize, authenticate, and the session the turn runs in: a fork, a load or resume, or a new one. */
async function openSession(run: AcpRun): Promise<void> {
  const { decl, turn, title, client, progress, step } = run;
  progress.init = await step(client.initialize(BATON_VERSION));
  if (decl.authMethod) await step(client.authenticate(decl.authMethod));
  const caps = progress.init.agentCapabilities ?? {};
  if (turn.resume && turn.fork) {
    // Never a load or a fresh session in its place: the caller falls back to a replay.
    if (!caps.sessionCapabilities?.fork) throw new ResumeFailedError(turn.resume, `${title} does not offer session/fork`);
    try {
      progress.sessionId = (await step(client.forkSession(turn.resume, turn.cwd))).sessionId;
      progress.resumed = true;
    } catch (err) {
      throw resumeFailure(err, turn.resume);
    }
  } else if (turn.resume) {
    const how = caps.loadSession ? 'load' : caps.sessionCapabilities?.resume ? 'resume' : undefined;
    if (!how) {
      turn.onEvent({ type: 'notice', text: `${title} cannot resume a session over ACP; started a new one` });
    } else {
      try {
        progress.sessionId = turn.resume;
        await step(how === 'load' ? client.loadSession(turn.resume, turn.cwd) : client.resumeSession(turn.resume, turn.cwd));
        progress.resumed = true;
      } catch (err) {
        // Nothing reached the model yet: let baton decide (it replays with the full brief).
        throw resumeFailure(err, turn.resume);
      }
    }
  }
  if (!progress.resumed) progress.sessionId = (await step(client.newSession(turn.cwd))).sessionId;
  turn.onEvent({ type: 'session', agentSession: progress.sessionId! });
  if (turn.model && !decl.modelArg)
    turn.onEvent({ type: 'notice', text: `${title} takes no model choice from baton; it used its own default instead of ${turn.model}` });
  if (turn.yes && decl.yesMode) await step(client.setMode(progress.sessionId!, decl.yesMode));
}

/** A failed fork, load or resume as a ResumeFailedError; the turn's stops and a login are passed on as they are. */
function resumeFailure(err: unknown, resume: string): unknown {
  if (err instanceof Stop || isAuthError(err)) return err;
  const rpc = rpcError(err);
  return new ResumeFailedError(resume, rpc ? `${rpc.message} (${rpc.code})` : ((err as Error)?.message ?? String(err)));
}

/** Sends the prompt, the turn now live, and waits for the agent's answer. */
async function prompt(run: AcpRun): Promise<PromptResponse> {
  const { turn, client, progress, step } = run;
  // Notifications already read (a load's replay) finish their handlers before the turn
  // goes live: they are plain microtask chains, done by the next macrotask.
  await new Promise((r) => setImmediate(r));
  progress.live = true;
  const sent = (progress.prompting = client.prompt(progress.sessionId!, turn.prompt));
  return step(sent).catch(async (err: unknown) => {
    // Node may report the exit before it has read the answer the agent wrote last.
    if (err instanceof Stop && err.why === 'exit') {
      const late = await Promise.race([sent.catch(() => undefined), new Promise<undefined>((r) => setTimeout(r, 300))]);
      if (late) return late;
    }
    throw err;
  });
}

/** Waits (a while) for the agent's own session log to show the turn, so ending the agent loses none of it. */
async function awaitLoggedTurn(run: AcpRun, sessionLog: NonNullable<AcpTurnOptions['sessionLog']>, since: Date): Promise<void> {
  const { turn, title, env, group, progress } = run;
  const where = { cwd: turn.cwd, env, agentSession: progress.sessionId!, since, ...(turn.account ? { account: turn.account } : {}) };
  // An agent that exits meanwhile has written all it will.
  const saved = await Promise.race([loggedTurnEnd(sessionLog, where, LOG_SETTLE_MS).catch(() => false), group.exited.then(() => true)]);
  if (!saved)
    turn.onEvent({
      type: 'notice',
      text: `${title} had not written this turn to its own session log ${LOG_SETTLE_MS / 1000} s after answering; it was ended anyway`,
    });
}

/** A turn cancelled while prompting: the agent is asked to cancel first, so it can save its session; the group ends anyway. */
async function cancelTurn(run: AcpRun, sessionId: string, prompting: Promise<PromptResponse>): Promise<HeadlessResult> {
  const { turn, title, client, progress } = run;
  await client.cancel(sessionId).catch(() => {});
  let grace: NodeJS.Timeout | undefined;
  const r = await Promise.race([
    // Qwen Code 0.15 ends a cancelled turn by failing the prompt: an answer all the same.
    prompting.catch(() => 'failed' as const),
    new Promise<undefined>((res) => {
      grace = setTimeout(() => res(undefined), CANCEL_GRACE_MS);
    }),
  ]);
  clearTimeout(grace);
  const confirmed = r === 'failed' || r?.stopReason === 'cancelled';
  turn.onEvent({
    type: 'notice',
    text: confirmed ? 'turn cancelled' : `turn cancelled; ${title} did not confirm within ${CANCEL_GRACE_MS / 1000} s and was stopped`,
  });
  return { agentSession: sessionId, resumed: progress.resumed, stopReason: (r === 'failed' ? undefined : r?.stopReason) ?? 'cancelled' };
}

/** A failed turn as the BatonError the user reads: what happened, and the agent's last words or what to do. */
async function explain(run: AcpRun, err: unknown): Promise<BatonError> {
  const { decl, turn, title, group, progress, stderrHint } = run;
  if (err instanceof BatonError) return err;
  if (err instanceof Stop && err.why === 'timeout') {
    return new BatonError(
      `${title} did not finish the turn within ${Math.round(turn.timeoutMs / 100) / 10} s; its processes were ended`,
      EXIT.agentFailed,
      stderrHint() ?? 'try again, or allow more time',
    );
  }
  if (err instanceof Stop && err.why === 'abort') return new BatonError(`the turn with ${title} was cancelled before it started`, EXIT.agentFailed);
  if (isAuthError(err)) return new BatonError(`${title} needs a login`, EXIT.agentFailed, loginHintFrom(decl, progress.init?.authMethods));
  // The connection closes a moment before the exit is reported: give it that moment.
  const info = err instanceof Stop ? err.info : await Promise.race([group.exited, new Promise<undefined>((r) => setTimeout(r, 500))]);
  if (info) {
    const how = info.signal ? `was killed by ${info.signal}` : `exited with code ${info.code}`;
    return new BatonError(`${title} ${how} during the turn`, EXIT.agentFailed, stderrHint());
  }
  const rpc = rpcError(err);
  const msg = rpc ? `${rpc.message} (${rpc.code})` : ((err as Error)?.message ?? String(err));
  return new BatonError(`${title} failed: ${msg}`, EXIT.agentFailed, stderrHint());
}

/** A driver for an ACP agent declared by command + args. */
export function acpDriver(decl: AcpAgentDecl): DriverDefinition {
  const title = decl.title ?? decl.name;
  const driver: DriverDefinition = {
    name: decl.name,
    title,
    families: decl.families ?? [],
    // fork: the agent decides (session/fork is advertised or not); canFork asks it.
    // tabSession false: a declared TUI command takes no session id, so a tab starts it with the brief.
    capabilities: { resume: true, fork: true, tabSession: false, tab: Boolean(decl.tui) },
    detect: (opts) => detectAcpAgent(decl, opts),
    canFork: (opts) => acpOffersFork(decl, opts),
    launch(opts: LaunchOptions): LaunchSpec {
      if (!decl.tui) {
        throw new BatonError(`${title} has no terminal UI of its own to open in a tab`, EXIT.badInput, `use \`baton chat --agent ${decl.name}\` to talk to it`);
      }
      return {
        command: decl.tui.command,
        args: [...(decl.tui.args ?? []), ...(opts.args ?? [])],
        env: { ...(decl.env ?? {}) },
        cwd: opts.cwd,
      };
    },
    headless: (turn) => runAcpTurn(decl, turn),
    acp: () => decl,
    models: (opts) => acpModelList(decl, opts),
  };
  if (decl.testedVersions) driver.testedVersions = decl.testedVersions;
  if (decl.defaultModel) driver.defaultModel = decl.defaultModel;
  return driver;
}
