// A real CLI's TUI (a tuiSession's TestTerminal) as the AgentTerminal a TabSession types into
// and reads, for the real suites that drive baton's Delivery straight at a CLI (tui-delivery,
// draft-joined): every write is kept in `writes`, output is heard as the terminal parses it.
import type { AgentTerminal } from '../../src/conversation/agent-terminal.js';
import { Emitter } from '../../src/lifecycle/index.js';
import type { TuiRun } from './fixture-capture.js';

/** The TUI in a TestTerminal, as a tab's AgentTerminal is to a TabSession: what Delivery types into and reads. */
export function agentTerminal(run: TuiRun, writes: string[]): AgentTerminal & { dispose(): void } {
  const output = new Emitter<void>();
  const off = run.tui.onParsed(() => output.fire());
  return {
    launch: async () => undefined,
    write: (data) => {
      writes.push(data);
      run.tui.type(data);
    },
    bracketedPaste: () => run.tui.term.modes.bracketedPasteMode,
    stop: async () => undefined,
    isRunning: () => run.tui.exitCode === undefined,
    screenLines: () => run.tui.rows(),
    onExit: new Emitter<void>().event,
    onOutput: output.event,
    dispose: () => {
      off();
      output.dispose();
    },
  };
}
