// Text of the tab bar and the status line, as blessed-tagged strings sized to a width.
// Pure: no blessed objects, so the layout rules (what is cut first on a narrow screen)
// are tested without a screen. escapeTags() here is the door every piece of data takes
// into a tagged blessed element (titles, agent and model names, messages): it must never
// let a control character through, whoever wrote the string (a transcript, a driver).

import { stripControls } from '../transcript/sanitize.js';

export interface TabBarItem {
  label: string;
  agent: string;
  model?: string;
  status: string;
  /** The tab's conversation is a fork: of which entry, and the worktree's branch if it has one. */
  fork?: { at: number; branch?: string };
  /** The agent needed the user while the tab was not in view (done: a turn ended): marked until it is shown. */
  unseen?: 'approval' | 'done';
}

/** A turn ended while the tab was not in view, and the agent waits idle: said "done" until the tab is shown. */
const isUnseenDone = (t: TabBarItem) => t.unseen === 'done' && t.status === 'idle';

const STATUS_TEXT: Record<string, string> = {
  running: '',
  idle: 'idle',
  working: 'working',
  // A dialog, a permission prompt or a question waits in the pane: baton types nothing until it is answered there.
  approval: 'needs you',
  exited: 'exited',
  // Stopped by baton (a reset): the next message starts it again.
  stopped: 'stopped',
};

/** Marks a fork (↳#8: forked at entry #8) and a worktree's branch (⎇name): one cell each. */
export const FORK_MARK = '↳';
export const BRANCH_MARK = '⎇';
/** The prefix every fork branch has; the tab bar shows what follows it. */
const FORK_BRANCH_PREFIX = 'baton/';

/** Key to press (after the prefix) for the tab at `index`: 1..9, then 0 for the tenth. */
export function tabKey(index: number): string {
  return index < 9 ? String(index + 1) : index === 9 ? '0' : '';
}

/** Text for a blessed element with tags on: control characters removed, braces escaped. */
export function escapeTags(s: string): string {
  return stripControls(s).replace(/[{}]/g, (c) => (c === '{' ? '{open}' : '{close}'));
}

/** A string for a one-line place (a tab, the status line, a label): no controls, no line breaks. */
export function oneLine(s: string): string {
  return stripControls(s).replace(/[\t\n]+/g, ' ');
}

function cut(s: string, max: number): string {
  const chars = [...s];
  if (chars.length <= max) return s;
  return max <= 1 ? chars.slice(0, max).join('') : chars.slice(0, max - 1).join('') + '…';
}

/**
 * A title cut to `max` cells: at a word boundary when whole words fit ("Claude Code" ->
 * "Claude": an agent's title reads fine by its first word), else mid-word with "…".
 */
function cutTitle(s: string, max: number): string {
  const chars = [...s];
  if (chars.length <= max) return s;
  const head = chars.slice(0, max + 1).join('');
  const space = head.lastIndexOf(' ');
  // (Not when only a sliver would be left: "a rather long title" is cut mid-word.)
  if (space >= Math.ceil(max / 2)) return head.slice(0, space).trimEnd();
  return cut(s, max);
}

/** "↳#8", "↳#8 ⎇try-codex", or (no room for the name) "↳#8⎇". */
function forkText(fork: NonNullable<TabBarItem['fork']>, branchMax: number): string {
  const at = `${FORK_MARK}#${fork.at}`;
  if (!fork.branch) return at;
  const name = fork.branch.startsWith(FORK_BRANCH_PREFIX) ? fork.branch.slice(FORK_BRANCH_PREFIX.length) : fork.branch;
  return branchMax > 0 ? `${at} ${BRANCH_MARK}${cut(name, branchMax)}` : `${at}${BRANCH_MARK}`;
}

/** The agent is named by the title already ("Claude Code" says claude): not said twice. */
function agentText(t: TabBarItem): string {
  const model = t.model && t.model !== 'default' ? t.model : undefined;
  // A view's driver (`qwen-view`) is named by its own title, "Qwen Code (baton view)".
  const view = t.agent.endsWith('-view') && t.label.endsWith('(baton view)');
  const named = !t.agent || view || t.agent === t.label || t.label.toLowerCase().includes(t.agent.toLowerCase());
  if (named) return model ? `·${model}` : '';
  return model ? ` ${t.agent}·${model}` : ` ${t.agent}`;
}

interface Room {
  labelMax: number;
  branchMax: number;
}

function plainItem(given: TabBarItem, index: number, room: Room): string {
  // Cleaned before measuring, so what is cut is what is shown.
  const t: TabBarItem = { ...given, label: oneLine(given.label), agent: oneLine(given.agent), status: oneLine(given.status) };
  if (given.model !== undefined) t.model = oneLine(given.model);
  if (given.fork?.branch !== undefined) t.fork = { ...given.fork, branch: oneLine(given.fork.branch) };
  const status = isUnseenDone(given) ? 'done' : (STATUS_TEXT[t.status] ?? t.status);
  let text = `${tabKey(index)}:${cutTitle(t.label, room.labelMax)}${agentText(t)}`;
  if (t.fork) text += ` ${forkText(t.fork, room.branchMax)}`;
  if (status) text += ` ${status}`;
  return ` ${text} `;
}

/**
 * What gives way on a narrow screen: a long branch name, then the titles (an agent's title
 * keeps its first word), and only then the branch name itself (the mark stays: a worktree
 * fork works in other files than a tab fork).
 */
function* rooms(): Generator<Room> {
  yield { labelMax: 24, branchMax: 16 };
  for (const branchMax of [8, 0]) for (let labelMax = 24; labelMax >= 6; labelMax -= 2) yield { labelMax, branchMax };
}

/**
 * One line: each tab as " N:title[·model] [↳#seq [⎇branch]] status ", cut as rooms() says;
 * if it still does not fit, tabs far from the active one are dropped behind "<" / ">".
 */
export function formatTabBar(tabs: TabBarItem[], active: number, width: number): string {
  if (tabs.length === 0) return escapeTags(cut(' baton · no tabs', width));
  let items: string[] = [];
  const total = () => items.reduce((n, s) => n + [...s].length, 0);
  for (const room of rooms()) {
    items = tabs.map((t, i) => plainItem(t, i, room));
    if (total() <= width) break;
  }
  let lo = 0;
  let hi = tabs.length;
  const len = (a: number, b: number) => items.slice(a, b).reduce((n, s) => n + [...s].length, 0) + (a > 0 ? 1 : 0) + (b < tabs.length ? 1 : 0);
  while (len(lo, hi) > width && hi - lo > 1) {
    if (active - lo > hi - 1 - active) lo++;
    else hi--;
  }
  let out = lo > 0 ? '<' : '';
  for (let i = lo; i < hi; i++) {
    const text = escapeTags(cut(items[i]!, width));
    const status = tabs[i]!.status;
    // A tab that needs the user stands out, in front (yellow instead of inverse) or behind.
    if (i === active && status === 'approval') out += `{yellow-bg}{black-fg}{bold}${text}{/bold}{/black-fg}{/yellow-bg}`;
    else if (i === active) out += `{inverse}{bold}${text}{/bold}{/inverse}`;
    else if (status === 'exited') out += `{gray-fg}${text}{/gray-fg}`;
    else if (status === 'approval') out += `{yellow-fg}{bold}${text}{/bold}{/yellow-fg}`;
    else if (isUnseenDone(tabs[i]!)) out += `{green-fg}{bold}${text}{/bold}{/green-fg}`;
    else out += text;
  }
  if (hi < tabs.length) out += '>';
  return out;
}

/** Status line: a message when there is one, else key hints; cut to the width. */
export function formatStatusLine(prefix: string, width: number, message?: string): string {
  if (message) return escapeTags(cut(' ' + oneLine(message), width));
  const hints = [`${prefix} c new tab`, `${prefix} n/p switch`, `${prefix} [ scroll`, `${prefix} ? help`, `${prefix} q quit`];
  let text = ' ' + hints.join(' · ');
  while ([...text].length > width && hints.length > 1) {
    hints.splice(hints.length - 2, 1);
    text = ' ' + hints.join(' · ');
  }
  return escapeTags(cut(text, width));
}
