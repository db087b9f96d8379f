// A message of baton's still being typed into the CLI: a large one goes into its PTY only as
// fast as the CLI reads it (a 280 KB message took ~20 s into Codex, which redraws its input box
// as it reads), and the tab showed nothing meanwhile. This follows the terminal's input
// progress from the moment baton wrote a message until it is all in, for the tab's snapshot
// (TabSnapshot.sending) and so the compose bar can say it. Input the user typed or pasted into
// the pane is not a message of baton's: it is not followed here.

import type { Disposable } from '../lifecycle/index.js';
import type { AgentTerminal, InputProgress } from './agent-terminal.js';

export class TypingIn implements Disposable {
  /** baton wrote a message that had not gone in when the write returned. */
  private following = false;
  private last: InputProgress | undefined;
  private readonly sub: Disposable | undefined;

  constructor(
    private readonly terminal: AgentTerminal,
    private readonly changed: () => void,
  ) {
    this.sub = terminal.onInput?.((p) => {
      if (!this.following) return;
      if (p.done) this.following = false;
      this.last = p.done ? undefined : p;
      this.changed();
    });
  }

  /**
   * baton has just written a message into the terminal: if the CLI has not taken all of it
   * yet, its progress is followed until it has. (Input still waiting when the write returned
   * did not go in at once: the terminal tells its end, so this is never left following.)
   */
  typed(): void {
    if (this.terminal.inputProgress?.()) this.following = true;
  }

  /** How much of the message is in, once the terminal has told (it tells a write that takes a while). */
  get progress(): { written: number; total: number } | undefined {
    return this.last && { written: this.last.written, total: this.last.total };
  }

  dispose(): void {
    this.sub?.dispose();
  }
}
