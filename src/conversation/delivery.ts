// Submitting a message to a CLI running in a terminal, and knowing it arrived: the text is
// pasted (bracketed when the CLI asked for it), Enter is pressed, and delivery is confirmed
// only when the CLI's own log shows the message (the ingest hands it to claim(), which
// gives back what to record with it, so the entry lands in the log's order). If it
// does not show within the timeout, Enter is pressed once more — the text may still sit in
// the CLI's input box — and after that the caller is told it failed. The text itself is
// never typed twice.

import type { AgentTerminal } from './agent-terminal.js';

/**
 * Some TUIs take an Enter that arrives in the same read as a paste as part of the paste, and
 * some drop one that comes while they still draw the pasted text (claude, busy or on a loaded
 * machine): Enter waits until the screen has been quiet this long after the paste...
 */
const ENTER_AFTER_PASTE_MS = 120;
/** ...but never longer than this. */
const ENTER_AFTER_PASTE_MAX_MS = 1500;

const normalize = (s: string) => s.replace(/\s+/g, ' ').trim();

/** What to record with the message once the log shows it. */
export interface DeliveryMeta {
  checkpoint?: string;
  switchId?: string;
  /** false: baton's own text (a brief sent alone at start-up); seen in the log, recorded as no user message. */
  record?: boolean;
}

export interface Pending {
  text: string;
  meta: DeliveryMeta;
  resolve: (ok: boolean) => void;
}

/**
 * Resolves once the program has written nothing for `quietMs`, or after `maxMs`. With
 * `afterOutput`, the quiet time starts only with its first output (a CLI still starting up).
 */
export function quietTerminal(terminal: AgentTerminal, quietMs: number, maxMs: number, afterOutput = false): Promise<void> {
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(timer);
      clearTimeout(cap);
      off();
      resolve();
    };
    const restart = () => {
      clearTimeout(timer);
      timer = setTimeout(done, quietMs);
    };
    const off = terminal.onOutput(restart);
    const cap = setTimeout(done, maxMs);
    if (!afterOutput) restart();
  });
}

export class Delivery {
  private pending: Pending[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly terminal: AgentTerminal,
    private readonly timeoutMs: number,
  ) {}

  /** Expect `text` in the log without typing it (it went in through argv at launch). */
  expect(text: string, meta: DeliveryMeta = {}): Promise<boolean> {
    return this.wait(text, meta, false);
  }

  /** Types `text`; `logged` is what the CLI's log will show (default: the text itself). */
  async submit(text: string, meta: DeliveryMeta = {}, logged = text): Promise<boolean> {
    // Waiting starts before the first byte goes out: a fast CLI logs the message at once.
    const done = this.wait(logged, meta, true);
    const body = text.replace(/\r?\n/g, '\r');
    const drawn = quietTerminal(this.terminal, ENTER_AFTER_PASTE_MS, ENTER_AFTER_PASTE_MAX_MS);
    this.terminal.write(this.terminal.bracketedPaste() ? `\x1b[200~${body}\x1b[201~` : body);
    await drawn;
    this.terminal.write('\r');
    return done;
  }


  /**
   * Called with each user message the CLI's log shows. True when it is the echo of a
   * message we are waiting for (the log may hold more around it: a brief before it).
   */
  claim(logged: string): Pending | undefined {
    const seen = normalize(logged);
    const i = this.pending.findIndex((p) => {
      const want = normalize(p.text);
      return seen === want || seen.endsWith(want) || (want.length > 200 && seen.includes(want.slice(-200)));
    });
    if (i < 0) return undefined;
    const [p] = this.pending.splice(i, 1);
    p!.resolve(true);
    return p;
  }

  cancel(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const p of this.pending.splice(0)) p.resolve(false);
  }

  private wait(text: string, meta: DeliveryMeta, retryEnter: boolean): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const entry: Pending = { text, meta, resolve };
      this.pending.push(entry);
      const giveUp = () => {
        const i = this.pending.indexOf(entry);
        if (i >= 0) {
          this.pending.splice(i, 1);
          resolve(false);
        }
      };
      this.after(this.timeoutMs, () => {
        if (!this.pending.includes(entry)) return;
        if (!retryEnter) return giveUp();
        this.terminal.write('\r');
        this.after(this.timeoutMs, giveUp);
      });
    });
  }

  private after(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

}
