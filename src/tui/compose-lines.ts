// The compose bar's words: its rows as tagged text for the state it is given (the armed
// switch or the brief the next message carries, the queue, what is still being typed into the
// tab's program, the author's prompt and the draft
// scrolled to its cursor), the row a plain shell's tab shows instead, and its own keys for the
// help. Text only, so it can be read without a screen; compose-bar.ts edits and draws.

import { escapeTags } from './tab-bar.js';

export interface ComposeState {
  author: string;
  agentTitle: string | undefined;
  armedTitle: string | undefined;
  /** The armed line in other words than a switch's (a restart after a reset): its head and note. */
  armedText?: { head: string; note: string };
  /** The tab runs a plain shell: there is no agent to write to, so writing is not offered. */
  shell?: boolean;
  /** Said when the next message carries a brief to the agent that runs (a restore, a fork, a fresh start with context). */
  carries?: string;
  queue: readonly string[];
  /** Input the tab's program is still reading in (a large message, a paste), with how much is in; gone once it is. */
  sending?: string;
  status: string;
}

/** The compose bar's own keys, for the help overlay and the README (what ComposeBar's key() does). */
export const COMPOSE_KEYS: readonly { keys: string; help: string }[] = [
  { keys: 'Enter', help: 'send (queued while the agent works)' },
  { keys: 'M-Enter, C-j', help: 'new line; a paste goes into the draft whole, only Enter sends' },
  { keys: 'M-Up, M-Down', help: 'select a queued message' },
  { keys: 'M-e', help: 'take the selected (else the last) queued message back to edit (Enter too, on a selected one)' },
  { keys: 'M-x', help: 'delete the selected (else the last) queued message' },
  { keys: 'Esc', help: 'clear the selection, else leave the compose bar (the draft stays)' },
];

const ARMED_NOTE = 'Recent conversation continues as text; images and files are not carried. Nothing is sent until you send.';
/** Most draft rows shown; a longer draft scrolls with the cursor. */
const DRAFT_ROWS_MAX = 10;

const flat = (s: string, max: number) => {
  const f = s.replace(/\s+/g, ' ').trim();
  return f.length > max ? `${f.slice(0, Math.max(0, max - 1))}…` : f;
};

/** The draft as the compose bar holds it: its text, the cursor in it, and the selected queued message. */
export interface DraftView {
  draft: string;
  /** A UTF-16 index into draft. */
  cursor: number;
  focused: boolean;
  selected: number | undefined;
}

/** The compose rows for `s` and the draft, `width` cells wide on a screen `height` rows high. */
export function composeLines(s: ComposeState, d: DraftView, width: number, height: number, prefix: string): string[] {
  const lines: string[] = [];
  if (s.armedTitle) {
    const head = s.armedText?.head ?? `Continue with ${s.armedTitle}`;
    const note = s.armedText?.note ?? ARMED_NOTE;
    lines.push(`{yellow-fg}{bold}${escapeTags(head)}{/bold}{/yellow-fg} {gray-fg}${escapeTags(flat(note, width - head.length - 2))}{/gray-fg}`);
  } else if (s.carries) lines.push(`{gray-fg}${escapeTags(flat(s.carries, width))}{/gray-fg}`);
  if (s.queue.length) lines.push(queueLine(s.queue, d.selected, width));
  if (s.sending) lines.push(`{yellow-fg}${escapeTags(flat(s.sending, width))}{/yellow-fg}`);
  const prompt = `${s.author} › `;
  if (s.shell && !d.draft) {
    lines.push(`{gray-fg}${escapeTags(shellTabLine(prefix))}{/gray-fg}`);
  } else if (!d.focused && !d.draft) {
    lines.push(
      `{gray-fg}${escapeTags(prompt)}${s.agentTitle ? `message ${escapeTags(s.agentTitle)}` : 'no agent in this tab'} · ${escapeTags(prefix)} m to write · ${escapeTags(s.status)}{/gray-fg}`,
    );
  } else {
    lines.push(...draftRows(d, prompt, width, height));
  }
  return lines;
}

/** The draft's rows: at most a few, scrolled to the cursor's line, each clipped to the width. */
function draftRows(d: DraftView, prompt: string, width: number, height: number): string[] {
  const draftLines = d.draft.split('\n');
  const starts: number[] = [];
  let offset = 0;
  let cursorLine = 0;
  draftLines.forEach((line, i) => {
    starts.push(offset);
    if (d.cursor >= offset && d.cursor <= offset + line.length) cursorLine = i;
    offset += line.length + 1;
  });
  const cap = Math.max(2, Math.min(DRAFT_ROWS_MAX, Math.floor((height - 5) / 2)));
  let first = 0;
  let count = draftLines.length;
  const out: string[] = [];
  if (draftLines.length > cap) {
    count = cap - 1;
    first = Math.min(Math.max(0, cursorLine - count + 1), draftLines.length - count);
    out.push(`{gray-fg}draft: ${draftLines.length} lines, showing ${first + 1}-${first + count}{/gray-fg}`);
  }
  const avail = width - prompt.length;
  for (let i = first; i < first + count; i++) {
    const lead = i === 0 ? prompt : ' '.repeat(prompt.length);
    const at = d.focused && i === cursorLine ? d.cursor - starts[i]! : undefined;
    out.push(`${escapeTags(lead)}${clipLine(draftLines[i]!, at, avail)}`);
  }
  return out;
}

/**
 * The queue line: numbered messages, the selected one highlighted; when they do not all
 * fit in `width`, the ones around the selected (else the last) with … for the rest.
 */
export function queueLine(queue: readonly string[], selected: number | undefined, width: number): string {
  const head = `queued (${queue.length}): `;
  const hint = selected === undefined ? '  · M-Up selects · M-e edits the last · M-x deletes it' : '  · M-Up/M-Down move · M-e edit · M-x delete · Esc';
  const budget = Math.max(12, width - head.length - hint.length);
  const label = (i: number) => `${i + 1}. ${flat(queue[i]!, 30)}`;
  const focus = selected ?? queue.length - 1;
  let lo = focus;
  let hi = focus;
  const size = (a: number, b: number) => {
    let n = (a > 0 ? 2 : 0) + (b < queue.length - 1 ? 2 : 0);
    for (let i = a; i <= b; i++) n += label(i).length + (i > a ? 2 : 0);
    return n;
  };
  for (let grew = true; grew; ) {
    grew = false;
    if (hi < queue.length - 1 && size(lo, hi + 1) <= budget) {
      hi++;
      grew = true;
    }
    if (lo > 0 && size(lo - 1, hi) <= budget) {
      lo--;
      grew = true;
    }
  }
  // Alone and still too wide: the one message is cut to what is left.
  const over = Math.max(0, size(lo, hi) - budget);
  const items: string[] = [];
  for (let i = lo; i <= hi; i++) {
    const text = escapeTags(over ? flat(label(i), label(i).length - over) : label(i));
    items.push(i === selected ? `{/gray-fg}{inverse}${text}{/inverse}{gray-fg}` : text);
  }
  return `{gray-fg}${escapeTags(head)}${lo > 0 ? '… ' : ''}${items.join('  ')}${hi < queue.length - 1 ? ' …' : ''}${escapeTags(hint)}{/gray-fg}`;
}

/**
 * One draft line in `avail` cells (tabs shown as a space): scrolled sideways to keep the
 * cursor (a UTF-16 index into the line, when it is on this line) in view, … where cut.
 */
export function clipLine(line: string, at: number | undefined, avail: number): string {
  const chars = Array.from(line.replace(/\t/g, ' '));
  const cur = at === undefined ? undefined : Array.from(line.slice(0, at)).length;
  avail = Math.max(2, avail);
  const start = cur !== undefined && cur >= avail ? cur - avail + 1 : 0;
  const vis = chars.slice(start, start + avail);
  if (start > 0 && cur !== start) vis[0] = '…';
  if (start + avail < chars.length && cur !== start + avail - 1) vis[vis.length - 1] = '…';
  if (cur === undefined) return escapeTags(vis.join(''));
  const rel = cur - start;
  return `${escapeTags(vis.slice(0, rel).join(''))}{inverse}${escapeTags(vis[rel] ?? ' ')}{/inverse}${escapeTags(vis.slice(rel + 1).join(''))}`;
}

/** The compose row of a tab that runs a plain shell: what to do there instead of writing. */
export function shellTabLine(prefix: string): string {
  return ` plain shell: type into it directly · ${prefix} c opens an agent tab`;
}
