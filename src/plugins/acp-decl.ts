// What declares an agent that speaks ACP on stdio (the generic harness runs it; a driver's
// acp() answers with one, and a drop-in may be nothing but one): its command, what baton
// offers it, how its version, models and modes are found. A part of the driver contract
// (api.ts), kept apart so validate.ts, which checks declarations, and api.ts, which
// validate.ts reads, do not import each other. Types only.

export interface AcpAgentDecl {
  /** Short stable id, like a driver name. */
  name: string;
  title?: string;
  /** Program that speaks ACP on stdio, looked up on PATH unless it contains a slash. */
  command: string;
  args?: string[];
  /** Additions to the user's environment for this agent. */
  env?: Record<string, string>;
  /** Offer the client file system (fs/read_text_file, fs/write_text_file). Default true. */
  fs?: boolean;
  /** Offer client terminals (terminal/*). Default true. */
  terminal?: boolean;
  families?: string[];
  /** The command that installs the agent, shown when it is missing. */
  installHint: string;
  loginHint?: string;
  /** Arguments (after `command`) that print the version, e.g. ["--version"]. */
  versionArgs?: string[];
  /**
   * The npm package `command` comes from: its version is read from that package's
   * package.json where the command resolves into it (an adapter that prints no version).
   */
  npmPackage?: string;
  testedVersions?: string;
  defaultModel?: string;
  /** Flag that selects a model, e.g. "--model": `--model M` is appended to args. */
  modelArg?: string;
  /** Session mode to switch to when tool use is allowed (`--yes`), e.g. codex-acp's "full-access". */
  yesMode?: string;
  /** Auth method id to `authenticate` with after initialize, when the agent needs the call. */
  authMethod?: string;
  /** The agent's own terminal UI for a PTY tab, when it has one. */
  tui?: { command: string; args?: string[] };
}
