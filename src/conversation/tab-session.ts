// One tab = one conversation: the transcript (kept current by the driver's ingest while the
// CLI runs in the tab's terminal), the agent's status, the queue of messages written while
// it works, and the armed switch. The TUI sends commands in (start, arm, send, queue edits)
// and reads snapshots out (onChange), plus two events for the compose bar: onDraft (text
// handed back to it) and onTaken (a message the CLI took late, whose copy there is to go);
// no TUI type crosses this boundary. Its parts live beside it: the switch transaction
// (switch-transaction.ts), the screen reading and status clock (screen-watch.ts: an idle tab
// costs nothing), the queue (message-queue.ts), the log's order behind a checkpoint
// (ordered-ingest.ts). dispose() ends the agent, its log's ingest, and every timer and listener.
// What it must never do: type while the CLI is not idle by both its log and its screen (a
// dialog would be answered), or type a message again that may still be in the CLI's input
// box (a failed delivery goes back to the compose bar, never into the queue).

import { DisposableStore, Emitter, toDisposable, type Event } from '../lifecycle/index.js';
import type { AgentStatus, HarnessDriver, Ingestor, TranscriptEvent } from '../plugins/api.js';
import type { Registry } from '../plugins/registry.js';
import type { GitFactsProvider } from '../transcript/git-facts-types.js';
import { titleFrom } from '../transcript/store.js';
import type { OpenConversation } from '../transcript/store.js';
import type { UserAuthor } from '../transcript/types.js';
import type { AgentTerminal } from './agent-terminal.js';
import { briefAndMessage, removeLaunchFiles } from '../plugins/handoff-file.js';
import { AgentStatusTracker } from './agent-status.js';
import { Delivery, quietTerminal } from './delivery.js';
import { MessageQueue } from './message-queue.js';
import { NeedsYouRule, type NeedsYou } from './needs-you.js';
import { OrderedIngest } from './ordered-ingest.js';
import { ScreenWatch } from './screen-watch.js';
import { launchAgent, type SwitchOutcome, runSwitch } from './switch-transaction.js';

export interface TabSessionDeps {
  conversation: OpenConversation;
  registry: Registry;
  terminal: AgentTerminal;
  env: NodeJS.ProcessEnv;
  git?: GitFactsProvider;
  checkpoint?: (seq: number) => Promise<string | undefined>;
  /** How long a submitted message may take to show up in the CLI's log (default 8 s). */
  deliveryTimeoutMs?: number;
  /** How long a launched CLI has to show it is ready for input (default 60 s). */
  readyTimeoutMs?: number;
  /**
   * Who typed into the tab last (the client of a server that did): the author of a message
   * typed straight into the agent's pane, which the agent's log names no one for. Without
   * it, or when it says no one, the conversation's own user.
   */
  typist?: () => UserAuthor | undefined;
}

/** A brief that waits for the next message, to go with it in one paste. */
export interface PendingBrief {
  text: string;
  /** The switch (or start) it belongs to: the message that carries it is recorded with it. */
  switchId: string;
}

export interface ArmedSwitch {
  agent: string;
  title: string;
  model: string;
}

export interface TabSnapshot {
  conversationId: string;
  agent: string | undefined;
  agentTitle: string | undefined;
  model: string | undefined;
  status: AgentStatus;
  armed: ArmedSwitch | undefined;
  queue: readonly string[];
  /** Nothing has been said yet (no user message): a switch has no context to carry. */
  noContext: boolean;
  /** A program runs in the tab (false: none launched yet, or it exited or was stopped). */
  running: boolean;
  /** The last thing to tell the user (an outcome, a refusal, a dropped switch). */
  notice: string | undefined;
  /** A switch whose outcome is unknown must be reconciled before another send. */
  unresolved: boolean;
  /** The next message carries a brief (the conversation so far, or what a returning agent missed). */
  briefPending: boolean;
}

export type { QueuedMessage } from './message-queue.js';

/** The agent is in a turn or waits for the user in its pane: nothing may be sent, reset or undone. */
export function isBusy(status: AgentStatus): boolean {
  return status === 'working' || status === 'approval';
}

export type SendResult =
  | { kind: 'delivered' }
  /** `message` says what the queue waits for. */
  | { kind: 'queued'; position: number; message: string }
  | { kind: 'refused'; message: string }
  | { kind: 'failed'; message: string }
  | { kind: 'switch'; outcome: SwitchOutcome };

export class TabSession {
  readonly status = new AgentStatusTracker();
  /** Every timer and subscription the session holds; ended by dispose(). */
  private readonly owned = new DisposableStore();
  private readonly changeEmitter = this.owned.add(new Emitter<TabSnapshot>());
  private readonly draftEmitter = this.owned.add(new Emitter<string>());
  private readonly takenEmitter = this.owned.add(new Emitter<string>());
  /** Anything the compose bar shows changed (status, queue, armed switch, notice). */
  readonly onChange: Event<TabSnapshot> = this.changeEmitter.event;
  /** A message the CLI did not take, handed back to the compose bar. */
  readonly onDraft: Event<string> = this.draftEmitter.event;
  /** A message handed back earlier that the CLI took late after all: its compose-bar copy is to go. */
  readonly onTaken: Event<string> = this.takenEmitter.event;
  private readonly needsYouEmitter = this.owned.add(new Emitter<NeedsYou>());
  private readonly needsYouRule = new NeedsYouRule();
  /** The agent started waiting for the user (approval) or finished a turn with nothing queued (done): needs-you.ts. */
  readonly onNeedsYou: Event<NeedsYou> = this.needsYouEmitter.event;
  /** One queue per tab, in arrival order, whoever wrote each message. */
  private readonly queued = new MessageQueue();
  // The session's state is its own: read through the getters below, changed only by its
  // commands (and by the switch transaction through launched() / settle()).
  private armedSwitch: (ArmedSwitch & { switchId?: string }) | undefined;
  private noticeText: string | undefined;
  private unresolvedSwitch = false;
  /**
   * Why the running CLI's own session could not be told apart from another run's (ingest
   * follows nothing): messages are refused rather than sent unrecorded. Cleared by a launch.
   */
  private unboundReason: string | undefined;
  /** A switch transaction is under way (it stops and starts agents itself). */
  private switching = false;
  private runningDriver: HarnessDriver | undefined;
  private runningModel: string | undefined;
  /** When the current agent's run started, for ending what it leaves behind. */
  private startedAt: Date | undefined;
  private pendingBrief: PendingBrief | undefined;
  /** Handoff files written for this run (a brief too long to paste); removed when it ends. */
  private runFiles: string[] = [];
  private ingestor: Ingestor | undefined;
  private readonly delivery: Delivery;
  /** Ingested events waiting behind the checkpoint of a message typed into the CLI. */
  private readonly order = new OrderedIngest<TranscriptEvent>((e) => this.ingest(e));
  private draining = false;
  /** A message is on its way into the CLI (its checkpoint, the paste, the wait for the log). */
  private delivering = false;
  /** The screen read for the status when output settles, and the status clock. */
  private readonly screen: ScreenWatch;
  private disposed = false;

  constructor(readonly deps: TabSessionDeps) {
    // An Enter into a dialog would answer it: the retry Enter is held back while one shows.
    this.screen = this.owned.add(
      new ScreenWatch({ terminal: deps.terminal, status: this.status, reader: () => this.runningDriver?.statusFromScreen, due: () => this.readScreen() }),
    );
    this.delivery = new Delivery(deps.terminal, deps.deliveryTimeoutMs ?? 8000, { mayPressEnter: () => this.screen.reading() !== 'approval' });
    this.owned.add(
      deps.terminal.onExit(() => {
        // The run's handoff files live as long as the run.
        removeLaunchFiles(this.runFiles.splice(0));
        if (this.status.exited()) this.changed();
        // (A switch stops the agent itself; that exit is part of the switch.)
        if (!this.switching) this.dropArmedSwitch(`${this.driver?.title ?? 'the agent'} exited; nothing was sent.`);
      }),
    );
  }

  /** The queued messages' texts, oldest first. */
  get queue(): readonly string[] {
    return this.queued.texts();
  }

  /** Who wrote each queued message, in the queue's order. */
  get queueAuthors(): readonly (UserAuthor | undefined)[] {
    return this.queued.authors();
  }

  /** A message that was on its way goes back to the head of the queue (it goes out first, when the agent can take it). */
  requeue(text: string, author?: UserAuthor): void {
    this.queued.unshift(text, author);
  }

  get conversation(): OpenConversation {
    return this.deps.conversation;
  }

  /** The switch armed for the next message (a copy). */
  get armed(): ArmedSwitch | undefined {
    return this.armedSwitch && { ...this.armedSwitch };
  }

  /** The last thing told the user. */
  get notice(): string | undefined {
    return this.noticeText;
  }

  /** A switch whose delivery was never confirmed: sends are refused until it is settled. */
  get unresolved(): boolean {
    return this.unresolvedSwitch;
  }

  /** Why nothing is recorded (the ingest could not bind to this run's session), if so. */
  get unbound(): string | undefined {
    return this.unboundReason;
  }

  /** The driver of the agent the tab runs (or ran last). */
  get driver(): HarnessDriver | undefined {
    return this.runningDriver;
  }

  get model(): string | undefined {
    return this.runningModel;
  }

  /** Nothing has been said in this conversation yet: a switch has no context to carry. */
  get noContext(): boolean {
    return !this.conversation.transcript.entries.some((e) => e.kind === 'user_message');
  }

  /**
   * The switch transaction launched `driver` in the tab (its run starting at `since`): the
   * tab now runs it, bound afresh (a previous run's unbound state is cleared).
   */
  launched(driver: HarnessDriver, model: string, since: Date): void {
    this.runningDriver = driver;
    this.runningModel = model;
    this.startedAt = since;
    this.unboundReason = undefined;
  }

  /**
   * The switch transaction's end: `done` the armed switch is carried out (disarmed), else
   * it stays armed to retry with the same id; `unresolved` delivery was never confirmed.
   */
  settle(opts: { done?: boolean; unresolved?: boolean }): void {
    if (opts.done) this.armedSwitch = undefined;
    if (opts.unresolved) this.unresolvedSwitch = true;
    this.changed();
  }

  snapshot(): TabSnapshot {
    return {
      conversationId: this.conversation.id,
      agent: this.driver?.name,
      agentTitle: this.driver?.title,
      model: this.model,
      status: this.status.current,
      armed: this.armed,
      queue: this.queue,
      notice: this.noticeText,
      unresolved: this.unresolvedSwitch,
      noContext: this.noContext,
      running: this.deps.terminal.isRunning(),
      briefPending: this.pendingBrief !== undefined,
    };
  }

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

  /** Starts (or restores) an agent in the tab with whatever context the conversation has. */
  async start(agent: string, model?: string): Promise<SwitchOutcome> {
    this.unresolvedSwitch = false;
    if (this.armed && this.armed.agent !== agent) this.dropArmedSwitch(`the tab now runs another agent.`);
    // Starting again the agent whose brief never went (it did not come up, or exited first)
    // retries that switch: its message is recorded with the same switch id.
    const retry = this.pendingBrief && this.driver?.name === agent ? this.pendingBrief.switchId : undefined;
    const outcome = await launchAgent(this, agent, model, undefined, retry);
    this.sayOutcome(outcome.message);
    return outcome;
  }

  /**
   * Another agent takes the tab at once, with nothing to carry (nothing said yet, so no
   * message to switch with): the current one is stopped, then `agent` starts. The conversation
   * layer's own stop-then-start; a tab never runs one beside it.
   */
  async startInstead(agent: string, model?: string): Promise<SwitchOutcome> {
    this.switching = true;
    try {
      await this.stopAgent(3000);
    } finally {
      this.switching = false;
    }
    if (this.deps.terminal.isRunning()) {
      const outcome: SwitchOutcome = { kind: 'not-sent', message: `${this.driver?.title ?? 'The agent'} did not stop. Nothing changed.` };
      this.sayOutcome(outcome.message);
      return outcome;
    }
    await this.follow(undefined);
    return this.start(agent, model);
  }

  /** Arms a switch to another agent; choosing the current agent disarms. */
  arm(agent: string, model?: string): { armed: boolean; noContext: boolean } {
    const d = this.deps.registry.get(agent);
    const noContext = this.noContext;
    // The same agent disarms, unless it is not running (stopped by a reset): then arming it
    // is how it starts again, afresh.
    if (this.driver && d.name === this.driver.name && (!model || model === this.model) && this.deps.terminal.isRunning()) {
      this.disarm();
      return { armed: false, noContext };
    }
    this.armedSwitch = { agent: d.name, title: d.title, model: model ?? this.deps.registry.settings(d.name).model ?? d.defaultModel ?? 'default' };
    this.changed();
    return { armed: true, noContext };
  }

  disarm(): void {
    if (!this.armedSwitch) return;
    this.armedSwitch = undefined;
    this.changed();
  }

  /**
   * The compose bar's Enter. Never loses the text: a refusal or failure hands it back.
   * `author`: who wrote it (the attached client that pressed Enter), recorded with it;
   * undefined is the conversation's own user.
   */
  async send(text: string, author?: UserAuthor): Promise<SendResult> {
    if (!text.trim()) return { kind: 'refused', message: 'Nothing to send.' };
    if (this.unresolved) {
      return this.refuse(
        'The last switch did not finish cleanly. Nothing was sent — check the pane; once the agent answers there (or you start it again), sending works again.',
      );
    }
    const armed = this.armedSwitch;
    if (armed) {
      const title = this.driver?.title ?? 'The agent';
      if (isBusy(this.status.current)) {
        return this.refuse(`${title} is still working. Nothing was sent — wait for it to finish and retry.`);
      }
      this.switching = true;
      let outcome: SwitchOutcome;
      try {
        outcome = await runSwitch(this, armed, text, author);
      } finally {
        this.switching = false;
      }
      this.sayOutcome(outcome.message);
      return { kind: 'switch', outcome };
    }
    if (!this.driver) return this.refuse('No agent runs in this tab. Nothing was sent — pick one first.');
    if (this.unbound) return this.refuse(`${this.unboundNotice()} Nothing was sent — start the agent again (C-b a) to send.`);
    if (this.draining || this.queued.length || !this.mayType()) return this.enqueue(text, author);
    return this.deliver(text, author ? { author } : {});
  }

  /** Idle by both witnesses (read afresh), nothing on its way in, and nothing of ours left in the CLI's input box. */
  private mayType(): boolean {
    if (this.screen.lookNow()) this.changed();
    return this.status.current === 'idle' && !this.delivering && this.delivery.leftoverShowing() === undefined;
  }

  private enqueue(text: string, author: UserAuthor | undefined): SendResult {
    this.queued.push(text, author);
    this.changed();
    void this.drainQueue();
    return { kind: 'queued', position: this.queued.length, message: `queued (#${this.queued.length}): ${this.waitingFor()}` };
  }

  /** What a queued message waits for, in the user's words. */
  private waitingFor(): string {
    const title = this.driver?.title ?? 'the agent';
    if (this.status.current === 'approval')
      return `${title} needs you first: answer it in its pane (a dialog, a permission or a question); then the message goes.`;
    if (this.delivery.leftoverShowing() !== undefined)
      return `${title}'s input box still holds a message of yours that was not sent: press Enter in its pane to send it, or clear it there; then this one goes.`;
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
  private undelivered(text: string, author: UserAuthor | undefined): SendResult {
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

  private unboundNotice(): string {
    return `Not recording: ${this.unbound}.`;
  }

  /** A launch's outcome, with why nothing is recorded when its ingest could not bind. */
  private sayOutcome(message: string): void {
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
  private take(e: TranscriptEvent): void {
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
  private checkpointTyped(e: TranscriptEvent & { type: 'user_text' }, takeCheckpoint: (seq: number) => Promise<string | undefined>): void {
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

  private ingest(e: TranscriptEvent): void {
    const claimed = e.type === 'user_text' ? this.delivery.claim(e.text) : undefined;
    if (!claimed && e.type === 'user_text' && !e.checkpoint && this.deps.checkpoint) {
      this.checkpointTyped(e, this.deps.checkpoint);
      return;
    }
    this.record(e, claimed);
  }

  private record(e: TranscriptEvent, claimed: ReturnType<Delivery['claim']>): void {
    if (claimed) {
      // Our own message, now seen in the CLI's log: recorded as the user wrote it, in log order.
      if (claimed.meta.record !== false) {
        const { checkpoint, switchId, author } = claimed.meta;
        this.conversation.transcript.apply({ type: 'user_text', text: claimed.text, checkpoint, switchId, ...(author ? { author } : {}) });
        this.nameAfter(claimed.text);
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
    } else {
      this.conversation.transcript.apply(e);
    }
    if (e.type === 'turn_end') {
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
   * The conversation was just reset: the agent's own session still remembers what the reset
   * hid, so the agent is stopped and the next message starts it afresh with a replay — armed
   * like a switch to the same agent (prepareBrief never resumes across a reset). A switch to
   * another agent armed before stays armed: it is a replay as well.
   */
  async stopAfterReset(): Promise<void> {
    const driver = this.driver;
    this.switching = true;
    try {
      await this.follow(undefined);
      this.delivery.cancel();
      await this.stopAgent(3000);
    } finally {
      this.switching = false;
    }
    this.unresolvedSwitch = false;
    if (driver && !this.armedSwitch) this.armedSwitch = { agent: driver.name, title: driver.title, model: this.runningModel ?? 'default' };
    this.changed();
  }

  /** Replaces the ingestor following the CLI's log (the switch transaction calls this). */
  async follow(ingestor: Ingestor | undefined): Promise<void> {
    const old = this.ingestor;
    this.ingestor = ingestor;
    // Messages the previous CLI was given and never took are not this one's to claim.
    if (ingestor && ingestor !== old) this.delivery.forgetGivenUp();
    await old?.dispose();
  }

  get following(): boolean {
    return this.ingestor !== undefined;
  }

  /** The tab's agent changed underneath an armed switch: drop it, and say so. */
  dropArmedSwitch(reason: string): void {
    if (!this.armedSwitch) return;
    const title = this.armedSwitch.title;
    this.armedSwitch = undefined;
    this.say(`The switch to ${title} was dropped: ${reason}`);
  }

  say(message: string | undefined): void {
    this.noticeText = message;
    this.changed();
  }

  changed(): void {
    if (this.disposed) return;
    this.screen.armClock();
    const snap = this.snapshot();
    const needs = this.needsYouRule.observe({ status: snap.status, turnOpen: this.status.turnIsOpen, queued: snap.queue.length });
    this.changeEmitter.fire(snap);
    if (needs) this.needsYouEmitter.fire(needs);
  }

  /**
   * A brief that never went (no message followed before the agent stopped) is said so in the
   * transcript: the handoff entry alone would read as if it had been handed over.
   */
  private dropPendingBrief(): void {
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

  async dispose(): Promise<void> {
    this.disposed = true;
    this.owned.dispose();
    this.delivery.cancel();
    await this.follow(undefined);
    await this.ingested();
    await this.stopAgent(2000);
    await this.conversation.close();
  }

  /** Ends the running CLI (its process group, then anything it left behind, by pid). */
  async stopAgent(graceMs: number): Promise<void> {
    await this.deps.terminal.stop(graceMs);
    removeLaunchFiles(this.runFiles.splice(0));
    this.dropPendingBrief();
    if (this.driver?.endLeftovers && this.startedAt) {
      await this.driver.endLeftovers({ env: this.deps.env, since: this.startedAt }).catch(() => []);
    }
  }

  private refuse(message: string): SendResult {
    this.say(message);
    return { kind: 'refused', message };
  }

  private readScreen(changedAlready = false): void {
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
  private async drainQueue(): Promise<void> {
    if (this.draining || this.delivering || !this.queued.length || this.armed || this.disposed || this.unbound || !this.mayType()) return;
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
