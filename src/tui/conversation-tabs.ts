// Conversations in the TUI: one TabConversation per agent tab (a fork's tab marked as one),
// opened from the new-tab picker and switched in place (prefix a) with what the pickers of
// agent-pick.ts answer; the compose bar (its words: compose-state.ts) and the transcript view
// bound to the active tab (with its fork, reset and undo: fork-actions.ts; a tab whose agent a
// reset stopped shows baton's notice instead of the agent's last screen); the tabs remembered
// per directory (tab-restore.ts). The glue between App (blessed) and src/conversation's index;
// decisions stay in the conversation layer.

import {
  openTabConversation,
  userAuthor,
  type ClosedConversation,
  type ConversationSource,
  type InputProgress,
  type TabConversation,
  type TabSnapshot,
} from '../conversation/index.js';
import type { Registry } from '../plugins/registry.js';
import type { GitFactsProvider } from '../transcript/git-facts-types.js';
import type { UserAuthor } from '../transcript/types.js';
import { type Disposable, DisposableStore, MutableDisposable } from '../lifecycle/index.js';
import type { App } from './app.js';
import { agentChoices, pickNewTab, pickSwitch, type AgentPickContext } from './agent-pick.js';
import { ComposeBar } from './compose-bar.js';
import { composeState } from './compose-state.js';
import { installTab } from './install-choices.js';
import { shellChoice } from './shell-choice.js';
import { forkFromView, offerWorktreeRemoval, resetFromView, undoResetFromView, type ForkActionsContext } from './fork-actions.js';
import { worktreesStayNote, type OpenWorktree } from './fork-dialog.js';
import type { LocalPick } from './local-model-dialog.js';
import { confirm } from './picker.js';
import type { Pane } from './pane.js';
import type { Tab } from './tab.js';
import { offerRememberedTabs, rememberOpenTabs } from './tab-restore.js';
import { TabSessions, type TabEntry } from './tab-sessions.js';
import { TabTerminal } from './tab-terminal.js';
import { DEFAULT_NOTIFY, notificationBytes, outerTerminalFacts, type Notification, type NotifySettings } from './desktop-notify.js';
import { tabNeedsYou } from './needs-you-tabs.js';
import { openTranscriptView } from './transcript-view.js';

export interface ConversationTabsOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  home: string;
  registry: Registry;
  git: GitFactsProvider;
  prefix: string;
  /**
   * Who is typing now (a server-hosted view: the attached client whose keys are being
   * handled, else the one that typed last); undefined, or no such function, is this
   * process's own user. Read at the compose bar's Enter: the message is theirs.
   */
  author?: () => UserAuthor | undefined;
  /** The bell and desktop notification when a tab needs the user (default: the bell, auto). */
  notify?: NotifySettings;
  /**
   * Tells the terminals the user sits at that a tab needs them (a server: each attached
   * client, as its terminal takes it). Without it, the app's own terminal is written to.
   */
  tellOuter?: (n: Notification) => void;
}

export class ConversationTabs {
  private readonly sessions: TabSessions;
  private compose!: ComposeBar;
  private app!: App;
  /** Subscriptions that live as long as this module (the app's front-tab changes). */
  private readonly owned = new DisposableStore();
  /**
   * Each tab's last notice shown (its noticeSeq): a notice is told once, when said, not again
   * at every later change of the tab (a turn's start and end, an armed switch), where an
   * old "Claude Code started." read as news. It belongs to its tab: said while the tab is in
   * front, taken off when another tab comes to the front (App.showMessage's `about`), and not
   * told again when its tab comes back (AppChrome.frontIs says why); one said while its tab
   * was behind is told when the tab comes to the front, if it is still the tab's notice.
   */
  private readonly noticesShown = new WeakMap<TabConversation, number>();
  /** The front tab's pane, listened to for a slow paste going in, and how far it had got when it last told. */
  private readonly frontInput = this.owned.add(new MutableDisposable<Disposable & { pane: Pane; last?: InputProgress }>());
  /** The status line's "queued (#N): …" and whose queue it was: taken off once that queue is empty. */
  private queuedSaid: { session: TabConversation; text: string } | undefined;

  constructor(private readonly opts: ConversationTabsOptions) {
    this.sessions = new TabSessions(opts.prefix);
  }

  attach(app: App): void {
    this.app = app;
    this.compose = new ComposeBar(app, () => this.composeHandlers(), this.opts.prefix);
    this.owned.add(
      app.onActiveChange(() => {
        // The tab is in view: whatever it needed the user for is seen.
        app.activeTab?.setUnseen(undefined);
        const s = this.active;
        if (s) this.tellNotice(s, s.snapshot());
        this.refreshCompose();
      }),
    );
    app.isAgentTab = (tab) => this.sessions.has(tab);
    this.refreshCompose();
  }

  /**
   * Who writes what the compose bar sends now; also the user a conversation opened now
   * records text typed straight into its agent's pane as (the agent's log names no one).
   */
  private author(): UserAuthor {
    return this.opts.author?.() ?? userAuthor(this.opts.env);
  }

  notify(text: string): void {
    this.app?.showMessage(text, 8000);
  }

  get active(): TabConversation | undefined {
    return this.sessions.get(this.app.activeTab)?.session;
  }

  private titles(): Record<string, string> {
    return Object.fromEntries(this.opts.registry.drivers().map((d) => [d.name, d.title]));
  }

  private pickContext(): AgentPickContext {
    return { app: this.app, registry: this.opts.registry, cwd: this.opts.cwd, env: this.opts.env };
  }

  async newTab(): Promise<void> {
    const pick = await pickNewTab(this.pickContext());
    if (!pick) return;
    if (pick.kind === 'shell') {
      this.app.openTab(shellChoice(this.opts.cwd, this.opts.env).value);
      return;
    }
    if (pick.kind === 'install') {
      this.app.openTab(installTab(pick.name, this.opts.registry.get(pick.name).title, this.opts.cwd, this.opts.env));
      return;
    }
    await this.startSession({ new: { cwd: this.opts.cwd } }, pick.name, pick.model, pick.account, pick.local);
  }

  /** Runs `agent` on the conversation in a new tab (which becomes the active one); undefined when it could not start. */
  private async startSession(
    source: ConversationSource,
    agent: string,
    model?: string,
    account?: string,
    local?: LocalPick['local'],
  ): Promise<TabConversation | undefined> {
    let session: TabConversation | undefined;
    const subs = new DisposableStore();
    const terminal = new TabTerminal(
      (launch) => this.app.openTab(launch),
      (tab) => {
        this.sessions.set(tab, { session: session!, terminal, subs });
        const { forkedFrom, worktreeBranch } = session!.facts();
        if (forkedFrom) tab.fork = { at: forkedFrom.seq, ...(worktreeBranch ? { branch: worktreeBranch } : {}) };
        subs.add(tab.onChange(() => this.refreshCompose()));
        // The tab came to the front before it was known as an agent's.
        this.refreshCompose();
      },
    );
    session = await openTabConversation({
      home: this.opts.home,
      source,
      user: this.author(),
      registry: this.opts.registry,
      terminal,
      env: this.opts.env,
      git: this.opts.git,
      ...(this.opts.author ? { typist: this.opts.author } : {}),
    });
    const s = session;
    subs.add(s.onChange((snap: TabSnapshot) => this.onSessionChange(s, snap)));
    subs.add(s.onNeedsYou((kind) => this.sessions.forSession(s, (tab) => tabNeedsYou(this.app, tab, kind, (n) => this.tellOuter(n)))));
    // A message its agent did not take comes back to this tab's draft; one it took late leaves it.
    subs.add(s.onDraft((text: string) => this.sessions.forSession(s, (tab) => this.compose.restoreFor(tab, text))));
    subs.add(
      s.onTaken((text: string) =>
        this.sessions.forSession(s, (tab) => {
          if (this.compose.dropFrom(tab, text) && s === this.active)
            this.app.showMessage(`${s.snapshot().notice ?? ''} Its copy left the compose bar.`.trim(), 8000, tab);
        }),
      ),
    );
    const outcome = await s.start(agent, model, account, local);
    if (!terminal.tab) {
      // The agent could not start: no tab was opened; say why and let the conversation go.
      this.app.showMessage(outcome.message, 8000);
      subs.dispose();
      terminal.dispose();
      await s.close();
      return undefined;
    }
    await this.remember();
    return s;
  }

  private onSessionChange(session: TabConversation, snap: TabSnapshot): void {
    this.sessions.forSession(session, (tab, s) => {
      // A relaunch took the notice away: the agent runs again.
      if (s.stopped && !tab.notice) s.stopped = undefined;
      if (s.stopped) this.sessions.drawStopped(tab, s);
      if (snap.status !== tab.status && tab.status !== 'exited' && tab.status !== 'stopped') tab.setStatus(snap.status === 'exited' ? 'exited' : snap.status);
      if (snap.agentTitle && tab.launch.agent !== snap.agent) tab.setTitle(snap.agentTitle);
    });
    if (session === this.active) this.tellNotice(session, snap);
    if (this.queuedSaid?.session === session && snap.queue.length === 0) {
      // Sent: "queued … sent when <Agent> is idle" would read as still waiting.
      this.app.withdrawMessage(this.queuedSaid.text);
      this.queuedSaid = undefined;
    }
    if (session === this.active) this.refreshCompose();
  }

  /** Says the front tab's notice on the status line, as about that tab, unless it was told already (noticesShown). */
  private tellNotice(session: TabConversation, snap: TabSnapshot): void {
    if (!snap.notice || snap.noticeSeq === this.noticesShown.get(session)) return;
    this.noticesShown.set(session, snap.noticeSeq);
    this.app.showMessage(snap.notice, 8000, this.app.activeTab);
  }

  private tellOuter(n: Notification): void {
    if (this.opts.tellOuter) this.opts.tellOuter(n);
    else this.app.screen.program.write(notificationBytes(n, this.opts.notify ?? DEFAULT_NOTIFY, outerTerminalFacts(this.opts.env)));
  }

  refreshCompose(): void {
    if (!this.compose) return;
    const tab = this.app.activeTab;
    this.compose.showFor(tab);
    const entry = this.sessions.get(tab);
    const pasting = this.watchInput(tab?.pane);
    this.compose.update(
      composeState({
        user: this.author(),
        ...(entry ? { snap: entry.session.snapshot() } : {}),
        ...(entry?.stopped && tab?.notice ? { stopped: entry.stopped } : {}),
        shell: tab !== undefined && !entry,
        ...(pasting ? { pasting } : {}),
      }),
    );
  }

  /**
   * The front pane's input still going in as it last told (a paste it reads slowly: said in
   * the compose rows as it goes, like a message of baton's); listened to from when it comes
   * to the front (or its tab's program is relaunched) until another does.
   */
  private watchInput(pane: Pane | undefined): InputProgress | undefined {
    const watched = this.frontInput.value;
    if (watched?.pane === pane) return watched?.last;
    if (!pane) {
      this.frontInput.clear();
      return undefined;
    }
    const w: Disposable & { pane: Pane; last?: InputProgress } = { pane, dispose: () => sub.dispose() };
    const sub = pane.onInput((p) => {
      w.last = p.done ? undefined : p;
      if (this.frontInput.value === w) this.refreshCompose();
    });
    this.frontInput.value = w;
    return undefined;
  }

  private composeHandlers() {
    const s = this.active;
    if (!s) return undefined;
    // The tab the draft was written in: a send can take a while, and the user may change tabs meanwhile.
    const tab = this.app.activeTab!;
    // Taken as Enter is pressed: the client that pressed it wrote the message, whoever types next.
    const author = this.author();
    return {
      send: async (text: string) => {
        const r = await s.send(text, author);
        // (A delivery the agent did not take comes back through the session's 'draft' event.)
        if (r.kind === 'refused') this.compose.restoreFor(tab, text);
        if (r.kind === 'switch' && r.outcome.draft) this.compose.restoreFor(tab, r.outcome.draft);
        if (r.kind === 'queued' && s.snapshot().queue.length > 0) {
          this.app.showMessage(r.message, 8000, tab);
          this.queuedSaid = { session: s, text: r.message };
        }
        this.refreshCompose();
        await this.remember();
      },
      unqueue: (i: number, text: string) => s.deleteQueued(i, text),
      deleteQueued: (i: number, text: string) => void s.deleteQueued(i, text),
    };
  }

  focusCompose(): void {
    if (!this.active) {
      this.app.showMessage('This tab runs a plain shell: type into it directly. Open an agent tab to compose messages.', 4000, this.app.activeTab);
      return;
    }
    this.compose.focus();
  }

  async switchAgent(): Promise<void> {
    const s = this.active;
    // The tab the answers below are about: the pickers wait for the user, who may go elsewhere meanwhile.
    const tab = this.app.activeTab;
    if (!s) {
      this.app.showMessage('This tab runs a plain shell; open an agent tab to switch agents.', 4000, tab);
      return;
    }
    const snap = s.snapshot();
    const pick = await pickSwitch(this.pickContext(), snap, (t) => s.resumes(t.name, t.model, t.account, t.local));
    if (!pick) return;
    const { target: t } = pick;
    if (pick.noContext && (t.name !== snap.agent || t.account !== undefined || t.local || (t.model !== undefined && t.model !== snap.model))) {
      const outcome = await s.startInstead(t.name, t.model, t.account, t.local);
      this.app.showMessage(outcome.message, 4000, tab);
      await this.remember();
      return;
    }
    const r = s.arm(t.name, t.model, t.account, t.local, pick.summary);
    this.refreshCompose();
    if (r.armed) this.compose.focus();
    else this.app.showMessage('Switch cancelled: that agent already runs this conversation.', 4000, tab);
  }

  async showTranscript(): Promise<void> {
    const s = this.active;
    if (!s) {
      this.app.showMessage('A plain shell tab has no transcript.');
      return;
    }
    const ctx = this.forkContext();
    const guard = (what: string, run: () => Promise<void>) =>
      run().catch((e: unknown) => this.app.showMessage(`${what} failed: ${(e as Error).message}`, 10_000));
    const facts = s.facts();
    await openTranscriptView(this.app, s.transcript(), this.titles(), facts.title || facts.id, {
      fork: (seq, view) => guard('fork', () => forkFromView(ctx, s, seq, view)),
      reset: (seq, view) => guard('reset', () => resetFromView(ctx, s, seq, view)),
      undo: (_seq, view) => guard('undo', () => undoResetFromView(ctx, s, view)),
    });
  }

  private forkContext(): ForkActionsContext {
    return {
      app: this.app,
      home: this.opts.home,
      cwd: this.opts.cwd,
      env: this.opts.env,
      registry: this.opts.registry,
      titles: () => this.titles(),
      agentChoices: async () => {
        const choices = agentChoices(this.pickContext(), { agentsOnly: true });
        await choices.settled;
        // A fork from the TUI keeps the account rules (baton fork --account chooses one).
        return choices
          .list()
          .flatMap((c) =>
            c.value.kind === 'agent' && !c.value.account && !c.value.pickModel ? [{ label: c.label, detail: c.detail, value: c.value.name }] : [],
          );
      },
      openConversationTab: (id, agent, model) => this.startSession({ open: id }, agent, model),
      showStopped: (s, facts) => {
        this.sessions.showStopped(s, facts);
        this.refreshCompose();
      },
    };
  }

  /** The conversation a tab holds, if it is an agent tab. */
  conversationOf(tab: Tab): string | undefined {
    return this.sessions.get(tab)?.session.facts().id;
  }

  /** Worktree forks open in tabs: they stay when baton quits. */
  openWorktrees(): OpenWorktree[] {
    return this.sessions.openWorktrees();
  }

  /** prefix q: the app's quit question (asked only when a tab is busy) also says the worktrees stay. */
  quit(): Promise<void> {
    return this.app.requestQuit(worktreesStayNote(this.openWorktrees()));
  }

  async closeTab(): Promise<void> {
    const tab = this.app.activeTab;
    if (!tab) return;
    const entry = this.sessions.get(tab);
    if (tab.busy() && !(await confirm(this.app, 'Close tab', `${tab.label} is still working.\nClose it and end what runs in it?`))) return;
    // The tab leaves the bar (and its program ends) first, so its agent's exit is not
    // reported as if the tab were still there ("exited · C-b x closes the tab").
    if (entry) {
      this.sessions.delete(tab);
      entry.subs.dispose();
    }
    await this.app.closeTab(tab);
    const closed = entry ? await this.closeEntry(entry) : undefined;
    await this.remember();
    // Asked once the tab is gone: its agent no longer runs in the worktree, its conversation is closed.
    const branch = closed?.worktreeBranch;
    if (closed && branch) await offerWorktreeRemoval(this.forkContext(), { ...closed, worktreeBranch: branch }, this.sessions.tabIn(closed.cwd));
  }

  /** Closes every conversation (the app ends the programs). */
  async dispose(): Promise<void> {
    // Remembering the tabs may fail (a full disk): every conversation is closed all the same.
    let failure: unknown;
    try {
      await this.remember();
    } catch (e) {
      failure = e ?? new Error('remembering the tabs failed');
    }
    this.owned.dispose();
    for (const [, entry] of this.sessions.entries()) await this.closeEntry(entry).catch(() => undefined);
    this.sessions.clear();
    if (failure !== undefined) throw failure;
  }

  /** Ends a tab's conversation: its agent, its log's ingest, and every listener of ours on it. */
  private async closeEntry(entry: TabEntry): Promise<ClosedConversation> {
    entry.subs.dispose();
    try {
      return await entry.session.close();
    } finally {
      entry.terminal.dispose();
    }
  }

  // ---- restore ----

  private remember(): Promise<void> {
    return rememberOpenTabs(this.opts.home, this.opts.cwd, this.sessions.sessions());
  }

  /** Offers the tabs baton had open in this directory last time; true when any came back. */
  async offerRestore(): Promise<boolean> {
    const taken = await offerRememberedTabs({
      app: this.app,
      home: this.opts.home,
      cwd: this.opts.cwd,
      titles: this.titles(),
      open: (agent, conversation, model) => this.startSession({ open: conversation }, agent, model),
    });
    return taken && this.sessions.size > 0;
  }
}
