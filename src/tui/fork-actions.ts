// What `f`, `r` and `u` in the transcript view do, and the worktree question when a fork's
// tab closes: the dialogs of fork-dialog.ts (with the facts the conversation layer gives for
// them), then the tab conversation's fork, reset and undo commands and removeForkWorktree. Every
// refusal is shown with its reason and a way on (a tab fork instead of a worktree one, a
// reset without restoring the files, keeping a dirty worktree), in the TUI's terms where the
// conversation layer words it for the command line; nothing is forked, reset or removed unasked.
// It must never decide between a native fork and a replay (the launch path does) and never
// remove a worktree another open tab still runs in.

import { basename } from 'node:path';
import { BatonError, EXIT } from '../errors.js';
import { removeForkWorktree, type ClosedConversation, type ForkResult, type TabConversation } from '../conversation/index.js';
import type { Registry } from '../plugins/registry.js';
import type { App } from './app.js';
import {
  askFork,
  askForceRemove,
  askRemoveWorktree,
  askReset,
  askRestoreRefused,
  askTabInstead,
  askUndoReset,
  worktreeRefusal,
  type ForkAnswer,
  type Refusal,
  type StoppedFacts,
} from './fork-dialog.js';
import { openPicker, type PickerChoice } from './picker.js';
import type { ViewControl } from './transcript-view.js';

export interface ForkActionsContext {
  app: App;
  home: string;
  /** The directory baton runs in (where a worktree is removed from when the fork's is gone). */
  cwd: string;
  env: NodeJS.ProcessEnv;
  registry: Registry;
  titles(): Record<string, string>;
  /** Installed agents that can run in a tab, by driver name. */
  agentChoices(): Promise<PickerChoice<string>[]>;
  /** Opens the fork's conversation in a new tab the way a restored tab is opened; undefined when its agent could not start. */
  openConversationTab(id: string, agent: string, model: string | undefined): Promise<TabConversation | undefined>;
  /** The conversation's agent was stopped by a reset (or its undo): its tab shows what happened instead of the agent's last screen. */
  showStopped(s: TabConversation, facts: StoppedFacts): void;
}

const refusal = (err: BatonError): Refusal => (err.hint ? { message: err.message, hint: err.hint } : { message: err.message });

const said = (err: BatonError) => `${err.message}${err.hint ? ` (${err.hint})` : ''}`;

export async function forkFromView(ctx: ForkActionsContext, s: TabConversation, seq: number, view: ViewControl): Promise<void> {
  const { app } = ctx;
  const id = s.facts().id;
  const titles = ctx.titles();
  // Which agents are installed is asked only when `a` is pressed (it runs each CLI); here any other driver offers it.
  const others = ctx.registry.drivers().length > 1;
  // Known before asking, so the dialog says why there is no worktree fork (not a git
  // repository, detached HEAD, no commits, ...) and offers only the tab; the refusal of
  // an actual attempt is still caught below (the repository may change meanwhile).
  const facts = await s.forkFacts(seq, titles);
  const ran = facts.agent ?? s.snapshot().agent;
  const blocked = facts.worktreeBlocked;
  let agent: string | undefined;
  let where: ForkAnswer | undefined;
  for (;;) {
    const title = titles[agent ?? ran ?? ''] ?? agent ?? ran ?? 'the agent';
    where = await askFork(app, {
      seq,
      entry: facts.entry,
      agentTitle: title,
      otherAgents: others,
      ...(blocked ? { worktreeBlocked: worktreeRefusal(blocked, id, seq) } : {}),
    });
    if (where !== 'agent') break;
    const picked = await openPicker(app, 'The fork continues with', await ctx.agentChoices());
    if (picked) agent = picked;
  }
  if (!where) return;
  view.close();
  app.showMessage(`Forking at #${seq}${where === 'worktree' ? ' into a new git worktree' : ''}…`, 0);
  const fork = (worktree: boolean) => s.fork(seq, { worktree, ...(agent && agent !== ran ? { agent } : {}) });
  let result: ForkResult;
  try {
    result = await fork(where === 'worktree');
  } catch (err) {
    if (!(err instanceof BatonError)) throw err;
    app.showMessage(undefined);
    if (where !== 'worktree') return app.showMessage(`Nothing was forked: ${said(err)}`, 10_000);
    if (!(await askTabInstead(app, seq, worktreeRefusal(err, id, seq)))) return app.showMessage('Nothing was forked.');
    app.showMessage(`Forking at #${seq}…`, 0);
    try {
      result = await fork(false);
    } catch (again) {
      if (!(again instanceof BatonError)) throw again;
      return app.showMessage(`Nothing was forked: ${said(again)}`, 10_000);
    }
  }
  app.showMessage(undefined);
  const next = result.agent?.harness ?? s.snapshot().agent;
  if (!next) return app.showMessage(`Forked as conversation ${result.id}, but no agent ran it yet: open it with an agent.`, 10_000);
  const opened = await ctx.openConversationTab(result.id, next, result.agent?.model === 'default' ? undefined : result.agent?.model);
  if (!opened) return;
  // One status line: the worktree by its directory name (the full path is in the fork's first notice).
  const in_ = result.worktree ? ` in the worktree ${basename(result.worktree.path)} (branch ${result.worktree.branch})` : '';
  opened.say(`Forked at #${seq} (${result.mode})${in_}. ${opened.snapshot().notice ?? ''}`.trim());
}

export async function resetFromView(ctx: ForkActionsContext, s: TabConversation, seq: number, view: ViewControl): Promise<void> {
  const { app } = ctx;
  const facts = s.resetFacts(seq, ctx.titles());
  if ('refused' in facts) return app.showMessage(facts.refused, 8000);
  const conversationId = s.facts().id;
  const { agentTitle, hidden } = facts;
  const answer = await askReset(app, {
    seq,
    entry: facts.entry,
    conversationId,
    hidden,
    ...(agentTitle ? { agentTitle } : {}),
    canRestore: facts.canRestore,
  });
  if (!answer) return;
  let restore = answer === 'restore';
  let force = false;
  let done: Awaited<ReturnType<TabConversation['reset']>>;
  for (;;) {
    try {
      done = await s.reset(seq, { restore, force });
      break;
    } catch (err) {
      if (!(err instanceof BatonError)) throw err;
      if (!restore || force || err.exitCode !== EXIT.refused) return app.showMessage(`Nothing was reset: ${said(err)}`, 10_000);
      const again = await askRestoreRefused(app, refusal(err));
      if (!again) return app.showMessage('Nothing was reset.');
      if (again === 'force') force = true;
      else restore = false;
    }
  }
  if ('refused' in done) return app.showMessage(done.refused, 8000);
  view.refresh();
  // The tab shows the rest (and the undo) in place of the agent's last screen.
  const { restored, stoppedTitle } = done;
  ctx.showStopped(s, { seq, conversationId, hidden: done.hidden, restored, ...(stoppedTitle ? { stoppedTitle } : {}) });
  // The status line only says what was done (within 80 columns); the pane the rest.
  s.say(`Reset to #${seq}: ${done.hidden} ${done.hidden === 1 ? 'entry' : 'entries'} hidden${restored ? ', files restored' : ''}.`);
}

/**
 * `u` in the transcript view: undoes the newest reset, as `baton reset ID --undo` would
 * (which is refused while this tab holds the conversation). The files are not touched. The
 * agent is stopped as by a reset, since its session never saw what comes back.
 */
export async function undoResetFromView(ctx: ForkActionsContext, s: TabConversation, view: ViewControl): Promise<void> {
  const { app } = ctx;
  const facts = s.undoFacts();
  if ('refused' in facts) return app.showMessage(facts.refused, 8000);
  const { toSeq, back, runningTitle } = facts;
  if (!(await askUndoReset(app, { toSeq, back, ...(runningTitle ? { runningTitle } : {}) }))) return;
  const done = await s.undo();
  if ('refused' in done) return app.showMessage(done.refused, 8000);
  view.refresh();
  const { stoppedTitle } = done;
  ctx.showStopped(s, { seq: done.toSeq, conversationId: s.facts().id, hidden: 0, restored: false, undone: true, ...(stoppedTitle ? { stoppedTitle } : {}) });
  s.say(`The reset to #${done.toSeq} is undone: ${done.back} ${done.back === 1 ? 'entry is' : 'entries are'} back; the files stay as they are.`);
}

/** A closed tab's conversation that ran in a worktree fork. */
export type ClosedFork = ClosedConversation & { worktreeBranch: string };

/**
 * After a worktree fork's tab closed: offer to remove its worktree and branch ("keep" is
 * what Enter takes); a dirty one is said so and asked again before forcing. `busyElsewhere`
 * names another open tab still running in that worktree: then it is only kept.
 */
export async function offerWorktreeRemoval(ctx: ForkActionsContext, fork: ClosedFork, busyElsewhere?: string): Promise<void> {
  const { app } = ctx;
  if (busyElsewhere) return app.showMessage(`The worktree ${fork.cwd} stays: ${busyElsewhere} still runs there.`, 8000);
  if (!(await askRemoveWorktree(app, { path: fork.cwd, branch: fork.worktreeBranch, conversationId: fork.id }))) {
    return app.showMessage(`Worktree kept. Later: baton worktree remove ${fork.id}`, 8000);
  }
  let force = false;
  for (;;) {
    try {
      const r = await removeForkWorktree(ctx.home, fork.id, { cwd: ctx.cwd, env: ctx.env, force });
      const branch = r.branch ? (r.branchDeleted ? ` and its branch ${r.branch}` : `; its branch ${r.branch} is kept`) : '';
      // Short enough for a status line at 80 columns (the dialog said the conversation stays).
      return app.showMessage(`Removed the worktree ${basename(r.path)}${branch}.`, 10_000);
    } catch (err) {
      if (!(err instanceof BatonError)) throw err;
      // Only what force overrides is asked again (changes, unmerged commits), never a lock.
      const forceable = !force && err.exitCode === EXIT.refused && /with force/.test(err.hint ?? '');
      if (!forceable) return app.showMessage(`The worktree stays: ${said(err)}`, 10_000);
      if (!(await askForceRemove(app, refusal(err)))) return app.showMessage(`Worktree kept. Later: baton worktree remove ${fork.id}`, 8000);
      force = true;
    }
  }
}
