// What `f`, `r` and `u` in the transcript view do, and the worktree question when a fork's
// tab closes: the dialogs of fork-dialog.ts, then the conversation layer's forkConversation,
// resetConversation / undoLastReset (+ TabSession.reset) and removeForkWorktree. Every
// refusal is shown with its reason and a way on (a tab fork instead of a worktree one, a
// reset without restoring the files, keeping a dirty worktree), in the TUI's terms where the
// conversation layer words it for the command line; nothing is forked, reset or removed unasked.
// It must never decide between a native fork and a replay (the launch path does) and never
// remove a worktree another open tab still runs in.

import { basename } from 'node:path';
import { BatonError, EXIT } from '../errors.js';
import { forkConversation, type ForkResult } from '../conversation/fork.js';
import { worktreeForkBlocker } from '../conversation/fork-worktree.js';
import { checkpointAfter, resetConversation, undoLastReset } from '../conversation/reset.js';
import { isBusy, type TabSession } from '../conversation/tab-session.js';
import { removeForkWorktree } from '../conversation/worktree-forks.js';
import type { Registry } from '../plugins/registry.js';
import { isRendered, renderEntry } from '../transcript/render-text.js';
import type { Transcript } from '../transcript/transcript.js';
import type { Entry } from '../transcript/types.js';
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
  type ResetNoticeFacts,
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
  openConversationTab(id: string, agent: string, model: string | undefined): Promise<TabSession | undefined>;
  /** The session's agent was stopped by a reset (or its undo): its tab shows what happened instead of the agent's last screen. */
  showStopped(s: TabSession, facts: Omit<ResetNoticeFacts, 'prefix' | 'nextTitle'>): void;
}

const refusal = (err: BatonError): Refusal => (err.hint ? { message: err.message, hint: err.hint } : { message: err.message });

const said = (err: BatonError) => `${err.message}${err.hint ? ` (${err.hint})` : ''}`;

/** One line about an entry, as the transcript view shows it. */
export function entryLine(t: Transcript, seq: number, titles: Record<string, string>): string {
  const e = t.entry(seq);
  // Without the "[seq] " the view starts each entry with: the dialog says "At #seq:" itself.
  const text = e
    ? renderEntry(e, { titles })
        .map((l) => l.trim())
        .join(' ')
        .replace(/^\[\d+\] /, '')
    : `#${seq}`;
  return text.length > 72 ? `${text.slice(0, 71)}…` : text;
}

/** The agent that ran entry seq (the fork continues with it unless told otherwise). */
function agentAt(t: Transcript, seq: number): string | undefined {
  const e = t.entry(seq);
  return (e && t.segmentOf(e)?.harness) ?? t.currentSegment?.harness;
}

export async function forkFromView(ctx: ForkActionsContext, s: TabSession, seq: number, view: ViewControl): Promise<void> {
  const { app } = ctx;
  const src = s.conversation;
  src.transcript.flush();
  src.sync();
  const titles = ctx.titles();
  // Which agents are installed is asked only when `a` is pressed (it runs each CLI); here any other driver offers it.
  const others = ctx.registry.drivers().length > 1;
  const ran = agentAt(src.transcript, seq) ?? s.driver?.name;
  // Known before asking, so the dialog says why there is no worktree fork (not a git
  // repository, detached HEAD, no commits, ...) and offers only the tab; the refusal of
  // an actual attempt is still caught below (the repository may change meanwhile).
  const blocked = await worktreeForkBlocker(src, seq, ctx.env);
  let agent: string | undefined;
  let where: ForkAnswer | undefined;
  for (;;) {
    const title = titles[agent ?? ran ?? ''] ?? agent ?? ran ?? 'the agent';
    where = await askFork(app, {
      seq,
      entry: entryLine(src.transcript, seq, titles),
      agentTitle: title,
      otherAgents: others,
      ...(blocked ? { worktreeBlocked: worktreeRefusal(blocked, src.id, seq) } : {}),
    });
    if (where !== 'agent') break;
    const picked = await openPicker(app, 'The fork continues with', await ctx.agentChoices());
    if (picked) agent = picked;
  }
  if (!where) return;
  view.close();
  app.showMessage(`Forking at #${seq}${where === 'worktree' ? ' into a new git worktree' : ''}…`, 0);
  const fork = (worktree: boolean) =>
    forkConversation(ctx.home, src.id, seq, { worktree, env: ctx.env, registry: ctx.registry, ...(agent && agent !== ran ? { agent } : {}) });
  let result: ForkResult;
  try {
    result = await fork(where === 'worktree');
  } catch (err) {
    if (!(err instanceof BatonError)) throw err;
    app.showMessage(undefined);
    if (where !== 'worktree') return app.showMessage(`Nothing was forked: ${said(err)}`, 10_000);
    if (!(await askTabInstead(app, seq, worktreeRefusal(err, src.id, seq)))) return app.showMessage('Nothing was forked.');
    app.showMessage(`Forking at #${seq}…`, 0);
    try {
      result = await fork(false);
    } catch (again) {
      if (!(again instanceof BatonError)) throw again;
      return app.showMessage(`Nothing was forked: ${said(again)}`, 10_000);
    }
  }
  app.showMessage(undefined);
  const next = result.agent?.harness ?? s.driver?.name;
  if (!next) return app.showMessage(`Forked as conversation ${result.id}, but no agent ran it yet: open it with an agent.`, 10_000);
  const opened = await ctx.openConversationTab(result.id, next, result.agent?.model === 'default' ? undefined : result.agent?.model);
  if (!opened) return;
  // One status line: the worktree by its directory name (the full path is in the fork's first notice).
  const in_ = result.worktree ? ` in the worktree ${basename(result.worktree.path)} (branch ${result.worktree.branch})` : '';
  opened.say(`Forked at #${seq} (${result.mode})${in_}. ${opened.notice ?? ''}`.trim());
}

export async function resetFromView(ctx: ForkActionsContext, s: TabSession, seq: number, view: ViewControl): Promise<void> {
  const { app } = ctx;
  const conv = s.conversation;
  const t = conv.transcript;
  const agentTitle = s.driver?.title;
  if (isBusy(s.snapshot().status)) {
    return app.showMessage(`${agentTitle ?? 'The agent'} is still working. Nothing was reset — wait for it to finish (or interrupt it) and retry.`, 8000);
  }
  // Counted as the view shows them: bookkeeping entries (cursors, sessions) draw nothing.
  const hidden = t.visible().filter((e) => e.seq > seq && isRendered(e)).length;
  if (!hidden) return app.showMessage(`#${seq} is the last entry: a reset to it would hide nothing.`);
  const answer = await askReset(app, {
    seq,
    entry: entryLine(t, seq, ctx.titles()),
    conversationId: conv.id,
    hidden,
    ...(agentTitle ? { agentTitle } : {}),
    canRestore: checkpointAfter(conv, seq) !== undefined,
  });
  if (!answer) return;
  let restore = answer === 'restore';
  let force = false;
  let restored = false;
  // A message typed into the CLI whose checkpoint is still being taken goes before the reset entry.
  await s.ingested();
  for (;;) {
    try {
      restored = !!(await resetConversation(conv, seq, { restore, force })).restored;
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
  conv.sync();
  await s.reset();
  view.refresh();
  // The tab shows the rest (and the undo) in place of the agent's last screen.
  ctx.showStopped(s, { seq, conversationId: conv.id, hidden, restored, ...(agentTitle ? { stoppedTitle: agentTitle } : {}) });
  // The status line only says what was done (within 80 columns); the pane the rest.
  s.say(`Reset to #${seq}: ${hidden} ${hidden === 1 ? 'entry' : 'entries'} hidden${restored ? ', files restored' : ''}.`);
}

/** The newest reset still in force (what undoLastReset undoes), if any. */
function resetInForce(t: Transcript): (Entry & { kind: 'reset' }) | undefined {
  const undone = new Set<number>();
  for (const e of t.entries) if (e.kind === 'reset' && e.undoes !== undefined) undone.add(e.undoes);
  for (let i = t.entries.length - 1; i >= 0; i--) {
    const e = t.entries[i]!;
    if (e.kind === 'reset' && e.undoes === undefined && !undone.has(e.seq)) return e;
  }
  return undefined;
}

/**
 * `u` in the transcript view: undoes the newest reset, as `baton reset ID --undo` would
 * (which is refused while this tab holds the conversation). The files are not touched. The
 * agent is stopped as by a reset, since its session never saw what comes back.
 */
export async function undoResetFromView(ctx: ForkActionsContext, s: TabSession, view: ViewControl): Promise<void> {
  const { app } = ctx;
  const conv = s.conversation;
  const t = conv.transcript;
  const reset = resetInForce(t);
  if (!reset) return app.showMessage('No reset to undo in this conversation.');
  if (isBusy(s.snapshot().status)) {
    return app.showMessage(`${s.driver?.title ?? 'The agent'} is still working. Nothing was undone — wait for it to finish (or interrupt it) and retry.`, 8000);
  }
  const shown = new Set(t.visible().map((e) => e.seq));
  const back = t.entries.filter((e) => e.seq > reset.toSeq && e.seq < reset.seq && !shown.has(e.seq) && isRendered(e)).length;
  const running = s.snapshot().running ? s.driver?.title : undefined;
  if (!(await askUndoReset(app, { toSeq: reset.toSeq, back, ...(running ? { runningTitle: running } : {}) }))) return;
  await s.ingested();
  undoLastReset(conv);
  conv.sync();
  const stoppedTitle = s.driver?.title;
  await s.reset();
  view.refresh();
  ctx.showStopped(s, { seq: reset.toSeq, conversationId: conv.id, hidden: 0, restored: false, undone: true, ...(stoppedTitle ? { stoppedTitle } : {}) });
  s.say(`The reset to #${reset.toSeq} is undone: ${back} ${back === 1 ? 'entry is' : 'entries are'} back; the files stay as they are.`);
}

export interface ClosedFork {
  conversationId: string;
  /** Where it ran (its worktree, or a directory in it). */
  cwd: string;
  worktreeBranch: string;
}

/**
 * After a worktree fork's tab closed: offer to remove its worktree and branch ("keep" is
 * what Enter takes); a dirty one is said so and asked again before forcing. `busyElsewhere`
 * names another open tab still running in that worktree: then it is only kept.
 */
export async function offerWorktreeRemoval(ctx: ForkActionsContext, fork: ClosedFork, busyElsewhere?: string): Promise<void> {
  const { app } = ctx;
  if (busyElsewhere) return app.showMessage(`The worktree ${fork.cwd} stays: ${busyElsewhere} still runs there.`, 8000);
  if (!(await askRemoveWorktree(app, { path: fork.cwd, branch: fork.worktreeBranch, conversationId: fork.conversationId }))) {
    return app.showMessage(`Worktree kept. Later: baton worktree remove ${fork.conversationId}`, 8000);
  }
  let force = false;
  for (;;) {
    try {
      const r = await removeForkWorktree(ctx.home, fork.conversationId, { cwd: ctx.cwd, env: ctx.env, force });
      const branch = r.branch ? (r.branchDeleted ? ` and its branch ${r.branch}` : `; its branch ${r.branch} is kept`) : '';
      // Short enough for a status line at 80 columns (the dialog said the conversation stays).
      return app.showMessage(`Removed the worktree ${basename(r.path)}${branch}.`, 10_000);
    } catch (err) {
      if (!(err instanceof BatonError)) throw err;
      // Only what force overrides is asked again (changes, unmerged commits), never a lock.
      const forceable = !force && err.exitCode === EXIT.refused && /with force/.test(err.hint ?? '');
      if (!forceable) return app.showMessage(`The worktree stays: ${said(err)}`, 10_000);
      if (!(await askForceRemove(app, refusal(err)))) return app.showMessage(`Worktree kept. Later: baton worktree remove ${fork.conversationId}`, 8000);
      force = true;
    }
  }
}
