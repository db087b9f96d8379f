// Conversations in the TUI: the agent picker (installed drivers and the plain shell), one
// TabConversation per agent tab (a fork's tab marked as one), the compose bar and the transcript
// view bound to the active tab (with its fork, reset and undo: fork-actions.ts; a tab whose
// agent a reset stopped shows baton's notice instead of the agent's last screen), the
// in-place switch (prefix a), and the tabs remembered per directory so reopening baton there
// offers them back (remembered by the conversation layer's store). The glue between App
// (blessed) and src/conversation's index; decisions stay in the conversation layer.

import {
  openTabConversation,
  rememberedTabs,
  rememberTabs,
  userAuthor,
  type ClosedConversation,
  type ConversationSource,
  type RememberedTab,
  type TabConversation,
  type TabSnapshot,
} from '../conversation/index.js';
import type { Registry } from '../plugins/registry.js';
import type { GitFactsProvider } from '../transcript/git-facts-types.js';
import type { UserAuthor } from '../transcript/types.js';
import { DisposableStore } from '../lifecycle/index.js';
import type { App } from './app.js';
import { AgentChoices, type Choice } from './agent-choices.js';
import { ComposeBar } from './compose-bar.js';
import { installTab } from './install-choices.js';
import { shellChoice } from './shell-choice.js';
import { forkFromView, offerWorktreeRemoval, resetFromView, undoResetFromView, type ForkActionsContext } from './fork-actions.js';
import { resetNotice, worktreesStayNote, type OpenWorktree, type ResetNoticeFacts } from './fork-dialog.js';
import { withModel } from './model-choices.js';
import { confirm, openPicker, type PickerToggle } from './picker.js';
import { armedName, summaryToggle } from './summary-toggle.js';
import { askLocalModel, withLocalRow, type LocalPick, type LocalRow } from './local-model-dialog.js';
import type { Tab } from './tab.js';
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

/** How long a picker waits for agents' detections before it is drawn with what it has. */
const QUICK_ANSWER_MS = 150;

/** What a reset (or its undo) that stopped a tab's agent said; the notice is drawn from it. */
type StoppedFacts = Omit<ResetNoticeFacts, 'prefix' | 'nextTitle'>;

interface TabEntry {
  session: TabConversation;
  terminal: TabTerminal;
  /** This module's subscriptions to the session and the tab, ended as the tab closes. */
  subs: DisposableStore;
  stopped?: StoppedFacts;
}

export class ConversationTabs {
  private readonly sessions = new Map<Tab, TabEntry>();
  private compose!: ComposeBar;
  private app!: App;
  /** Subscriptions that live as long as this module (the app's front-tab changes). */
  private readonly owned = new DisposableStore();

  constructor(private readonly opts: ConversationTabsOptions) {}

  attach(app: App): void {
    this.app = app;
    this.compose = new ComposeBar(app, () => this.composeHandlers(), this.opts.prefix);
    this.owned.add(
      app.onActiveChange(() => {
        // The tab is in view: whatever it needed the user for is seen.
        app.activeTab?.setUnseen(undefined);
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
    const tab = this.app.activeTab;
    return tab ? this.sessions.get(tab)?.session : undefined;
  }

  private titles(): Record<string, string> {
    return Object.fromEntries(this.opts.registry.drivers().map((d) => [d.name, d.title]));
  }

  /** Installed agents that can run in a tab, by title, with version and default model, as they are found; then the plain shell. */
  private agentChoices(opts: { current?: string; agentsOnly?: boolean } = {}): AgentChoices {
    return new AgentChoices({ registry: this.opts.registry, cwd: this.opts.cwd, env: this.opts.env, ...opts });
  }

  /**
   * A picker on agents as they are found: drawn once the quick answers are in, or after a
   * moment at most (a CLI asked for its version may take seconds; its row says "checking…"
   * until then), so the picker never waits behind a blank screen.
   */
  private async pickAgent(
    title: string,
    choices: AgentChoices,
    note?: string,
    running?: { agent?: string; model?: string },
    toggles?: PickerToggle[],
  ): Promise<Choice | LocalRow | undefined> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([choices.settled, new Promise<void>((r) => (timer = setTimeout(r, QUICK_ANSWER_MS)))]);
    clearTimeout(timer);
    const choice = await openPicker(this.app, title, withLocalRow(choices), note, toggles);
    if (choice?.kind === 'local') return choice;
    return withModel(this.app, choice, { registry: this.opts.registry, cwd: this.opts.cwd, env: this.opts.env, running });
  }

  /** The picker's "Local model…": asked, probed and chosen (local-model-dialog.ts); undefined when given up. */
  private async pickLocal(): Promise<LocalPick | undefined> {
    const pick = await askLocalModel(this.app, { registry: this.opts.registry, env: this.opts.env, say: (text) => this.app.showMessage(text, 8000) });
    if (pick)
      this.app.showMessage(
        `${pick.model} at ${pick.endpoint}: ${pick.title} (${pick.choice.family} family, ${pick.choice.api})${pick.warning ? `. ${pick.warning}` : ''}`,
        8000,
      );
    return pick;
  }

  async newTab(): Promise<void> {
    const choice = await this.pickAgent('New tab', this.agentChoices());
    if (!choice) return;
    if (choice.kind === 'shell') {
      this.app.openTab(shellChoice(this.opts.cwd, this.opts.env).value);
      return;
    }
    if (choice.kind === 'local') {
      const pick = await this.pickLocal();
      if (pick) await this.startSession({ new: { cwd: this.opts.cwd } }, pick.agent, pick.model, undefined, pick.local);
      return;
    }
    if (choice.kind === 'install') {
      this.app.openTab(installTab(choice.name, this.opts.registry.get(choice.name).title, this.opts.cwd, this.opts.env));
      return;
    }
    await this.startSession({ new: { cwd: this.opts.cwd } }, choice.name, choice.model, choice.account);
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
    subs.add(s.onNeedsYou((kind) => this.draftFor(s, (tab) => tabNeedsYou(this.app, tab, kind, (n) => this.tellOuter(n)))));
    // A message its agent did not take comes back to this tab's draft; one it took late leaves it.
    subs.add(s.onDraft((text: string) => this.draftFor(s, (tab) => this.compose.restoreFor(tab, text))));
    subs.add(
      s.onTaken((text: string) =>
        this.draftFor(s, (tab) => {
          if (this.compose.dropFrom(tab, text) && s === this.active)
            this.app.showMessage(`${s.snapshot().notice ?? ''} Its copy left the compose bar.`.trim(), 8000);
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
    for (const [tab, s] of this.sessions) {
      if (s.session !== session) continue;
      // A relaunch took the notice away: the agent runs again.
      if (s.stopped && !tab.notice) s.stopped = undefined;
      if (s.stopped) this.drawStopped(tab, s);
      if (snap.status !== tab.status && tab.status !== 'exited' && tab.status !== 'stopped') tab.setStatus(snap.status === 'exited' ? 'exited' : snap.status);
      if (snap.agentTitle && tab.launch.agent !== snap.agent) tab.setTitle(snap.agentTitle);
    }
    if (snap.notice && session === this.active) this.app.showMessage(snap.notice, 8000);
    if (session === this.active) this.refreshCompose();
  }

  private tellOuter(n: Notification): void {
    if (this.opts.tellOuter) this.opts.tellOuter(n);
    else this.app.screen.program.write(notificationBytes(n, this.opts.notify ?? DEFAULT_NOTIFY, outerTerminalFacts(this.opts.env)));
  }

  /** Runs `fn` with the tab of `session` (if it still has one). */
  private draftFor(session: TabConversation, fn: (tab: Tab) => void): void {
    for (const [tab, s] of this.sessions) if (s.session === session) fn(tab);
  }

  /** The tab's notice, drawn again when what it says changed (another agent armed meanwhile). */
  private drawStopped(tab: Tab, entry: TabEntry): void {
    if (!entry.stopped) return;
    const armed = entry.session.snapshot().armed?.title;
    const lines = resetNotice({ ...entry.stopped, prefix: this.opts.prefix, ...(armed ? { nextTitle: armed } : {}) });
    if (tab.notice && tab.notice.join('\n') === lines.join('\n')) return;
    tab.showNotice(lines);
  }

  private showStopped(s: TabConversation, facts: StoppedFacts): void {
    for (const [tab, entry] of this.sessions) {
      if (entry.session !== s) continue;
      entry.stopped = facts;
      this.drawStopped(tab, entry);
    }
    this.refreshCompose();
  }

  private activeEntry(): TabEntry | undefined {
    const tab = this.app.activeTab;
    return tab ? this.sessions.get(tab) : undefined;
  }

  refreshCompose(): void {
    if (!this.compose) return;
    this.compose.showFor(this.app.activeTab);
    const entry = this.activeEntry();
    const snap = entry?.session.snapshot();
    const user = this.author();
    const stopped = entry?.stopped && this.app.activeTab?.notice ? entry.stopped : undefined;
    const armedTitle = snap?.armed ? armedName(snap.armed) : undefined;
    // After a reset the armed agent is a restart, not a switch: said as such.
    const armedText =
      stopped && armedTitle
        ? {
            head: `Next message starts ${armedTitle} afresh`,
            // Short: the line is one row at 80 columns (the pane says the rest).
            note: stopped.undone ? 'with the conversation as it is now' : `with a replay up to #${stopped.seq}`,
          }
        : undefined;
    this.compose.update({
      author: `${user.name}@${user.device}`,
      // The account is said where it is not the CLI's own configuration.
      agentTitle: snap?.agentTitle && snap.account ? `${snap.agentTitle} (account ${snap.account})` : snap?.agentTitle,
      armedTitle,
      ...(armedText ? { armedText } : {}),
      ...(snap?.briefPending && snap.agentTitle ? { carries: `Your next message carries the conversation so far to ${snap.agentTitle}.` } : {}),
      queue: snap?.queue ?? [],
      ...(this.app.activeTab && !entry ? { shell: true } : {}),
      status: stopped
        ? 'stopped'
        : snap
          ? snap.status === 'approval'
            ? `needs you: answer ${snap.agentTitle ?? 'the agent'} in its pane`
            : snap.status
          : 'plain shell',
    });
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
        if (r.kind === 'queued') this.app.showMessage(r.message, 8000);
        this.refreshCompose();
        await this.remember();
      },
      unqueue: (i: number, text: string) => s.deleteQueued(i, text),
      deleteQueued: (i: number, text: string) => void s.deleteQueued(i, text),
    };
  }

  focusCompose(): void {
    if (!this.active) {
      this.app.showMessage('This tab runs a plain shell: type into it directly. Open an agent tab to compose messages.');
      return;
    }
    this.compose.focus();
  }

  async switchAgent(): Promise<void> {
    const s = this.active;
    if (!s) {
      this.app.showMessage('This tab runs a plain shell; open an agent tab to switch agents.');
      return;
    }
    const noContext = s.snapshot().noContext;
    const note = noContext
      ? 'Nothing has been said yet: there is no context to carry; the agent simply starts.'
      : 'Recent conversation continues as text; images and files are not carried.';
    const snap = s.snapshot();
    // `s`: the agent that runs now writes a summary first, in its pane, which the brief uses
    // (tab-summary-turn.ts); offered when there is a conversation to summarize and it runs.
    const summary = !noContext && snap.running && snap.agentTitle ? summaryToggle(snap.agentTitle) : undefined;
    const picked = await this.pickAgent('Continue with', this.agentChoices({ current: snap.agent, agentsOnly: true }), note, snap, summary ? [summary] : []);
    if (!picked || picked.kind === 'shell') return;
    let choice: { name: string; model?: string; account?: string; local?: LocalPick['local'] };
    if (picked.kind === 'local') {
      const pick = await this.pickLocal();
      if (!pick) return;
      choice = { name: pick.agent, model: pick.model, local: pick.local };
    } else choice = picked;
    if (
      noContext &&
      (choice.name !== snap.agent || choice.account !== undefined || choice.local || (choice.model !== undefined && choice.model !== snap.model))
    ) {
      const outcome = await s.startInstead(choice.name, choice.model, choice.account, choice.local);
      this.app.showMessage(outcome.message);
      await this.remember();
      return;
    }
    const r = s.arm(choice.name, choice.model, choice.account, choice.local, summary?.on);
    this.refreshCompose();
    if (r.armed) this.compose.focus();
    else this.app.showMessage('Switch cancelled: that agent already runs this conversation.');
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
        const choices = this.agentChoices({ agentsOnly: true });
        await choices.settled;
        // A fork from the TUI keeps the account rules (baton fork --account chooses one).
        return choices
          .list()
          .flatMap((c) =>
            c.value.kind === 'agent' && !c.value.account && !c.value.pickModel ? [{ label: c.label, detail: c.detail, value: c.value.name }] : [],
          );
      },
      openConversationTab: (id, agent, model) => this.startSession({ open: id }, agent, model),
      showStopped: (s, facts) => this.showStopped(s, facts),
    };
  }

  /** The conversation a tab holds, if it is an agent tab. */
  conversationOf(tab: Tab): string | undefined {
    return this.sessions.get(tab)?.session.facts().id;
  }

  /** Worktree forks open in tabs: they stay when baton quits. */
  openWorktrees(): OpenWorktree[] {
    const out: OpenWorktree[] = [];
    for (const { session } of this.sessions.values()) {
      const f = session.facts();
      if (f.worktreeBranch) out.push({ conversationId: f.id, path: f.cwd, branch: f.worktreeBranch });
    }
    return out;
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
    if (closed && branch) await offerWorktreeRemoval(this.forkContext(), { ...closed, worktreeBranch: branch }, this.tabIn(closed.cwd));
  }

  /** The label of an open tab whose conversation runs in dir (or below it), if any. */
  private tabIn(dir: string): string | undefined {
    for (const [tab, { session }] of this.sessions) {
      const cwd = session.facts().cwd;
      if (cwd === dir || cwd.startsWith(`${dir}/`)) return tab.label;
    }
    return undefined;
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
    for (const entry of this.sessions.values()) await this.closeEntry(entry).catch(() => undefined);
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

  private async remember(): Promise<void> {
    const list: RememberedTab[] = [];
    for (const { session } of this.sessions.values()) {
      const snap = session.snapshot();
      if (snap.agent) list.push({ conversation: snap.conversationId, agent: snap.agent, ...(snap.model ? { model: snap.model } : {}) });
    }
    await rememberTabs(this.opts.home, this.opts.cwd, list);
  }

  /** Offers the tabs baton had open in this directory last time; true when any came back. */
  async offerRestore(): Promise<boolean> {
    const saved = rememberedTabs(this.opts.home, this.opts.cwd);
    if (!saved.length) return false;
    const names = saved.map((r) => this.titles()[r.agent] ?? r.agent).join(', ');
    if (
      !(await confirm(
        this.app,
        'Restore tabs',
        `Last time baton had ${saved.length} tab${saved.length > 1 ? 's' : ''} here: ${names}.\nOpen ${saved.length > 1 ? 'them' : 'it'} again?`,
      ))
    )
      return false;
    for (const r of saved) {
      try {
        await this.startSession({ open: r.conversation }, r.agent, r.model === 'default' ? undefined : r.model);
      } catch (err) {
        this.app.showMessage(`could not restore ${r.conversation}: ${(err as Error).message}`, 8000);
      }
    }
    return this.sessions.size > 0;
  }
}
