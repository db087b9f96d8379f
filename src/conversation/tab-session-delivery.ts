// A tab's session, the delivery of messages and the ingest of the CLI's log: a message typed
// into the CLI only while it is idle by both its log and its screen (with the pending brief
// before it, in one paste), recorded once the log shows it, queued otherwise and sent in
// order when the CLI is idle again; a message the CLI did not take goes back to the compose
// bar. Events of the log are recorded in the log's order, behind the checkpoint of a message
// typed straight into the CLI. Part of TabSession (tab-session.ts), on its state
// (tab-session-state.ts). It must never type while the CLI is not idle, nor type a message
// again that may still be in the CLI's input box, nor paste after a draft the user left there
// (the CLI would take both as one message): such a message waits in the queue, saying why.

import { DisposableStore, toDisposable } from '../lifecycle/index.js';
import type { TranscriptEvent } from '../plugins/api.js';
import { titleFrom } from '../transcript/store.js';
import type { UserAuthor } from '../transcript/types.js';
import { briefAndMessage } from '../plugins/handoff-file.js';
import { type Delivery, quietTerminal } from './delivery.js';
import { receivedText } from './received-text.js';
import { TabSessionState, type PendingBrief, type SendResult } from './tab-session-state.js';

/** How long the queue waits after a draft left the CLI's input box for the log to show it was sent (else it was cleared). */
const DRAFT_SETTLE_MS = 4000;

export abstract class TabSessionDelivery extends TabSessionState {
  /** A draft was in the CLI's input box when last looked at. */
  private draftSeen = false;
  /** It has just gone: nothing is typed until the log shows it was sent, or a while has passed (cleared). Called: over. */
  private settling: (() => void) | undefined;

  /**
   * A new program was just launched in the tab: it counts as working (messages are queued)
   * until its screen reads idle, and `brief`, if any, waits for the next message. A driver
   * with no screen heuristics is taken as ready once the program has been quiet a moment.
   */
  starting(brief: PendingBrief | undefined): void {
    this.pendingBrief = brief;
    this.status.launched();
    this.changed();
    if (!this.driver?.statusFromScreen) {
      const ms = this.deps.readyTimeoutMs ?? 60_000;
      void quietTerminal(this.deps.terminal, 1500, ms, true, this.owned).then(() => {
        if (this.disposed) return;
        if (this.status.current === 'working' && this.status.screen('idle')) this.readScreen(true);
      });
    }
  }

  /** Resolves true once the program reads idle (ready for input); false if it exits or `timeoutMs` passes. */
  whenReady(timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const wait = this.owned.add(new DisposableStore());
      let done = false;
      const finish = (ready: () => boolean | Promise<boolean>) => {
        if (done) return;
        done = true;
        this.owned.delete(wait);
        void Promise.resolve()
          .then(ready)
          .then(resolve, () => resolve(false));
      };
      const check = () => {
        if (this.status.current === 'idle') {
          // A TUI can draw its input box a moment before it takes keys: let it settle.
          finish(async () => {
            await quietTerminal(this.deps.terminal, 300, 2000, false, this.owned);
            return this.deps.terminal.isRunning();
          });
        } else if (this.status.current === 'exited' || !this.deps.terminal.isRunning() || this.disposed) {
          finish(() => false);
        }
      };
      // A session disposed meanwhile never becomes ready: its agent is gone.
      wait.add(toDisposable(() => finish(() => false)));
      wait.add(this.onChange(check));
      const timer = setTimeout(() => finish(() => false), timeoutMs);
      wait.add(toDisposable(() => clearTimeout(timer)));
      check();
    });
  }

  /**
   * Idle by both witnesses (read afresh), nothing on its way in, nothing of ours left in the
   * CLI's input box, and no draft of the user's there either: pasted after it, the CLI would
   * take the two as one message.
   */
  protected mayType(): boolean {
    if (this.screen.lookNow()) this.changed();
    if (this.status.current !== 'idle' || this.delivering || this.delivery.leftoverShowing() !== undefined) return false;
    if (this.boxText()) {
      this.draftSeen = true;
      return false;
    }
    if (this.draftSeen) {
      this.draftSeen = false;
      this.afterDraft();
      return false;
    }
    return !this.settling;
  }

  /**
   * The draft left the box: sent with Enter in the pane (a turn is starting, though neither
   * the screen nor the log may say so yet: opencode took a message pasted then into its own
   * queue, and the model heard both in one turn) or cleared. The queue waits until the log
   * shows a message typed in the pane (the turn is then open, and the queue goes at its end),
   * or DRAFT_SETTLE_MS (it was cleared).
   */
  private afterDraft(): void {
    const wait = this.owned.add(new DisposableStore());
    const timer = setTimeout(() => this.settling?.(), DRAFT_SETTLE_MS);
    wait.add(toDisposable(() => clearTimeout(timer)));
    this.settling = () => {
      this.settling = undefined;
      this.owned.delete(wait);
      if (!this.disposed) this.readScreen();
    };
  }

  protected enqueue(text: string, author: UserAuthor | undefined): SendResult {
    this.queued.push(text, author);
    this.changed();
    void this.drainQueue();
    return { kind: 'queued', position: this.queued.length, message: `queued (#${this.queued.length}): ${this.waitingFor()}` };
  }

  /** What a queued message waits for, in the user's words. */
  protected waitingFor(): string {
    const title = this.driver?.title ?? 'the agent';
    if (this.status.current === 'approval')
      return `${title} needs you first: answer it in its pane (a dialog, a permission or a question); then the message goes.`;
    if (this.delivery.leftoverShowing() !== undefined)
      return `${title}'s input box still holds a message of yours that was not sent: press Enter in its pane to send it, or clear it there; then this one goes.`;
    const held = this.draftHold();
    if (held) return held;
    // (A copy of an earlier message, put back by an interrupt or recalled: pasted after, it would join it all the same.)
    if (this.boxText())
      return `${title}'s input box holds a copy of an earlier message of yours: send it (Enter in its pane) or clear it there first; then this one goes.`;
    return `sent when ${title} is idle.`;
  }

  editQueued(index: number, text: string): void {
    if (this.queued.edit(index, text)) this.changed();
  }

  /**
   * Deletes the queued message at `index`; with `expected`, only if that is still its text
   * (the queue may have moved on since the compose bar showed it). Gives back what it deleted.
   */
  deleteQueued(index: number, expected?: string): string | undefined {
    const gone = this.queued.delete(index, expected);
    this.changed();
    return gone;
  }

  get pendingDelivery(): Delivery {
    return this.delivery;
  }

  /**
   * Types `text` into the CLI (with the pending brief before it, in the same paste) and
   * records it, as written, once the CLI's own log shows it. Called only when it may type
   * (mayType); a CLI that stopped being idle while the checkpoint was taken gets the message
   * queued instead (nothing was typed yet).
   */
  async deliver(text: string, opts: { switchId?: string; author?: UserAuthor } = {}): Promise<SendResult> {
    const author = opts.author;
    // Set before the first await: a send meanwhile queues behind this one instead of typing into it.
    this.delivering = true;
    try {
      const t = this.conversation.transcript;
      const checkpoint = this.deps.checkpoint ? await this.deps.checkpoint(t.lastSeq + 1) : undefined;
      this.delivering = false;
      if (!this.mayType()) {
        this.requeue(text, author);
        this.changed();
        return { kind: 'queued', position: 1, message: `queued (#1): ${this.waitingFor()}` };
      }
      this.delivering = true;
      const brief = this.pendingBrief;
      const switchId = opts.switchId ?? brief?.switchId;
      const pasted = brief ? briefAndMessage(this.conversation.meta.data.cwd, brief.text, text, brief.switchId) : { text };
      if (pasted.file) this.runFiles.push(pasted.file);
      this.status.submitted();
      this.changed();
      if (!this.ingestor) {
        // Nothing to verify against (no log this driver can read): record it as typed.
        this.deps.terminal.write(pasted.text.replace(/\r?\n/g, '\r') + '\r');
        this.typingIn.typed();
        this.pendingBrief = undefined;
        t.apply({ type: 'user_text', text, checkpoint, switchId, ...(author ? { author } : {}) });
        this.nameAfter(text);
        this.conversation.sync();
        return { kind: 'delivered' };
      }
      const ok = await this.delivery.submit(pasted.text, { checkpoint, switchId, ...(author ? { author } : {}) }, text);
      if (!ok) {
        this.status.withdrawn();
        return this.undelivered(text, author);
      }
      if (brief && this.pendingBrief === brief) this.pendingBrief = undefined;
      return { kind: 'delivered' };
    } finally {
      this.delivering = false;
      this.changed();
    }
  }

  /**
   * A message the CLI's log never showed (after a retry Enter). It is never typed again by
   * baton: it goes back to the compose bar, and the notice says where it is; if the log
   * shows it later after all, it is recorded once and the compose bar's copy goes (record()).
   */
  protected undelivered(text: string, author: UserAuthor | undefined): SendResult {
    const title = this.driver?.title ?? 'the agent';
    if (!this.deps.terminal.isRunning()) {
      // The CLI is gone, and its input box with it: the message waits for the next run.
      this.requeue(text, author);
      this.say(`${title} exited before it took your message: it is queued, and goes when ${title} runs again.`);
      return { kind: 'queued', position: 1, message: `queued (#1): sent when ${title} runs again.` };
    }
    this.draftEmitter.fire(text);
    if (this.unbound) {
      this.say(`${this.unboundNotice()} Your message may have reached ${title} but was not recorded; a copy is back in the compose bar.`);
      return { kind: 'failed', message: text };
    }
    const inBox = this.delivery.leftoverShowing() !== undefined;
    this.say(
      inBox
        ? `${title} did not take your message (its log never showed it, after a retry). It still shows in ${title}'s input box: press Enter in its pane to send it from there (it is then recorded once), or clear it there. A copy is back in the compose bar; nothing is typed into ${title} until its input box no longer holds it.`
        : `${title} did not take your message (its log never showed it, after a retry). It is back in the compose bar, not sent; if ${title} takes it after all, it is recorded once and the copy leaves the compose bar.`,
    );
    return { kind: 'failed', message: text };
  }

  /**
   * The ingest cannot tell this run's own session from another's and follows nothing: said in
   * the tab, and a message waiting to show up in the log will not.
   */
  lostBinding(reason: string): void {
    if (this.disposed) return;
    this.unboundReason = reason;
    this.delivery.cancel();
    this.say(this.unboundNotice());
  }

  protected unboundNotice(): string {
    return `Not recording: ${this.unbound}.`;
  }

  /** A launch's outcome, with why nothing is recorded when its ingest could not bind. */
  protected sayOutcome(message: string): void {
    this.say(this.unbound ? `${message} ${this.unboundNotice()}` : message);
  }

  /** An untitled conversation is named after its first message, as `baton chat` names it. */
  nameAfter(text: string): void {
    const meta = this.conversation.meta;
    if (!meta.data.title && text.trim()) void meta.update({ title: titleFrom(text) }).catch(() => undefined);
  }

  /** Events from the driver's ingest of the running CLI's log. */
  onAgentEvent(e: TranscriptEvent): void {
    if (!this.disposed) this.take(e);
  }

  // Behind a checkpoint being taken, events wait their turn: the log's order is kept.
  protected take(e: TranscriptEvent): void {
    this.order.take(e);
  }

  /** Resolves once no ingested event waits behind a checkpoint. */
  ingested(): Promise<void> {
    return this.order.settled();
  }

  /**
   * A message typed straight into the CLI (no delivery of ours claims it) gets its
   * checkpoint now, as it is ingested — best effort: the agent may already have changed
   * files. The screen never waits for it; later events wait, so the entry keeps its place.
   */
  protected checkpointTyped(e: TranscriptEvent & { type: 'user_text' }, takeCheckpoint: (seq: number) => Promise<string | undefined>): void {
    const t = this.conversation.transcript;
    // Streamed text still open is committed first (as applying the message would), so the
    // seq the checkpoint is named after is the one the message gets.
    t.flush();
    this.order.hold(async () => {
      let checkpoint: string | undefined;
      try {
        checkpoint = await takeCheckpoint(t.lastSeq + 1);
      } catch {
        // No checkpoint (git failed): the message is recorded all the same.
      }
      this.record({ ...e, checkpoint }, undefined);
    });
  }

  protected ingest(e: TranscriptEvent): void {
    const claimed = e.type === 'user_text' ? this.delivery.claim(e.text) : undefined;
    if (!claimed && e.type === 'user_text' && !e.checkpoint && this.deps.checkpoint) {
      this.checkpointTyped(e, this.deps.checkpoint);
      return;
    }
    this.record(e, claimed);
  }

  protected record(e: TranscriptEvent, claimed: ReturnType<Delivery['claim']>): void {
    if (claimed) {
      // Our own message, now seen in the CLI's log: recorded as the CLI received it (with a
      // draft of the user's the paste joined in its input box, if any), in log order, by its author.
      if (claimed.meta.record !== false) {
        const { checkpoint, switchId, author } = claimed.meta;
        const text = e.type === 'user_text' && claimed.typed !== undefined ? receivedText(e.text, claimed.typed, claimed.text) : claimed.text;
        this.conversation.transcript.apply({ type: 'user_text', text, checkpoint, switchId, ...(author ? { author } : {}) });
        this.nameAfter(text);
      }
      if (claimed.late && claimed.meta.record !== false) {
        // Given up on, then taken (Enter pressed in the pane, or the CLI took it late): the
        // copy handed back to the compose bar must not be sent a second time.
        this.say(`${this.driver?.title ?? 'The agent'} took your message after all: it is recorded once.`);
        this.takenEmitter.fire(claimed.text);
      }
    } else if (e.type === 'user_text') {
      const author = e.author ?? this.deps.typist?.();
      this.conversation.transcript.apply(author ? { ...e, author } : e);
      this.nameAfter(e.text);
      // (The draft the queue waited on was sent: its turn is open now.)
      queueMicrotask(() => this.settling?.());
    } else if (this.ownTurnSink && e.type !== 'session') {
      // baton's own turn (the summary before a switch): its caller keeps what it needs.
      this.ownTurnSink(e);
    } else {
      this.conversation.transcript.apply(e);
    }
    if (e.type === 'turn_end' && !this.ownTurnSink) {
      const seg = this.conversation.transcript.currentSegment;
      if (seg?.agentSession) this.conversation.transcript.confirmCursor(seg.harness, seg.agentSession, this.conversation.transcript.lastSeq);
    }
    // An unconfirmed switch is settled once the CLI shows it took input and answered.
    if (this.unresolvedSwitch && (claimed || e.type === 'turn_end')) this.unresolvedSwitch = false;
    // The log's news is weighed against the screen as it is now, not as last read.
    const screenChanged = this.screen.unread && this.screen.lookNow();
    const changed = this.status.event(e) || screenChanged;
    this.screen.armClock();
    if (changed || e.type === 'turn_end' || claimed) this.changed();
    if (this.status.current === 'idle') void this.drainQueue();
  }

  /**
   * A brief that never went (no message followed before the agent stopped) is said so in the
   * transcript: the handoff entry alone would read as if it had been handed over.
   */
  protected dropPendingBrief(): void {
    const brief = this.pendingBrief;
    if (!brief) return;
    this.pendingBrief = undefined;
    const title = this.driver?.title ?? 'the agent';
    this.conversation.transcript.apply({
      type: 'notice',
      text: `The brief prepared for ${title} (switch ${brief.switchId}) was never sent: no message followed before it stopped.`,
    });
    this.conversation.sync();
  }

  protected readScreen(changedAlready = false): void {
    if (this.screen.lookNow() || changedAlready) {
      this.changed();
      if (this.status.current === 'idle') void this.drainQueue();
    } else if (this.queued.length && this.status.current === 'idle') {
      // (A message left in the CLI's input box may have gone meanwhile.)
      void this.drainQueue();
    }
  }

  /**
   * Sends the queue, oldest first, while the CLI may be typed at. A message it did not take
   * went back to the compose bar (never to the queue: it may still sit in the CLI's input
   * box); the rest wait for the next idle.
   */
  protected async drainQueue(): Promise<void> {
    // (An armed switch does not hold the queue: its messages were written to the agent that
    // runs, before the switch's own message; the switch waits for them, tab-session.ts send.)
    if (this.draining || this.delivering || !this.queued.length || this.switching || this.disposed || this.unbound || !this.mayType()) return;
    this.draining = true;
    try {
      do {
        const next = this.queued.shift()!;
        this.changed();
        const r = await this.deliver(next.text, next.author ? { author: next.author } : {});
        if (r.kind !== 'delivered') break;
      } while (this.queued.length && !this.disposed && this.mayType());
    } finally {
      this.draining = false;
      this.changed();
    }
  }
}
