// Submitting a message to a CLI running in a terminal, and knowing it arrived: the text is
// pasted (bracketed when the CLI asked for it), Enter is pressed once the screen shows the
// CLI took the paste in (or, for a CLI known to take it so, in the same write as a bracketed
// paste: no moment between them for the CLI to misread), and delivery is confirmed only when the CLI's own log shows the
// message (the ingest hands it to claim(), which gives back what to record with it, so the
// entry lands in the log's order). If it does not show within the timeout (counted from when
// the message is all in: a large one goes in at the CLI's pace), Enter is pressed
// once more — the text may still sit in the CLI's input box — unless the screen now shows a
// dialog (an Enter would answer it), and after that the caller is told it failed.
// The text itself is never typed twice. A message given up on is still claimed if the log
// shows it later (the user pressed Enter in the pane, or the CLI took it late): recorded
// once, and the caller told. One given up on while it still shows on the screen (in the
// CLI's input box) holds back anything else baton would type there until it is gone.

import { DisposableStore, toDisposable } from '../lifecycle/index.js';
import type { UserAuthor } from '../transcript/types.js';
import type { AgentTerminal } from './agent-terminal.js';

/**
 * Some TUIs take an Enter that arrives in the same read as a paste as part of the paste, and
 * some (gemini: within 40 ms of handling the paste) turn it into a new line: Enter waits until
 * the screen shows the paste was taken in, and this long after...
 */
const ENTER_AFTER_PASTE_MS = 150;
/** ...but never longer than this for the screen to change. */
const ENTER_AFTER_PASTE_MAX_MS = 1500;
/** Messages given up on that a late claim can still find, newest kept. */
const LATE_KEPT = 16;

const normalize = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Text as a screen shows it, whatever the wrapping: no whitespace, no box-drawing borders. */
const squash = (s: string) => s.replace(/[\s\u2500-\u257f]+/g, '');
/** The end of a message, which is what an input box shows of it last. */
const NEEDLE_CHARS = 24;

/** How many times `needle` shows on the screen. */
function occurrences(lines: readonly string[], needle: string): number {
  if (!needle) return 0;
  const screen = squash(lines.join('\n'));
  let n = 0;
  for (let i = screen.indexOf(needle); i >= 0; i = screen.indexOf(needle, i + needle.length)) n++;
  return n;
}

/** What to record with the message once the log shows it. */
export interface DeliveryMeta {
  checkpoint?: string;
  switchId?: string;
  /** Who wrote it (undefined: the conversation's own user). */
  author?: UserAuthor;
  /** false: baton's own text (a brief sent alone at start-up); seen in the log, recorded as no user message. */
  record?: boolean;
}

export interface Pending {
  /** The message, as its log entry is expected to end (the user's words, without a brief). */
  text: string;
  /** What was typed for it (a brief before the message, or the message alone); undefined when nothing was (argv). */
  typed?: string;
  meta: DeliveryMeta;
  resolve: (ok: boolean) => void;
  /** Given up on before the log showed it: a claim now is a late one. */
  late?: boolean;
}

export interface DeliveryHooks {
  /** Whether Enter may be pressed now: false while the screen shows a dialog it would answer. */
  mayPressEnter?: () => boolean;
  /**
   * Whether the running CLI takes a bracketed paste and the Enter after it in one write as a
   * submit (its driver's capabilities.enterWithPaste). Otherwise Enter waits for the screen.
   */
  enterWithPaste?: () => boolean;
  /** The message was just written into the terminal (it may still be going in). */
  typed?: () => void;
}

/** A message given up on while it still showed on the screen: most likely in the CLI's input box. */
interface Leftover {
  pending: Pending;
  needle: string;
  /** How often its end showed on the screen before it was pasted. */
  baseline: number;
}

/**
 * Resolves once the program has written nothing for `quietMs`, or after `maxMs`. With
 * `afterOutput`, the quiet time starts only with its first output (a CLI still starting up).
 */
export function quietTerminal(terminal: AgentTerminal, quietMs: number, maxMs: number, afterOutput = false, owner?: DisposableStore): Promise<void> {
  return new Promise((resolve) => {
    // Its timers and subscription, ended when the wait ends, or early (resolving) with its owner.
    const wait = new DisposableStore();
    let quiet: NodeJS.Timeout | undefined;
    const cap = setTimeout(() => done(), maxMs);
    wait.add(
      toDisposable(() => {
        clearTimeout(quiet);
        clearTimeout(cap);
        resolve();
      }),
    );
    const done = () => (owner ? owner.delete(wait) : wait.dispose());
    // (Output comes a chunk at a time: the quiet timer is pushed back, not made anew.)
    const restart = () => (quiet ? quiet.refresh() : (quiet = setTimeout(done, quietMs)));
    wait.add(terminal.onOutput(restart));
    owner?.add(wait);
    if (!afterOutput) restart();
  });
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class Delivery {
  private pending: Pending[] = [];
  /** Given up on, still claimable: oldest first. */
  private late: Pending[] = [];
  private leftover: Leftover | undefined;
  /** Its timers and waits on the screen, ended by cancel(). */
  private readonly waits = new DisposableStore();

  constructor(
    private readonly terminal: AgentTerminal,
    private readonly timeoutMs: number,
    private readonly hooks: DeliveryHooks = {},
  ) {}

  /** Expect `text` in the log without typing it (it went in through argv at launch). */
  expect(text: string, meta: DeliveryMeta = {}): Promise<boolean> {
    return this.wait(text, meta, false);
  }

  /** Types `text`; `logged` is what the CLI's log will show (default: the text itself). */
  async submit(text: string, meta: DeliveryMeta = {}, logged = text): Promise<boolean> {
    // A message typed again supersedes the copy given up on: the new one is what the log will show.
    this.late = this.late.filter((p) => normalize(p.text) !== normalize(logged));
    const needle = squash(logged).slice(-NEEDLE_CHARS);
    const before = this.terminal.screenLines();
    const baseline = occurrences(before, needle);
    // Waiting starts before the first byte goes out: a fast CLI logs the message at once. Its
    // clock starts once the message is all in: a large one goes in at the CLI's pace (seconds),
    // and a clock started before would give it up (or press Enter again) while it still went in.
    let entry: Pending | undefined;
    let typed = () => {};
    const written = new Promise<void>((r) => (typed = r)).then(() => this.inputIn());
    const done = this.wait(
      logged,
      meta,
      true,
      (p) => {
        entry = p;
        p.typed = text;
      },
      written,
    );
    const body = text.replace(/\r?\n/g, '\r');
    if (this.terminal.bracketedPaste() && this.hooks.enterWithPaste?.()) {
      this.terminal.write(`\x1b[200~${body}\x1b[201~\r`);
      this.hooks.typed?.();
      typed();
    } else {
      this.terminal.write(this.terminal.bracketedPaste() ? `\x1b[200~${body}\x1b[201~` : body);
      this.hooks.typed?.();
      typed();
      await this.screenChanged(before.join('\n'), ENTER_AFTER_PASTE_MAX_MS);
      await sleep(ENTER_AFTER_PASTE_MS);
      if (entry && this.pending.includes(entry) && this.mayPressEnter()) this.terminal.write('\r');
    }
    const ok = await done;
    if (!ok && entry?.late && occurrences(this.terminal.screenLines(), needle) > baseline) {
      this.leftover = { pending: entry, needle, baseline };
    }
    return ok;
  }

  /**
   * The text of a message given up on that still shows on the screen (in the CLI's input
   * box, most likely): nothing else may be typed there until it is gone. Forgotten once it
   * no longer shows, or once the log shows it.
   */
  leftoverShowing(): string | undefined {
    const l = this.leftover;
    if (!l) return undefined;
    if (l.pending.late && this.late.includes(l.pending) && occurrences(this.terminal.screenLines(), l.needle) > l.baseline) return l.pending.text;
    this.leftover = undefined;
    return undefined;
  }

  /**
   * Called with each user message the CLI's log shows. The message we wait for that it is the
   * echo of (the log may hold more around it: a brief before it, or a draft the user had in the
   * CLI's input box, which the paste joined before or after: received-text.ts says what to
   * record then), else one given up on (`late` set; only as the log's message ends, so a short
   * one is not found inside a later message of the user's), else undefined.
   */
  claim(logged: string): Pending | undefined {
    const seen = normalize(logged);
    const matches = (inside: boolean) => (p: Pending) => {
      const want = normalize(p.text);
      return seen === want || seen.endsWith(want) || (inside && seen.includes(want)) || (want.length > 200 && seen.includes(want.slice(-200)));
    };
    const i = this.pending.findIndex(matches(true));
    if (i >= 0) {
      const [p] = this.pending.splice(i, 1);
      p!.resolve(true);
      return p;
    }
    const j = this.late.findIndex(matches(false));
    if (j < 0) return undefined;
    const [p] = this.late.splice(j, 1);
    if (this.leftover?.pending === p) this.leftover = undefined;
    return p;
  }

  /** Forgets the messages given up on (another CLI now runs): no late claim, no leftover. */
  forgetGivenUp(): void {
    this.late = [];
    this.leftover = undefined;
  }

  /** Forgets everything (the CLI is gone or replaced): no wait, no late claim, no leftover. */
  cancel(): void {
    this.waits.clear();
    for (const p of this.pending.splice(0)) p.resolve(false);
    this.late = [];
    this.leftover = undefined;
  }

  /** Resolves once all that was written is in the program (at once when it is, or the terminal cannot tell), or on cancel(). */
  private inputIn(): Promise<void> {
    const onInput = this.terminal.onInput;
    if (!onInput || !this.terminal.inputProgress?.()) return Promise.resolve();
    return new Promise((resolve) => {
      const wait = this.waits.add(new DisposableStore());
      wait.add(toDisposable(resolve));
      wait.add(
        onInput((p) => {
          if (p.done) this.waits.delete(wait);
        }),
      );
    });
  }

  /** The log is waited for from `clockFrom` (default: now) for timeoutMs, then (retryEnter) once more after an Enter. */
  private wait(text: string, meta: DeliveryMeta, retryEnter: boolean, made?: (p: Pending) => void, clockFrom?: Promise<void>): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const entry: Pending = { text, meta, resolve };
      made?.(entry);
      this.pending.push(entry);
      const giveUp = () => {
        const i = this.pending.indexOf(entry);
        if (i < 0) return;
        this.pending.splice(i, 1);
        entry.late = true;
        this.late.push(entry);
        if (this.late.length > LATE_KEPT) this.late.shift();
        resolve(false);
      };
      const clock = () =>
        this.after(this.timeoutMs, () => {
          if (!this.pending.includes(entry)) return;
          if (!retryEnter) return giveUp();
          // An Enter into a dialog would answer it: then the message is left as it is.
          if (this.mayPressEnter()) this.terminal.write('\r');
          this.after(this.timeoutMs, giveUp);
        });
      if (!clockFrom) return clock();
      // (Claimed or cancelled meanwhile: no clock.)
      void clockFrom.then(() => {
        if (this.pending.includes(entry)) clock();
      });
    });
  }

  private mayPressEnter(): boolean {
    return this.hooks.mayPressEnter?.() ?? true;
  }

  /** Resolves once the screen differs from `before` (looked at as output comes), or after `maxMs`, or on cancel(). */
  private screenChanged(before: string, maxMs: number): Promise<void> {
    return new Promise((resolve) => {
      const wait = this.waits.add(new DisposableStore());
      const t = setTimeout(() => this.waits.delete(wait), maxMs);
      wait.add(
        toDisposable(() => {
          clearTimeout(t);
          resolve();
        }),
      );
      const look = () => {
        if (this.terminal.screenLines().join('\n') !== before) this.waits.delete(wait);
      };
      wait.add(this.terminal.onOutput(look));
      // (The paste may have been echoed already, as it was written.)
      look();
    });
  }

  private after(ms: number, fn: () => void): void {
    const wait = this.waits.add(new DisposableStore());
    const t = setTimeout(() => {
      this.waits.delete(wait);
      fn();
    }, ms);
    wait.add(toDisposable(() => clearTimeout(t)));
  }
}
