// A real CLI's TUI (a tuiSession's TestTerminal) as the AgentTerminal a TabSession types into
// and reads, for the real suites that drive baton's Delivery straight at a CLI (tui-delivery,
// draft-joined): every write is kept in `writes`, output is heard as the terminal parses it.
// withDelivery() is those suites' common frame: a fresh TUI of one CLI with a Delivery typing
// into it as a tab session's does, ended and its home removed after the suite's steps.
import type { AgentTerminal } from '../../src/conversation/agent-terminal.js';
import { Delivery, type Pending } from '../../src/conversation/delivery.js';
import { Emitter } from '../../src/lifecycle/index.js';
import type { HarnessDriver } from '../../src/plugins/api.js';
import { cliEnv } from './cli-env.js';
import { tuiSession, type TuiRun } from './fixture-capture.js';
import type { TuiCli } from './real-tui.js';

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

export interface DeliveryOptions {
  /** As a tab session waits for the log to show a message, before the retry Enter. */
  timeoutMs: number;
  /** The paste and its Enter in one write (else Enter once the screen shows the paste). */
  enterWithPaste: boolean;
  /** Each user message the CLI's log shows, with what Delivery gave back for it (undefined: not one it waited for). */
  onClaim?: (logged: string, claimed: Pending | undefined) => void;
}

/**
 * A fresh TUI of `cli` (its driver's launch() in a real PTY against the fake LLM at
 * `fakeUrl`, the driver's ingest following its log) and baton's Delivery typing into it as a
 * tab session's does: Enter unless the screen shows an approval, and the ingest's user
 * messages claiming what it waits for. `steps` get the run, the Delivery and every write.
 */
export async function withDelivery(
  cli: TuiCli,
  driver: HarnessDriver,
  fakeUrl: string,
  opts: DeliveryOptions,
  steps: (run: TuiRun, delivery: Delivery, writes: string[]) => Promise<void>,
): Promise<void> {
  const env = cliEnv(cli, { fakeUrl });
  try {
    await tuiSession(driver, env, async (run) => {
      const writes: string[] = [];
      const term = agentTerminal(run, writes);
      const delivery = new Delivery(term, opts.timeoutMs, {
        mayPressEnter: () => driver.statusFromScreen!(run.tui.rows()) !== 'approval',
        enterWithPaste: () => opts.enterWithPaste,
      });
      let seen = 0;
      const claims = setInterval(() => {
        for (const e of run.events.slice(seen)) {
          if (e.type !== 'user_text') continue;
          const claimed = delivery.claim(e.text);
          opts.onClaim?.(e.text, claimed);
        }
        seen = run.events.length;
      }, 20);
      try {
        await steps(run, delivery, writes);
      } finally {
        clearInterval(claims);
        delivery.cancel();
        term.dispose();
      }
    });
  } finally {
    await env.cleanup();
  }
}
