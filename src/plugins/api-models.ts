// The driver contract's part for models: the list an agent can run (the picker, `baton
// agents --models`) and a model change in a tab's running session (changeModelInTab).
// Re-exported by api.ts, the module drivers are written against; it imports nothing of api.ts
// (which imports it), so its options state the user's environment themselves.

/** One model an agent can run, as its CLI takes it (`--model ID`). */
export interface ModelInfo {
  id: string;
  /** What the CLI calls it, when that differs from the id. */
  name?: string;
  description?: string;
}

/** The models an agent can run, and where that list came from. */
export interface ModelList {
  models: ModelInfo[];
  /** The model the CLI runs when baton names none (its own setting or default), when known. */
  current?: string;
  /**
   * `acp`: the agent's own `session/new` answer; `cli`: the CLI asked for its catalog
   * (codex debug models); `table`: a table in the driver, which can be stale (the CLI may
   * take more, or newer, names than it lists).
   */
  source: 'acp' | 'cli' | 'table';
  /** Where the list comes from, in a few words for the user (a table's CLI version, the command asked). */
  note?: string;
}

export interface ModelListOptions {
  /** The user's environment, passed through unchanged to the CLI (as api.ts's DriverEnv). */
  env: NodeJS.ProcessEnv;
  cwd: string;
  account?: string;
  /** Ask the CLI again rather than use what was cached for this build. */
  refresh?: boolean;
}

export interface ModelChangeOptions {
  /** The session the conversation records for the tab's run (a view's id). */
  session: string;
  model: string;
  env: NodeJS.ProcessEnv;
  /** The conversation's dir, where the session runs (claude finds its log by it). */
  cwd?: string;
  /** The baton account the session runs under (absent: the CLI's own configuration). */
  account?: string;
  write(data: string): void;
  /**
   * The tab's visible screen as plain text lines, as its emulator has it now: for a CLI whose
   * model dialog must be seen open before it is typed into (the confirmation still comes from
   * the CLI's own files where it writes one).
   */
  screen(): string[];
  /** How long to wait for the program to answer. */
  timeoutMs: number;
}

export type ModelChangeResult = { kind: 'changed' } | { kind: 'unsupported'; why: string } | { kind: 'refused'; why: string };
