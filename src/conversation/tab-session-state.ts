// A tab's session, its state: what TabSession (tab-session.ts) holds and shows. The types the
// conversation layer gives out for a tab (TabSnapshot, SendResult, ArmedSwitch), the fields
// (status, queue, armed switch, notice, the running driver, the pending brief), the getters
// and snapshot(), what the CLI's own input box holds (a draft of the user's, or a copy of a
// recorded message: recorded-copy.ts), and changed()/say(), which tell the TUI. The delivery
// of messages and the ingest of the CLI's log (tab-session-delivery.ts) and the commands
// (tab-session.ts) build on it; it is never used on its own. It must never change state
// outside those files.

import { DisposableStore, Emitter, type Event } from '../lifecycle/index.js';
import type { AgentStatus, HarnessDriver, Ingestor, TranscriptEvent } from '../plugins/api.js';
import type { Registry } from '../plugins/registry.js';
import type { GitFactsProvider } from '../transcript/git-facts-types.js';
import type { OpenConversation } from '../transcript/store.js';
import type { LocalEndpointRef, UserAuthor } from '../transcript/types.js';
import type { AgentTerminal } from './agent-terminal.js';
import { removeLaunchFiles } from '../plugins/handoff-file.js';
import { AgentStatusTracker } from './agent-status.js';
import { Delivery } from './delivery.js';
import { resumeFor } from './handoff-plan.js';
import { MessageQueue } from './message-queue.js';
import { NeedsYouRule, type NeedsYou } from './needs-you.js';
import { OrderedIngest } from './ordered-ingest.js';
import { userDraftIn } from './recorded-copy.js';
import { ScreenWatch } from './screen-watch.js';
import { TypingIn } from './typing-in.js';

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
  /** How long the outgoing agent's summary turn before a switch may take (default 10 min). */
  summaryTimeoutMs?: number;
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
  /**
   * The model asked for; absent: the planner's rule (handoff-plan.ts modelFor: the one the
   * agent ran here last, else its default), so an agent's plain entry in the switch picker
   * goes back to its own model and, with it, to the local server it ran on (localFor).
   */
  model?: string;
  /** The account asked for (`default`: the CLI's own configuration); absent: the planner's rule (handoff-plan.ts accountFor). */
  account?: string;
  /** The local model server asked for (the picker's "Local model…"); absent: the planner's rule (handoff-plan.ts localFor). */
  local?: LocalEndpointRef;
  /** Before it stops, the outgoing agent is asked for a summary in one turn in its pane (tab-summary-turn.ts). */
  summary?: boolean;
  /**
   * The agent that ran when the switch was armed. Once sent, the switch starts the new agent
   * before it is disarmed, so the tab's agent is then the armed one whatever it was switched from.
   */
  from?: string;
}

export interface TabSnapshot {
  conversationId: string;
  agent: string | undefined;
  agentTitle: string | undefined;
  model: string | undefined;
  /** The baton account the agent runs under; undefined: the CLI's own configuration. */
  account: string | undefined;
  status: AgentStatus;
  armed: ArmedSwitch | undefined;
  queue: readonly string[];
  /** Nothing has been said yet (no user message): a switch has no context to carry. */
  noContext: boolean;
  /** A program runs in the tab (false: none launched yet, or it exited or was stopped). */
  running: boolean;
  /** The last thing to tell the user (an outcome, a refusal, a dropped switch). */
  notice: string | undefined;
  /** How many notices were said so far: a new one is told when this grows, not at every change. */
  noticeSeq: number;
  /** A switch whose outcome is unknown must be reconciled before another send. */
  unresolved: boolean;
  /** The next message carries a brief (the conversation so far, or what a returning agent missed). */
  briefPending: boolean;
  /**
   * The armed switch goes back to an agent that ran here before: its own session is resumed
   * and the next message carries only what it missed (no replay of the conversation as text).
   */
  armedResumes: boolean;
  /**
   * A message of baton's is still being typed into the CLI, which reads it slowly: bytes in of
   * all. Said once it has taken a while (a second), updated a few times a second, gone when it
   * is all in. Keys typed into the pane meanwhile go in after it.
   */
  sending?: { written: number; total: number };
}

export type { QueuedMessage } from './message-queue.js';

/** The agent is in a turn or waits for the user in its pane: nothing may be sent, reset or undone. */
export function isBusy(status: AgentStatus): boolean {
  return status === 'working' || status === 'approval';
}

/** How a switch (or a start) ended: the outcomes are described in switch-transaction.ts. */
export type SwitchOutcome = {
  kind: 'not-sent' | 'stopped-not-switched' | 'switched-not-started' | 'unknown' | 'switched' | 'started';
  message: string;
  /** Text to hand back to the compose bar. */
  draft?: string;
};

export type SendResult =
  | { kind: 'delivered' }
  /** `message` says what the queue waits for. */
  | { kind: 'queued'; position: number; message: string }
  | { kind: 'refused'; message: string }
  | { kind: 'failed'; message: string }
  | { kind: 'switch'; outcome: SwitchOutcome };

export abstract class TabSessionState {
  readonly status = new AgentStatusTracker();
  /** Every timer and subscription the session holds; ended by dispose(). */
  protected readonly owned = new DisposableStore();
  protected readonly changeEmitter = this.owned.add(new Emitter<TabSnapshot>());
  protected readonly draftEmitter = this.owned.add(new Emitter<string>());
  protected readonly takenEmitter = this.owned.add(new Emitter<string>());
  /** Anything the compose bar shows changed (status, queue, armed switch, notice). */
  readonly onChange: Event<TabSnapshot> = this.changeEmitter.event;
  /** A message the CLI did not take, handed back to the compose bar. */
  readonly onDraft: Event<string> = this.draftEmitter.event;
  /** A message handed back earlier that the CLI took late after all: its compose-bar copy is to go. */
  readonly onTaken: Event<string> = this.takenEmitter.event;
  protected readonly needsYouEmitter = this.owned.add(new Emitter<NeedsYou>());
  protected readonly needsYouRule = new NeedsYouRule();
  /** The agent started waiting for the user (approval) or finished a turn with nothing queued (done): needs-you.ts. */
  readonly onNeedsYou: Event<NeedsYou> = this.needsYouEmitter.event;
  /** One queue per tab, in arrival order, whoever wrote each message. */
  protected readonly queued = new MessageQueue();
  // The session's state is its own: read through the getters below, changed only by its
  // commands (and by the switch transaction through launched() / settle()).
  protected armedSwitch: (ArmedSwitch & { switchId?: string; summarized?: boolean }) | undefined;
  protected noticeText: string | undefined;
  private noticeCount = 0;
  protected unresolvedSwitch = false;
  /**
   * Why the running CLI's own session could not be told apart from another run's (ingest
   * follows nothing): messages are refused rather than sent unrecorded. Cleared by a launch.
   */
  protected unboundReason: string | undefined;
  /** A switch transaction is under way (it stops and starts agents itself). */
  protected switching = false;
  protected runningDriver: HarnessDriver | undefined;
  protected runningModel: string | undefined;
  /** When the current agent's run started, for ending what it leaves behind. */
  protected startedAt: Date | undefined;
  protected pendingBrief: PendingBrief | undefined;
  /** Handoff files written for this run (a brief too long to paste); removed when it ends. */
  protected runFiles: string[] = [];
  protected ingestor: Ingestor | undefined;
  protected readonly delivery: Delivery;
  /** Ingested events waiting behind the checkpoint of a message typed into the CLI. */
  protected readonly order = new OrderedIngest<TranscriptEvent>((e) => this.ingest(e));
  protected draining = false;
  /** A message is on its way into the CLI (its checkpoint, the paste, the wait for the log). */
  protected delivering = false;
  /** The screen read for the status when output settles, and the status clock. */
  protected readonly screen: ScreenWatch;
  /** A message of ours the CLI is still reading in (a large one goes in at its pace). */
  protected readonly typingIn: TypingIn;
  protected disposed = false;
  /**
   * baton's own turn in the CLI (the summary before a switch) is under way: the events of the
   * log (but a user message and the session's id) go here, never into the transcript.
   */
  protected ownTurnSink: ((e: TranscriptEvent) => void) | undefined;

  constructor(readonly deps: TabSessionDeps) {
    // An Enter into a dialog would answer it: the retry Enter is held back while one shows.
    this.screen = this.owned.add(
      new ScreenWatch({ terminal: deps.terminal, status: this.status, reader: () => this.runningDriver?.statusFromScreen, due: () => this.readScreen() }),
    );
    this.typingIn = this.owned.add(new TypingIn(deps.terminal, () => this.changed()));
    this.delivery = new Delivery(deps.terminal, deps.deliveryTimeoutMs ?? 8000, {
      mayPressEnter: () => this.screen.reading() !== 'approval',
      enterWithPaste: () => this.runningDriver?.capabilities.enterWithPaste === true,
      typed: () => this.typingIn.typed(),
    });
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

  /**
   * What the CLI's own input box holds, when its driver can read it ('' or undefined: nothing,
   * or it cannot tell): a draft of the user's, or a copy of a recorded message the CLI put back.
   * Either way a paste after it would join it.
   */
  boxText(): string | undefined {
    const read = this.driver?.inputDraft;
    if (!read || !this.deps.terminal.isRunning()) return undefined;
    const term = this.deps.terminal;
    return read(term.inputLines?.() ?? term.screenLines());
  }

  /**
   * The box's text when it is the user's own draft, which stopping the CLI would lose: not a
   * message the transcript has (put back by an interrupt, recalled with Up), nor baton's own
   * given up on, whose copy is back in the compose bar (recorded-copy.ts).
   */
  protected userDraft(): string | undefined {
    return userDraftIn(this.boxText(), this.conversation.transcript.entries, this.delivery.leftoverShowing());
  }

  /**
   * Why baton must not stop the running CLI or type a command into it now (a switch, another
   * model, a restart, a reset): its box holds a draft of the user's, which would be lost or
   * joined. The switch or restart is the user's to redo once the box is sent or cleared.
   */
  draftHold(): string | undefined {
    if (!this.userDraft()) return undefined;
    return `${this.driver?.title ?? 'The agent'}'s input box has text of yours: send it (Enter in its pane) or clear it there first.`;
  }

  /** The driver of the agent the tab runs (or ran last). */
  get driver(): HarnessDriver | undefined {
    return this.runningDriver;
  }

  get model(): string | undefined {
    return this.runningModel;
  }

  /**
   * Nothing has been said in this conversation yet: a switch has no context to carry. A
   * message being delivered counts as said: its agent may answer on screen before its log
   * confirms it, and a switch picked then must carry it, not start the agent afresh.
   */
  get noContext(): boolean {
    return !this.delivering && !this.conversation.transcript.entries.some((e) => e.kind === 'user_message');
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

  /** The running agent now runs `model`, changed in its running session (model-in-place.ts). */
  modelChanged(model: string): void {
    this.runningModel = model;
    this.changed();
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

  /** The account of the segment the running agent belongs to (the tab's agent is the current segment's). */
  protected runningAccount(): string | undefined {
    const seg = this.conversation.transcript.currentSegment;
    return this.driver && seg?.harness === this.driver.name ? seg.account : undefined;
  }

  snapshot(): TabSnapshot {
    return {
      conversationId: this.conversation.id,
      agent: this.driver?.name,
      agentTitle: this.driver?.title,
      model: this.model,
      account: this.runningAccount(),
      status: this.status.current,
      armed: this.armed,
      queue: this.queue,
      notice: this.noticeText,
      noticeSeq: this.noticeCount,
      unresolved: this.unresolvedSwitch,
      noContext: this.noContext,
      running: this.deps.terminal.isRunning(),
      briefPending: this.pendingBrief !== undefined,
      armedResumes: this.armedResumes(),
      ...(this.typingIn.progress ? { sending: this.typingIn.progress } : {}),
    };
  }

  /** Whether the armed switch resumes its agent's own session: the planner's rule (handoff-plan.ts resumeFor). */
  private armedResumes(): boolean {
    const a = this.armedSwitch;
    return !!a && this.resumes(a);
  }

  /**
   * Whether a switch to `target` would resume its agent's own session (an agent that ran here
   * before: only what it missed is sent), by the planner's rule; what the switch picker says of each row.
   */
  resumes(target: Pick<ArmedSwitch, 'agent' | 'model' | 'account' | 'local'>): boolean {
    const { registry, conversation, env } = this.deps;
    if (!registry.has(target.agent)) return false;
    return !!resumeFor({
      conversation,
      registry,
      driver: registry.get(target.agent),
      ...(target.model ? { model: target.model } : {}),
      ...(target.account !== undefined ? { account: target.account } : {}),
      ...(target.local ? { local: target.local } : {}),
      env,
      inTab: true,
    });
  }

  say(message: string | undefined): void {
    this.noticeText = message;
    if (message) this.noticeCount++;
    this.changed();
  }

  changed(): void {
    if (this.disposed) return;
    this.screen.armClock();
    const snap = this.snapshot();
    // baton's own turn ending is no moment to call the user: their message goes out next, to the switch.
    const waiting = snap.queue.length + (this.ownTurnSink ? 1 : 0);
    const needs = this.needsYouRule.observe({ status: snap.status, turnOpen: this.status.turnIsOpen, queued: waiting });
    this.changeEmitter.fire(snap);
    if (needs) this.needsYouEmitter.fire(needs);
  }

  protected refuse(message: string): SendResult {
    this.say(message);
    return { kind: 'refused', message };
  }

  /** The screen reads settled (screen-watch.ts): the status is read again, and the queue may go. */
  protected abstract readScreen(changedAlready?: boolean): void;
  /** One event of the CLI's log, in the log's order (behind a checkpoint being taken). */
  protected abstract ingest(e: TranscriptEvent): void;
  /** The tab's agent changed underneath an armed switch: drop it, and say so. */
  abstract dropArmedSwitch(reason: string): void;
}
