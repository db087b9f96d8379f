// Text of the tab bar and the status line, as blessed-tagged strings sized to a width.
// Pure: no blessed objects, so the layout rules (what is cut first on a narrow screen)
// are tested without a screen.

export interface TabBarItem {
  label: string;
  agent: string;
  model?: string;
  status: string;
}

const STATUS_TEXT: Record<string, string> = {
  running: '',
  idle: 'idle',
  working: 'working',
  approval: 'needs approval',
  exited: 'exited',
};

/** Key to press (after the prefix) for the tab at `index`: 1..9, then 0 for the tenth. */
export function tabKey(index: number): string {
  return index < 9 ? String(index + 1) : index === 9 ? '0' : '';
}

export function escapeTags(s: string): string {
  return s.replace(/[{}]/g, (c) => (c === '{' ? '{open}' : '{close}'));
}

function cut(s: string, max: number): string {
  const chars = [...s];
  if (chars.length <= max) return s;
  return max <= 1 ? chars.slice(0, max).join('') : chars.slice(0, max - 1).join('') + '…';
}

function plainItem(t: TabBarItem, index: number, labelMax: number): string {
  const agent = t.model ? `${t.agent}·${t.model}` : t.agent;
  const status = STATUS_TEXT[t.status] ?? t.status;
  const parts = [`${tabKey(index)}:${cut(t.label, labelMax)}`];
  if (agent && agent !== t.label) parts.push(agent);
  if (status) parts.push(status);
  return ` ${parts.join(' ')} `;
}

/**
 * One line: each tab as " N:title agent·model status ". Titles shrink first; if it still does
 * not fit, tabs far from the active one are dropped behind "<" / ">" markers.
 */
export function formatTabBar(tabs: TabBarItem[], active: number, width: number): string {
  if (tabs.length === 0) return escapeTags(cut(' baton · no tabs', width));
  let labelMax = 24;
  let items = tabs.map((t, i) => plainItem(t, i, labelMax));
  const total = () => items.reduce((n, s) => n + [...s].length, 0);
  while (total() > width && labelMax > 6) {
    labelMax -= 2;
    items = tabs.map((t, i) => plainItem(t, i, labelMax));
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
    const exited = tabs[i]!.status === 'exited';
    out += i === active ? `{inverse}{bold}${text}{/bold}{/inverse}` : exited ? `{gray-fg}${text}{/gray-fg}` : text;
  }
  if (hi < tabs.length) out += '>';
  return out;
}

/** Status line: a message when there is one, else key hints; cut to the width. */
export function formatStatusLine(prefix: string, width: number, message?: string): string {
  if (message) return escapeTags(cut(' ' + message, width));
  const hints = [`${prefix} c new tab`, `${prefix} n/p switch`, `${prefix} [ scroll`, `${prefix} ? help`, `${prefix} q quit`];
  let text = ' ' + hints.join(' · ');
  while ([...text].length > width && hints.length > 1) {
    hints.splice(hints.length - 2, 1);
    text = ' ' + hints.join(' · ');
  }
  return escapeTags(cut(text, width));
}
