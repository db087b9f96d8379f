// The questions asked before a fork, a reset or its undo from the transcript view, and the
// one a closing fork tab asks about its worktree: what will happen, in words, and the keys
// that choose; the notice a tab shows once a reset stopped its agent, and the note that fork
// worktrees outlive a quit. The texts are pure functions (test/integration/fork-dialog.test.ts); the ask*
// wrappers only show them. Nothing here forks, resets or removes anything: the caller acts
// on the answer.

import { tabForkHint } from '../conversation/index.js';
import type { BatonError } from '../errors.js';
import type { OverlayHost } from './overlay.js';
import { choose, type KeyOption } from './picker.js';

/** Why something cannot be done: a BatonError's message and hint, as the dialogs show them. */
export interface Refusal {
  message: string;
  hint?: string;
}

export interface Question<T> {
  title: string;
  text: string;
  options: KeyOption<T>[];
  /** What Enter takes (the safe answer), if anything. */
  enterTakes?: T;
  /** What Esc means, when not "cancel". */
  escape?: string;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The tab-fork way on, as the fork dialog offers it (its t). */
export const TAB_FORK_WAY = 'press t to fork into a tab instead (same directory, no git needed)';

/**
 * A refused worktree fork as the dialogs show it: the conversation layer's message, and its
 * hint with the command-line way on (`baton fork ID --at N`) said the TUI's way; the
 * blocker's checks and the rest of its words are its own.
 */
export function worktreeRefusal(err: BatonError, id: string, seq: number): Refusal {
  if (!err.hint) return { message: err.message };
  return { message: err.message, hint: err.hint.replace(tabForkHint(id, seq), TAB_FORK_WAY) };
}

function refusalLines(r: Refusal): string[] {
  return [r.message.charAt(0).toUpperCase() + r.message.slice(1) + (/[.!?]$/.test(r.message) ? '' : '.'), ...(r.hint ? [r.hint] : [])];
}

function ask<T>(host: OverlayHost, q: Question<T>): Promise<T | undefined> {
  return choose(host, q.title, q.text, q.options, {
    ...(q.enterTakes !== undefined ? { enterTakes: q.enterTakes } : {}),
    ...(q.escape ? { escape: q.escape } : {}),
  });
}

// ---- fork ----

export type ForkAnswer = 'tab' | 'worktree' | 'agent';

export interface ForkFacts {
  seq: number;
  /** One line about the entry forked at, as the transcript view shows it. */
  entry: string;
  /** The agent the fork continues with. */
  agentTitle: string;
  /** Why a worktree fork cannot be made here, when that is known before trying. */
  worktreeBlocked?: Refusal;
  /** Other agents could continue the fork (offers `a`). */
  otherAgents: boolean;
}

export function forkQuestion(f: ForkFacts): Question<ForkAnswer> {
  const text = [
    `At #${f.seq}: ${f.entry}`,
    `A new conversation holding everything up to #${f.seq}, continued by ${f.agentTitle}`,
    'in a tab of its own; this conversation stays as it is.',
  ];
  const options: KeyOption<ForkAnswer>[] = [{ key: 't', label: 'new tab (same directory)', value: 'tab' }];
  if (f.worktreeBlocked) text.push('', 'No worktree fork here:', ...refusalLines(f.worktreeBlocked));
  else options.push({ key: 'w', label: `new worktree (own git branch baton/..., files as they were after #${f.seq})`, value: 'worktree' });
  if (f.otherAgents) options.push({ key: 'a', label: `another agent instead of ${f.agentTitle}`, value: 'agent' });
  return { title: `Fork at #${f.seq}`, text: text.join('\n'), options };
}

export const askFork = (host: OverlayHost, f: ForkFacts) => ask(host, forkQuestion(f));

/** A worktree fork was refused (not a git repository, detached HEAD, no commits, ...): offer a tab fork instead. */
export function tabInsteadQuestion(seq: number, why: Refusal): Question<'tab'> {
  const text = [
    'The worktree fork was refused; nothing was made.',
    ...refusalLines(why),
    '',
    `A tab fork at #${seq} needs no git: same directory, same files.`,
  ];
  return { title: 'No worktree fork', text: text.join('\n'), options: [{ key: 't', label: `fork at #${seq} into a new tab instead`, value: 'tab' }] };
}

export const askTabInstead = async (host: OverlayHost, seq: number, why: Refusal) => (await ask(host, tabInsteadQuestion(seq, why))) === 'tab';

// ---- reset ----

export type ResetAnswer = 'reset' | 'restore';

export interface ResetFacts {
  seq: number;
  entry: string;
  conversationId: string;
  /** Visible entries after seq (the ones the reset hides). */
  hidden: number;
  /** The agent in the tab (stopped by the reset), if any. */
  agentTitle?: string;
  /** A checkpoint holds the files as they were after seq. */
  canRestore: boolean;
}

export function resetQuestion(f: ResetFacts): Question<ResetAnswer> {
  const text = [
    `At #${f.seq}: ${f.entry}`,
    `The ${plural(f.hidden, 'entry', 'entries')} after it ${f.hidden === 1 ? 'is' : 'are'} hidden, not deleted:`,
    // The command line's --undo is refused while this tab holds the conversation: u is the way here.
    `u in this view brings ${f.hidden === 1 ? 'it' : 'them'} back (the files stay as they are).`,
  ];
  if (f.agentTitle) {
    text.push(
      `${f.agentTitle} is stopped (its own session still remembers what is hidden);`,
      `your next message starts it afresh with the conversation up to #${f.seq}.`,
    );
  }
  if (!f.canRestore) text.push('', `No checkpoint holds the files as they were after #${f.seq}: they stay as they are.`);
  const options: KeyOption<ResetAnswer>[] = [{ key: 'r', label: 'reset; the files stay as they are', value: 'reset' }];
  if (f.canRestore) options.push({ key: 'c', label: `reset and put the files back as they were after #${f.seq} (its checkpoint)`, value: 'restore' });
  return { title: `Reset to #${f.seq}`, text: text.join('\n'), options };
}

export const askReset = (host: OverlayHost, f: ResetFacts) => ask(host, resetQuestion(f));

export type RestoreRefusedAnswer = 'reset' | 'force';

/** The restore was refused (changes no checkpoint holds): reset without it, or force. */
export function restoreRefusedQuestion(why: Refusal): Question<RestoreRefusedAnswer> {
  const text = ['The files were not restored and nothing was reset.', ...refusalLines(why)];
  return {
    title: 'Files not restored',
    text: text.join('\n'),
    options: [
      { key: 'r', label: 'reset anyway; the files stay as they are', value: 'reset' },
      { key: 'f', label: 'reset, and restore with force: what no checkpoint holds is lost', value: 'force' },
    ],
  };
}

export const askRestoreRefused = (host: OverlayHost, why: Refusal) => ask(host, restoreRefusedQuestion(why));

// ---- closing a fork's tab ----

export interface WorktreeFacts {
  path: string;
  branch: string;
  conversationId: string;
}

export function removeWorktreeQuestion(w: WorktreeFacts): Question<'keep' | 'remove'> {
  // The path on a line of its own: a dialog wraps a long one anywhere.
  const text = [
    'This conversation ran in the git worktree made when it was forked:',
    `  ${w.path}`,
    `  branch ${w.branch}`,
    'Remove the worktree and its branch? The conversation stays:',
    `baton transcript show ${w.conversationId}`,
  ];
  return {
    title: 'Fork closed',
    text: text.join('\n'),
    options: [
      { key: 'k', label: 'keep the worktree and the branch (also Enter)', value: 'keep' },
      { key: 'r', label: 'remove the worktree and its branch', value: 'remove' },
    ],
    enterTakes: 'keep',
    escape: 'keep',
  };
}

export const askRemoveWorktree = async (host: OverlayHost, w: WorktreeFacts) => (await ask(host, removeWorktreeQuestion(w))) === 'remove';

/** The removal was refused for what force overrides (uncommitted changes, unmerged commits). */
export function forceRemoveQuestion(why: Refusal): Question<'keep' | 'force'> {
  return {
    title: 'Worktree not removed',
    text: ['Nothing was removed.', ...refusalLines(why)].join('\n'),
    options: [
      { key: 'k', label: 'keep it (also Enter)', value: 'keep' },
      { key: 'f', label: 'remove it anyway: what only it holds is lost', value: 'force' },
    ],
    enterTakes: 'keep',
    escape: 'keep',
  };
}

export const askForceRemove = async (host: OverlayHost, why: Refusal) => (await ask(host, forceRemoveQuestion(why))) === 'force';

// ---- after a reset: the stopped tab's notice, and its undo ----

export interface ResetNoticeFacts {
  seq: number;
  conversationId: string;
  /** Entries the reset hid (0 once it is undone). */
  hidden: number;
  /** The files were put back as they were after seq. */
  restored: boolean;
  /** The agent that was stopped. */
  stoppedTitle?: string;
  /** The agent the next message starts (the armed one). */
  nextTitle?: string;
  /** The reset was undone since (the entries are back; the agent is still stopped). */
  undone?: boolean;
  /** The key prefix, as the status line spells it (C-b). */
  prefix: string;
}

/** What a reset (or its undo) that stopped a tab's agent said; the tab's notice is drawn from it. */
export type StoppedFacts = Omit<ResetNoticeFacts, 'prefix' | 'nextTitle'>;

/**
 * What a tab whose agent a reset stopped shows instead of that agent's last screen (which
 * still showed the hidden turns): what happened, what the next message does, and how to
 * undo it from here — `baton reset --undo` is refused while the tab holds the conversation.
 */
export function resetNotice(f: ResetNoticeFacts): string[] {
  const next = f.nextTitle ?? f.stoppedTitle ?? 'the agent';
  const lines: string[] = [];
  if (f.undone) {
    lines.push(`baton · the reset to #${f.seq} was undone: the entries after it are back`);
    lines.push('');
    lines.push(`${f.stoppedTitle ?? 'The agent'} is still stopped. Your next message starts ${next} again, with the conversation as it is now.`);
  } else {
    const files = f.restored ? `the files are back as they were after #${f.seq}` : 'the files stay as they are';
    lines.push(`baton · conversation ${f.conversationId} reset to #${f.seq}`);
    lines.push('');
    lines.push(`${plural(f.hidden, 'entry', 'entries')} after #${f.seq} ${f.hidden === 1 ? 'is' : 'are'} hidden, not deleted; ${files}.`);
    if (f.stoppedTitle) lines.push(`${f.stoppedTitle} was stopped: its own session still remembered what is hidden.`);
    lines.push(`Your next message starts ${next} afresh, with the conversation up to #${f.seq} as a replay (a brief).`);
  }
  lines.push('');
  lines.push(`${f.prefix} m   write the next message`);
  if (f.undone) lines.push(`${f.prefix} t   the transcript (r there resets again)`);
  else
    lines.push(
      `${f.prefix} t   the transcript: u there undoes the reset`,
      '',
      `(baton reset ${f.conversationId} --undo does the same once this tab is closed.)`,
    );
  return lines;
}

export interface UndoResetFacts {
  /** The reset being undone: the entry it reset to. */
  toSeq: number;
  /** Entries that come back. */
  back: number;
  /** The agent in the tab, if it runs (stopped by the undo: its session knows none of them). */
  runningTitle?: string;
}

export function undoResetQuestion(f: UndoResetFacts): Question<'undo'> {
  const text = [
    `The ${plural(f.back, 'entry', 'entries')} hidden by the reset to #${f.toSeq} come${f.back === 1 ? 's' : ''} back. The files stay as they are.`,
  ];
  if (f.runningTitle) text.push(`${f.runningTitle} is stopped (its session never saw them); your next message starts it again with them.`);
  return { title: `Undo the reset to #${f.toSeq}`, text: text.join('\n'), options: [{ key: 'u', label: 'undo the reset', value: 'undo' }] };
}

export const askUndoReset = async (host: OverlayHost, f: UndoResetFacts) => (await ask(host, undoResetQuestion(f))) === 'undo';

// ---- quitting with worktree forks open ----

export interface OpenWorktree {
  conversationId: string;
  path: string;
  branch: string;
}

/**
 * Quitting never asks about worktrees (a quit is not a cleanup): they stay, and this says
 * so — in the quit question when there is one, and on the terminal after baton is gone.
 */
export function worktreesStayNote(w: readonly OpenWorktree[]): string | undefined {
  if (!w.length) return undefined;
  if (w.length === 1) {
    const [one] = w;
    return `The worktree of the fork ${one!.conversationId} (${one!.branch}) stays: baton worktree list shows it, baton worktree remove ${one!.conversationId} removes it.`;
  }
  return `The worktrees of ${w.length} forks stay (${w.map((x) => x.branch).join(', ')}): baton worktree list shows them, baton worktree remove ID removes one.`;
}
