// The harness driver contract: the only module a driver in plugins/ (built-in or drop-in)
// is written against. A driver is a plain object; registering it is all the loader does.
// It describes how to find, launch, follow and (headlessly) run one agent CLI, and turns
// whatever the CLI writes into the transcript's normalized events. It never touches the
// transcript, the TUI or the conversation itself.
// Two views of one driver: a DriverDefinition is what a plugin writes (fields with an
// obvious default may be left out); a HarnessDriver is what the rest of baton uses, made
// from it once by the registry (normalize-driver.ts) with every default filled in and the
// tested-version verdict added to what detect() finds. Its parts for a headless turn, for
// local model servers and for models are in api-headless.ts, api-local.ts and api-models.ts,
// re-exported here.

import { BatonError, EXIT } from '../errors.js';
import type { TranscriptEvent } from '../transcript/types.js';
import type { HeadlessResult, HeadlessTurn, PermissionMode } from './api-headless.js';
import type { LocalEndpointOptions, LocalEndpointSpec } from './api-local.js';
import type { ModelChangeOptions, ModelChangeResult, ModelList, ModelListOptions } from './api-models.js';
import type { AcpAgentDecl } from './acp-decl.js';

export type { TranscriptEvent, Usage } from '../transcript/types.js';
export { PERMISSION_MODES, ResumeFailedError, type HeadlessResult, type HeadlessTurn, type PermissionMode } from './api-headless.js';
export type { LocalEndpointOptions, LocalEndpointSpec } from './api-local.js';
export { LOCAL_REQUEST_TIMEOUT_MS } from './api-local.js';
export type { ModelChangeOptions, ModelChangeResult, ModelInfo, ModelList, ModelListOptions } from './api-models.js';

/**
 * Linux refuses a single argv string over 128 KiB (MAX_ARG_STRLEN). baton never puts a
 * brief or a message on a command line (`ps` shows argv to every user); this is the size up
 * to which a first message is pasted into a CLI whole, past which the brief goes as a 0600
 * file that the pasted message points at.
 */
export const ARGV_PROMPT_LIMIT = 100 * 1024;

export interface DetectResult {
  installed: boolean;
  version?: string;
  /** Absolute path of the executable that would run. */
  path?: string;
  /** What to do when the CLI needs a login (shown, never acted on). */
  loginHint?: string;
  /** The command that installs the CLI, for the "not installed" error. */
  installHint: string;
}

/** What baton's registry gives for a driver: its DetectResult, plus the tested-range verdict. */
export interface Detection extends DetectResult {
  /**
   * Set (to the driver's `testedVersions`) when the installed version is outside that range.
   * Computed by the registry, never by a driver.
   */
  untestedVersion?: string;
}

export interface DriverEnv {
  /** The user's environment, passed through unchanged to the CLI. */
  env: NodeJS.ProcessEnv;
}

export interface LaunchOptions extends DriverEnv {
  cwd: string;
  model?: string;
  /**
   * A baton account (capabilities.accounts): the CLI's config isolated in
   * `$BATON_HOME/accounts/<driver>/<account>` (kit's ensureAccountDir) through its own
   * variable (CLAUDE_CONFIG_DIR, CODEX_HOME, ...). Absent: the CLI's own configuration, which
   * baton calls the account `default` (never passed as a name).
   */
  account?: string;
  /** Native session id to resume. */
  resume?: string;
  /** With `resume`: fork the native session instead of continuing it. */
  fork?: boolean;
  /** Extra arguments (config/harness-registry.json `defaults.<name>.args`, then the user's), placed where the CLI takes options. */
  args?: string[];
  /** The permission mode to start in (launch flags, or a baton view's own); absent: the CLI's own default. */
  mode?: PermissionMode;
}

/**
 * How to start the CLI's own terminal UI in a tab: argv and environment only. It starts with
 * no prompt: baton pastes the first message (with the brief, when one goes) once the CLI's
 * screen reads idle, so nothing private is ever on a command line.
 */
export interface LaunchSpec {
  command: string;
  args: string[];
  /** Additions to the user's environment (a driver may leave it out: none). */
  env: Record<string, string>;
  cwd: string;
  /**
   * The native session this run is bound to, when the launch fixed it: a fresh id the CLI is
   * told to use (claude, gemini and qwen `--session-id`, a session opencode was made to
   * import), the session it resumes, or the new id a fork is told to write. baton's ingest
   * then follows exactly this session. Absent when the CLI chooses its own id: ingest must
   * then find the run's own session through `IngestOptions.processGroup` (codex), never by
   * which log appeared first.
   */
  session?: string;
}

export type AgentStatus = 'idle' | 'working' | 'approval' | 'exited';

/** A running follower of a CLI's own session log. */
export interface Ingestor {
  /** Native session id, once known. */
  readonly agentSession: string | undefined;
  /** Log records of shapes this driver does not know, skipped. */
  readonly skipped: number;
  dispose(): Promise<void>;
}

export interface IngestOptions extends DriverEnv {
  cwd: string;
  /**
   * Follow exactly this native session: the launch's `session`, or the session the run
   * resumes. Its log may not exist yet (most CLIs write it at the first message).
   */
  agentSession?: string;
  /**
   * The process group of the run's CLI in its terminal (the PTY's session leader, so also its
   * session id), while it runs; undefined once it is gone or where there is none. For CLIs
   * that cannot be told a session id: the session is the one whose files that process holds
   * open (codex's thread lock). Absent outside a terminal (tests of a log alone).
   */
  processGroup?: () => number | undefined;
  /** Records stamped before this are a resumed session's history: they give no events. */
  since: Date;
  account?: string;
  onEvent(event: TranscriptEvent): void;
  /**
   * The run's own session cannot be told with certainty (two candidate logs, a process that
   * holds none of its CLI's sessions where they must be): the ingest follows nothing from
   * then on and says why here, once, in words for the user. Nothing from a log that may be
   * another run's is ever emitted.
   */
  onUnbound?(reason: string): void;
}

/**
 * A log that may belong to another run: two candidate logs where a run's own session was to
 * be told apart by timing alone (drop-ins that still do), or a process holding more than one.
 */
export class AmbiguousSessionError extends BatonError {
  constructor(message: string, hint?: string) {
    super(message, EXIT.agentFailed, hint);
    this.name = 'AmbiguousSessionError';
  }
}

export interface ReadSessionOptions extends DriverEnv {
  /** The CLI's own session id (what it prints, or what `--resume` takes). */
  session: string;
  /** Where the session ran, for CLIs that file sessions by directory (claude). */
  cwd: string;
  account?: string;
}

/** A whole native session read back from the CLI's own log, for `baton transcript import`. */
export interface ImportedSession {
  agentSession: string;
  model?: string;
  /** The directory the session ran in, when the log says. */
  cwd?: string;
  /** In order, user messages included (as `user_text`). */
  events: TranscriptEvent[];
  /** Records of shapes the driver does not know, skipped. */
  skipped: number;
  /** The log file read, shown to the user as "the previous agent's own log". */
  logPath?: string;
}

export interface Capabilities {
  /** Can continue its own earlier session natively. Default: false. */
  resume: boolean;
  /**
   * Can fork its own session natively (claude --fork-session, opencode --fork, ...): launch
   * and headless honour `fork`. When it depends on the agent (an ACP agent advertises
   * session/fork or not), the driver also has `canFork`. Default: false.
   */
  fork: boolean;
  /**
   * The CLI's own terminal UI can open a session by id, so a tab's `launch` honours
   * `resume` and `fork`. Default: true. A driver whose tab program cannot (an ACP agent's
   * declared TUI) sets false, and a tab then starts it fresh with the brief.
   */
  tabSession: boolean;
  /**
   * Has a terminal UI of its own to open in a tab. Default: true. An ACP agent declared
   * without one sets false: the picker leaves it out (its launch would refuse).
   */
  tab: boolean;
  /**
   * The CLI's terminal UI takes a bracketed paste followed by Enter in the same write as a
   * submit of the pasted text (measured per CLI: test/real/tui-delivery.test.ts). Default:
   * false: baton presses Enter once the screen shows the paste was taken in, as some TUIs
   * take an Enter that arrives with the paste as part of it, or as a new line.
   */
  enterWithPaste?: boolean;
  /**
   * Honours `account` everywhere it is given (launch, headless, ingest, readSession, login,
   * loginStatus): each account's config, credentials and sessions live apart. Default:
   * false, and baton then refuses an account for the driver rather than run it unisolated.
   */
  accounts: boolean;
  /**
   * `headless` honours HeadlessTurn.mode (`accept-edits`, `plan`): natively (a CLI flag) or
   * emulated (the plan instruction in the prompt, writes denied). Default: false.
   */
  permissionModes?: boolean;
  /**
   * `launch` honours LaunchOptions.mode (the CLI's own launch flags, or baton's view).
   * Default: false, and baton then refuses a tab a mode rather than start it in another.
   */
  launchModes?: boolean;
  /**
   * A resumed session runs the model it ran last, whatever `model` its launch names (opencode's
   * TUI): baton then changes the model in the running session (changeModelInTab) once the CLI
   * is ready, before the message goes. Default: false.
   */
  resumeKeepsModel?: boolean;
}

/** Which account a call is about: a baton account's name, or none for the CLI's own configuration. */
export interface AccountOptions extends DriverEnv {
  account?: string;
}

/** Whether an account is logged in, read from what the CLI itself stores (never by asking a server). */
export interface LoginStatus {
  loggedIn: boolean;
  /** How, in a few words: "Claude account (OAuth)", "API key (auth.json)", "ANTHROPIC_API_KEY in the environment". */
  method?: string;
  /** The file the answer was read from (or would be, when logged out). */
  source?: string;
}

/** What `launch()` of a DriverDefinition returns: `env` may be left out (no additions). */
export type LaunchSpecDefinition = Omit<LaunchSpec, 'env'> & { env?: Record<string, string> };

/**
 * A driver as a plugin writes it. Left out: `families` (none), any capability (no resume,
 * no fork, tabSession true), a launch's `env` (none). Capability fields baton does not know
 * are ignored (a drop-in written for an older or newer baton still loads).
 */
export interface DriverDefinition extends DriverParts {
  /** Model families this driver serves (see config/harness-registry.json). Default: none. */
  families?: string[];
  capabilities?: Partial<Capabilities>;
  /**
   * Finds the CLI. The registry compares the version found with `testedVersions` itself
   * (Detection.untestedVersion); a driver never does.
   */
  detect(opts: DriverEnv): Promise<DetectResult>;
  launch(opts: LaunchOptions): Promise<LaunchSpecDefinition> | LaunchSpecDefinition;
}

/** A driver as baton uses it: a DriverDefinition with every default filled in. */
export interface HarnessDriver extends DriverParts {
  families: string[];
  capabilities: Capabilities;
  /** The driver's detect() with the tested-range verdict added. */
  detect(opts: DriverEnv): Promise<Detection>;
  launch(opts: LaunchOptions): Promise<LaunchSpec> | LaunchSpec;
}

/** What a DriverDefinition and a HarnessDriver have alike. */
export interface DriverParts {
  /** Short stable id: `claude`, `codex`, `my-agent`. */
  name: string;
  /** What a person calls it: `Claude Code`. */
  title: string;
  /** Versions this driver was tested with, as a human-readable range (`baton agents` warns outside it). */
  testedVersions?: string;
  defaultModel?: string;
  /** Follow the CLI's own session log; absent when the CLI keeps none baton can read. */
  ingest?(opts: IngestOptions): Promise<Ingestor>;
  /** Status from the screen when events do not say (last resort). */
  statusFromScreen?(lines: readonly string[]): AgentStatus | undefined;
  /**
   * What the user left in the CLI's own input box, read from its screen: '' when the box is
   * empty (a placeholder it shows is not text), undefined when the screen does not show the
   * box as the driver knows it. baton pastes a compose-bar message only into an empty box:
   * pasted after a draft, the CLI would take both as one message.
   */
  inputDraft?(lines: readonly string[]): string | undefined;
  /**
   * One turn without a PTY. It must answer: emit text that is not blank, a tool call or an
   * approval request. A turn that settles with none of these (only reasoning, usage, notices
   * or errors) is a failed turn for baton (exit 4, an error entry).
   */
  headless?(turn: HeadlessTurn): Promise<HeadlessResult>;
  /** Reads a whole native session from the CLI's own log (unknown session: BatonError exit 2). */
  readSession?(opts: ReadSessionOptions): Promise<ImportedSession>;
  /**
   * Ends, by pid (never by name), processes a PTY-hosted run left behind after baton ended
   * it (codex's TUI daemon). Called once the run's process group is gone. Returns the pids.
   */
  endLeftovers?(opts: DriverEnv & { account?: string; since?: Date }): Promise<number[]>;
  /**
   * How to point the CLI at a local model server (`baton chat --local`): the arguments and
   * variables that make it send `model` to `endpoint` over `api`, forced over the user's own
   * settings, with a long request timeout (local prompts are large). Absent: the driver cannot.
   */
  localEndpoint?(opts: LocalEndpointOptions): LocalEndpointSpec;
  /** Where the CLI keeps a session's own log, if it is still on disk (for the brief's pointer). */
  sessionLogPath?(opts: ReadSessionOptions): Promise<string | undefined>;
  /**
   * Whether a native fork is possible now, for drivers whose `capabilities.fork` depends on
   * the agent (the generic ACP harness asks the agent whether it offers session/fork).
   * Absent: `capabilities.fork` is the answer.
   */
  canFork?(opts: DriverEnv & { cwd: string; account?: string }): Promise<boolean>;
  /**
   * For CLIs that file sessions by directory (claude: projects/<slug of cwd>/<id>.jsonl):
   * makes session `session`, run in `cwd`, findable from `toCwd` as well (a copy; the
   * original is not touched), so a fork into a git worktree can fork it natively there.
   * Unknown session: BatonError exit 2. Returns `undo`, which removes the copy it made (a
   * fork that fails later leaves nothing behind). Drivers without it cannot carry a session
   * to another directory, and a fork into a worktree replays the conversation instead.
   */
  carrySession?(opts: ReadSessionOptions & { toCwd: string }): Promise<{ undo(): Promise<void> }>;
  /**
   * How to run this agent over ACP for a whole tab (baton's own view of it, with approvals
   * asked of the user): the declaration the generic ACP harness spawns, with the env for this
   * cwd, model and account. Absent: the agent speaks no ACP baton knows.
   */
  acp?(opts: DriverEnv & { cwd: string; model?: string; account?: string }): AcpAgentDecl;
  /**
   * Whether `account` is logged in, by what the CLI itself stores there (its credentials
   * file, its settings) and the environment it would run in. Reads only; no process, no network.
   */
  loginStatus?(opts: AccountOptions): Promise<LoginStatus>;
  /**
   * The CLI's own login for `account`: argv + env, run in the user's terminal (or a tab).
   * It must never take a secret on its command line.
   */
  login?(opts: AccountOptions & { cwd: string }): LaunchSpecDefinition;
  /**
   * The models this agent can run (`baton agents --models`, the picker): from the CLI itself
   * where it says (an ACP agent's session/new, a catalog command), else a documented table.
   * Starts no turn and reaches no server; may start the CLI briefly (cache it per build).
   * Absent: baton offers only the configured or default model.
   */
  models?(opts: ModelListOptions): Promise<ModelList>;
  /**
   * Changes the model of the agent running in a tab in place, in its running session (baton's
   * ACP view: session/set_config_option or session/set_model; Claude Code's TUI: `/model`
   * typed at its idle prompt; opencode's TUI: its model dialog), for a switch to another model
   * of the same agent. `write` types into the tab's program. `unsupported`: the running
   * session offers no such change (the switch relaunches on the same session instead);
   * `refused`: it offers one and the change failed. Absent: always a relaunch.
   */
  changeModelInTab?(opts: ModelChangeOptions): Promise<ModelChangeResult>;
}
