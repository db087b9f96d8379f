// What a conversation needs from the place its agent CLI runs (a TUI tab's PTY pane), as an
// interface the TUI implements: the conversation layer never sees blessed, node-pty or the
// emulator, which is what lets this boundary later move behind a socket.

import type { Event } from '../lifecycle/index.js';
import type { LaunchSpec } from '../plugins/api.js';

export interface TerminalLaunch extends LaunchSpec {
  /** Driver name, for the tab bar. */
  agent: string;
  model: string;
  title: string;
}

/** Input on its way into the program: bytes written of total, since nothing was waiting. */
export interface InputProgress {
  written: number;
  total: number;
  /** All of it is in (or dropped: the program is gone). */
  done: boolean;
}

export interface AgentTerminal {
  /** Runs the program in the tab, ending whatever ran there first; resolves once it is spawned. */
  launch(spec: TerminalLaunch): Promise<void>;
  /** Bytes typed into the program, unchanged, in order: what is written later never goes in before it. */
  write(data: string): void;
  /**
   * Input the program has not taken yet (it reads a large paste a piece at a time); undefined
   * when all of it is in. Absent: the terminal cannot tell.
   */
  inputProgress?(): InputProgress | undefined;
  /**
   * How far such input has got, for any write that did not go in at once: told once it has
   * taken a while, then a few times a second (never at every chunk), and when it is in (done).
   */
  readonly onInput?: Event<InputProgress>;
  /** Whether the program turned bracketed paste on (DECSET 2004). */
  bracketedPaste(): boolean;
  /** Ends the program: SIGTERM to its process group, SIGKILL after graceMs. Resolves once it is gone. */
  stop(graceMs: number): Promise<void>;
  isRunning(): boolean;
  /**
   * The running program's process group (it leads its PTY's session, so this is also its
   * session id); undefined when nothing runs. Ingest finds the session of a CLI that cannot be
   * told its id through it (the files that process holds open).
   */
  processGroup?(): number | undefined;
  /** The visible screen as plain text lines (for status heuristics). */
  screenLines(): string[];
  /**
   * The visible screen as plain text lines with faint (dim) cells blank: a TUI's placeholder or
   * suggestion in its empty input box is faint, a user's draft is not (a driver's inputDraft
   * reads these). Absent: screenLines is read instead.
   */
  inputLines?(): string[];
  /** The program exited on its own (or was stopped). */
  readonly onExit: Event<void>;
  /** The program's output was parsed onto the screen (once per chunk it wrote: cheap listeners only). */
  readonly onOutput: Event<void>;
}
