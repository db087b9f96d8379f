// A tab's conversation as the TUI (and the server hosting it) sees it: the conversation
// layer's one way in. Commands in (start, arm, send, queue edits, fork, reset, undo, close),
// snapshots and events out; the facts a dialog shows are asked for, never read off the
// transcript. Behind it a TabSession runs the agent; this module adds the commands that act on
// the conversation's history (fork-history.ts does the work of fork, reset and undo).
// It must never hand out the session, its queue or its transcript (a view of the transcript
// is read-only), and never stop or start an agent except through the session's own paths.

import type { Event } from '../lifecycle/index.js';
import type { Registry } from '../plugins/registry.js';
import type { PermissionMode } from '../plugins/api.js';
import type { GitFactsProvider } from '../transcript/git-facts-types.js';
import type { LocalEndpointRef, UserAuthor } from '../transcript/types.js';
import type { OpenConversation } from '../transcript/store.js';
import { createCheckpoint } from '../worktree/checkpoint.js';
import { isRepo } from '../worktree/git.js';
import type { AgentTerminal } from './agent-terminal.js';
import type { ForkResult } from './fork.js';
import type { NeedsYou } from './needs-you.js';
import {
  conversationFacts,
  forkAt,
  forkFacts,
  resetFacts,
  resetTo,
  transcriptReader,
  undoFacts,
  undoReset,
  type ConversationFacts,
  type ForkFacts,
  type ForkWhere,
  type ResetDone,
  type ResetFacts,
  type TranscriptReader,
  type UndoDone,
  type UndoFacts,
} from './fork-history.js';
import { openForTab, type ConversationSource } from './store/conversations.js';
import type { SwitchOutcome } from './switch-transaction.js';
import { TabSession, type SendResult, type TabSnapshot } from './tab-session.js';

export interface TabConversationOptions {
  home: string;
  source: ConversationSource;
  /** The user a new conversation is started by, and messages typed into the pane are by default. */
  user: UserAuthor;
  registry: Registry;
  /** The terminal the tab's agent runs in (a tab is opened by its first launch). */
  terminal: AgentTerminal;
  env: NodeJS.ProcessEnv;
  git?: GitFactsProvider;
  /** Who typed into the pane last (see TabSessionDeps.typist). */
  typist?: () => UserAuthor | undefined;
  deliveryTimeoutMs?: number;
  readyTimeoutMs?: number;
}

/** Creates or opens the conversation and the session that runs its agent in `terminal` (no agent is started yet). */
export async function openTabConversation(o: TabConversationOptions): Promise<TabConversation> {
  const conv = await openForTab(o.home, o.source, o.user);
  const cwd = conv.meta.data.cwd;
  const repo = await isRepo(cwd);
  const session = new TabSession({
    conversation: conv,
    registry: o.registry,
    terminal: o.terminal,
    env: o.env,
    ...(o.git ? { git: o.git } : {}),
    checkpoint: repo ? (seq) => createCheckpoint(cwd, conv.id, seq) : undefined,
    ...(o.typist ? { typist: o.typist } : {}),
    ...(o.deliveryTimeoutMs !== undefined ? { deliveryTimeoutMs: o.deliveryTimeoutMs } : {}),
    ...(o.readyTimeoutMs !== undefined ? { readyTimeoutMs: o.readyTimeoutMs } : {}),
  });
  return new TabConversation(session, { home: o.home, registry: o.registry, env: o.env });
}

/** What a closed tab leaves: its conversation, and where it ran (a worktree fork's branch, if it is one). */
export type ClosedConversation = ConversationFacts;

export class TabConversation {
  /** Anything the compose bar shows changed (status, queue, armed switch, notice). */
  readonly onChange: Event<TabSnapshot>;
  /** A message the CLI did not take, handed back to the compose bar. */
  readonly onDraft: Event<string>;
  /** A message handed back earlier that the CLI took late after all: its compose-bar copy is to go. */
  readonly onTaken: Event<string>;
  /** The agent started waiting for the user, or ended a turn with nothing queued behind it (once each time). */
  readonly onNeedsYou: Event<NeedsYou>;
  private closing: Promise<ClosedConversation> | undefined;

  constructor(
    private readonly session: TabSession,
    private readonly ctx: { home: string; registry: Registry; env: NodeJS.ProcessEnv },
  ) {
    this.onChange = session.onChange;
    this.onDraft = session.onDraft;
    this.onTaken = session.onTaken;
    this.onNeedsYou = session.onNeedsYou;
  }

  private get conv(): OpenConversation {
    return this.session.conversation;
  }

  snapshot(): TabSnapshot {
    return this.session.snapshot();
  }

  /** The conversation's id, title, directory and fork marks. */
  facts(): ConversationFacts {
    return conversationFacts(this.conv);
  }

  /**
   * The permission mode the tab's agent starts in from its next launch on (a view tab changes
   * it live itself; the CLI's own terminal UI takes it at launch). Undefined: its own default.
   */
  setLaunchMode(mode: PermissionMode | undefined): void {
    this.session.launchMode = mode;
  }

  get launchMode(): PermissionMode | undefined {
    return this.session.launchMode;
  }

  /**
   * Starts (or restores) `agent` in the tab with whatever context the conversation has.
   * `account`: one of its accounts (`default`: the CLI's own configuration); default: the
   * one it ran under in this conversation, else its default account. `local`: a local model
   * server to point it at (the picker's "Local model…"); default: the one its last segment
   * here talked to, unless another model is asked for.
   */
  start(agent: string, model?: string, account?: string, local?: LocalEndpointRef): Promise<SwitchOutcome> {
    return this.session.start(agent, model, account, local);
  }

  /** Another agent takes the tab at once (nothing said yet, so nothing to carry). */
  startInstead(agent: string, model?: string, account?: string, local?: LocalEndpointRef): Promise<SwitchOutcome> {
    return this.session.startInstead(agent, model, account, local);
  }

  /**
   * Arms a switch to another agent (or another account of this one) for the next message; the
   * current one disarms. `summary`: before it stops, the tab's agent writes a summary the brief uses.
   */
  arm(agent: string, model?: string, account?: string, local?: LocalEndpointRef, summary?: boolean): { armed: boolean; noContext: boolean } {
    return this.session.arm(agent, model, account, local, summary);
  }

  /** Whether switching to `agent` (with that model, account, server) resumes its own session here: what the switch picker says of its row. */
  resumes(agent: string, model?: string, account?: string, local?: LocalEndpointRef): boolean {
    return this.session.resumes({ agent, ...(model ? { model } : {}), ...(account !== undefined ? { account } : {}), ...(local ? { local } : {}) });
  }

  send(text: string, author?: UserAuthor): Promise<SendResult> {
    return this.session.send(text, author);
  }

  /** Deletes the queued message at `index` if it still reads `expected`; gives back what it deleted. */
  deleteQueued(index: number, expected?: string): string | undefined {
    return this.session.deleteQueued(index, expected);
  }

  /** Tells the user something in the tab's notice. */
  say(message: string | undefined): void {
    this.session.say(message);
  }

  /** The transcript as it stands (flushed), read-only. */
  transcript(): TranscriptReader {
    return transcriptReader(this.conv);
  }

  /** What the fork dialog shows for entry `seq`: the entry, the agent that ran it, why a worktree fork cannot be made (if so). */
  forkFacts(seq: number, titles: Record<string, string>): Promise<ForkFacts> {
    return forkFacts(this.conv, seq, titles, this.ctx.env);
  }

  /**
   * Forks the conversation at `seq` into a new conversation (in a new worktree with
   * `where.worktree`), continued by `where.agent` or the agent that ran `seq`. Opening it in a
   * tab is the caller's (openTabConversation with its id). Throws a BatonError, making nothing, when refused.
   */
  fork(seq: number, where: ForkWhere): Promise<ForkResult> {
    return forkAt(this.conv, seq, where, this.ctx);
  }

  /** What the reset dialog shows for `seq`, or why a reset to it is refused now. */
  resetFacts(seq: number, titles: Record<string, string>): ResetFacts {
    return resetFacts(this.session, seq, titles);
  }

  /**
   * Resets the conversation to `seq` (optionally restoring the files) and stops the agent: its
   * own session remembers what the reset hid, so the next message starts it afresh with a
   * replay. Refused while the agent is busy; a BatonError, changing nothing, when the reset
   * itself is refused (an entry not shown, a dirty worktree the files cannot be restored over).
   */
  reset(seq: number, opts: { restore?: boolean; force?: boolean } = {}): Promise<ResetDone | { refused: string }> {
    return resetTo(this.session, seq, opts);
  }

  /** What undoing the newest reset would bring back, or why there is nothing to undo now. */
  undoFacts(): UndoFacts {
    return undoFacts(this.session);
  }

  /** Undoes the newest reset (the files are not touched) and stops the agent, as a reset does. */
  undo(): Promise<UndoDone | { refused: string }> {
    return undoReset(this.session);
  }

  /** Ends the tab's agent, its log's ingest and every timer, and closes the conversation. Safe to call twice. */
  close(): Promise<ClosedConversation> {
    this.closing ??= (async () => {
      const facts = this.facts();
      await this.session.dispose();
      return facts;
    })();
    return this.closing;
  }
}
