// The transcript view (prefix t): the tab's canonical transcript with authors, tool calls
// folded and the "Switched this conversation from A to B" dividers. Enter on a divider
// opens the handed-over-context card, regenerated from the transcript (handoff-card.ts),
// with its label, whether its hash matches the one recorded at the switch, and `j` to jump
// to the last message it included. `/` searches, `n` finds the next match, `f` forks and `r`
// resets at the selected entry, `u` undoes the last reset (the caller asks and acts:
// conversation-tabs.ts), q or Esc leaves. Everything shown went through the sanitizer
// (render-text.ts).

import blessed from './blessed.js';
import { CARD_LABEL, type TranscriptReader } from '../conversation/index.js';
import { dividerParts, renderEntry } from '../transcript/render-text.js';
import { OVERLAY_STYLE, type OverlayHost } from './overlay.js';
import type { BlessedKey } from './scroll-mode.js';
import { escapeTags, oneLine } from './tab-bar.js';

/** The view's own keys, for its label and the help overlay. */
export const TRANSCRIPT_VIEW_KEYS: readonly { keys: string; help: string }[] = [
  { keys: 'Up Down PgUp PgDn', help: 'select an entry' },
  { keys: 'Enter', help: 'on a divider: the handed-over context' },
  { keys: '/ n', help: 'search, next match' },
  { keys: 'f', help: 'fork at the selected entry (new tab or git worktree)' },
  { keys: 'r', help: 'reset to the selected entry (later ones hidden, not deleted)' },
  { keys: 'u', help: 'undo the last reset (the hidden entries come back)' },
  { keys: 'q Esc', help: 'close' },
];

/** What the view can do to itself while an action runs. */
export interface ViewControl {
  /** Closes the view (before a fork opens its tab). */
  close(): void;
  /** Reads the transcript again (after a reset) and selects its last line. */
  refresh(): void;
}

/** f and r on the selected entry, u on the conversation; without them the keys do nothing. */
export interface TranscriptActions {
  fork?(seq: number, view: ViewControl): Promise<void>;
  reset?(seq: number, view: ViewControl): Promise<void>;
  undo?(seq: number, view: ViewControl): Promise<void>;
}

/** The view's border label, its key hints dropped (least needed first) until it fits `width`. */
export function viewLabel(title: string, width: number): string {
  const hints = ['f fork', 'r reset', 'u undo reset', 'Enter on a divider: handed-over context', '/ search', 'n next', 'q close'];
  // Dropped in this order; "Enter on a divider" is said shorter before it goes.
  const drops: ((h: string[]) => void)[] = [
    (h) => h.splice(h.indexOf('n next'), 1),
    (h) => h.splice(h.indexOf('Enter on a divider: handed-over context'), 1, 'Enter: context'),
    (h) => h.splice(h.indexOf('u undo reset'), 1, 'u undo'),
    (h) => h.splice(h.indexOf('Enter: context'), 1),
    (h) => h.splice(h.indexOf('/ search'), 1),
  ];
  const name = oneLine(title);
  const make = () => ` Transcript: ${name} — ${hints.join(' · ')} `;
  for (const drop of drops) {
    if ([...make()].length <= width) break;
    drop(hints);
  }
  const label = make();
  return [...label].length <= width ? label : `${[...label].slice(0, Math.max(0, width - 2)).join('')}… `;
}

export type DividerParts = NonNullable<ReturnType<typeof dividerParts>>;

/**
 * The divider as one row of exactly `width` cells: "── Switched … from A to B ── [seq] how,
 * N chars ───…". What does not fit goes, least needed first (the brief's size, then how it
 * went, then the seq), and only then is the sentence itself cut, at a word, with "…".
 */
export function fitDivider(d: DividerParts, width: number): string {
  const w = Math.max(1, width);
  const tails = [`[${d.seq}] ${d.how}${d.chars === undefined ? '' : `, ${d.chars} chars`}`, `[${d.seq}] ${d.how}`, `[${d.seq}]`, ''];
  for (const tail of tails) {
    const head = `── ${d.text} ──${tail ? ` ${tail} ` : ''}`;
    const len = [...head].length;
    if (len <= w) return head + '─'.repeat(w - len);
  }
  const room = w - 4;
  if (room < 1) return [...`── ${d.text}`].slice(0, w).join('');
  const words = d.text.split(' ');
  let text = '';
  for (const word of words) {
    const next = text ? `${text} ${word}` : word;
    if ([...next].length > room) break;
    text = next;
  }
  if (!text) text = [...d.text].slice(0, room).join('');
  const head = `── ${text}…`;
  return head + '─'.repeat(Math.max(0, w - [...head].length));
}

interface Line {
  text: string;
  seq: number;
  /** A switch divider's pieces: drawn fitted to the view's width. */
  divider?: DividerParts;
}

function lay(t: TranscriptReader, titles: Record<string, string>): Line[] {
  const out: Line[] = [];
  for (const e of t.visible()) {
    const rendered = renderEntry(e, { titles });
    const divider = dividerParts(e, titles) ?? undefined;
    for (const [i, text] of rendered.entries()) out.push({ text, seq: e.seq, ...(i === 0 && divider ? { divider } : {}) });
  }
  return out;
}

/** The rows the view shows: those around the selection (kept mid-view), the selected one inverse, dividers fitted to the width. */
function viewRows(lines: readonly Line[], sel: number, rows: number, width: number): string {
  const top = Math.max(0, Math.min(sel - Math.floor(rows / 2), lines.length - rows));
  const view: string[] = [];
  for (let i = top; i < Math.min(lines.length, top + rows); i++) {
    const l = lines[i]!;
    let text = escapeTags(l.divider ? fitDivider(l.divider, width) : l.text.slice(0, width));
    if (l.divider) text = `{cyan-fg}{bold}${text}{/bold}{/cyan-fg}`;
    view.push(i === sel ? `{inverse}${text}{/inverse}` : text);
  }
  return view.join('\n') || '{gray-fg}(nothing yet){/gray-fg}';
}

/** Where a movement key (arrows, pages, Home, End) takes the selection; undefined for any other key. */
export function selectionAfter(key: string | undefined, sel: number, count: number, page: number): number | undefined {
  switch (key) {
    case 'up':
      return Math.max(0, sel - 1);
    case 'down':
      return Math.min(count - 1, sel + 1);
    case 'pageup':
      return Math.max(0, sel - page);
    case 'pagedown':
      return Math.min(count - 1, sel + page);
    case 'home':
      return 0;
    case 'end':
      return count - 1;
  }
  return undefined;
}

/** The first line after `from` (wrapping around) whose text holds `query`, in any case; undefined without one. */
export function nextMatch(lines: readonly { text: string }[], query: string, from: number): number | undefined {
  if (!query) return undefined;
  const q = query.toLowerCase();
  for (let k = 1; k <= lines.length; k++) {
    const i = (from + k) % lines.length;
    if (lines[i]!.text.toLowerCase().includes(q)) return i;
  }
  return undefined;
}

/** The view's box, over the screen between the tab bar and the status line. */
function viewBox(host: OverlayHost, title: string): blessed.Widgets.BoxElement {
  return blessed.box({
    parent: host.screen,
    label: escapeTags(viewLabel(title, (host.screen.width as number) - 4)),
    top: 1,
    left: 0,
    width: '100%',
    height: (host.screen.height as number) - 2,
    tags: true,
    // Every row is fitted to the width already (viewRows): blessed's wrap broke one that fills
    // it and ends in style tags (a divider, the selected row) at its last space.
    wrap: false,
    ...OVERLAY_STYLE,
  });
}

/** Opens the view over the host's screen; resolves when it closes (q, Esc, or an action that closes it, a fork). */
export function openTranscriptView(
  host: OverlayHost,
  t: TranscriptReader,
  titles: Record<string, string>,
  title: string,
  actions: TranscriptActions = {},
): Promise<void> {
  let lines = lay(t, titles);
  let sel = Math.max(0, lines.length - 1);
  let query = '';
  const box = viewBox(host, title);
  const rows = () => Math.max(1, (box.height as number) - 2);
  const width = () => Math.max(10, (box.width as number) - 2);
  let closed = false;
  const draw = () => {
    // A card or a search answered after the view itself was closed draws nothing.
    if (closed) return;
    box.setContent(viewRows(lines, sel, rows(), width()));
    host.screen.render();
  };
  const find = (from: number) => {
    const i = nextMatch(lines, query, from);
    if (i === undefined) return;
    sel = i;
    draw();
  };
  const jumpTo = (seq: number) => {
    const i = lines.findIndex((l) => l.seq >= seq);
    if (i >= 0) sel = i;
    draw();
  };
  return new Promise((resolve) => {
    let done = false;
    /** An action (fork, reset) is under way: keys wait for it. */
    let acting = false;
    const close = () => {
      if (done) return;
      done = true;
      closed = true;
      host.closeOverlay(box);
      box.destroy();
      resolve();
    };
    const control: ViewControl = {
      close,
      refresh: () => {
        lines = lay(t, titles);
        sel = Math.max(0, lines.length - 1);
        draw();
      },
    };
    const act = (action: TranscriptActions['fork']) => {
      const l = lines[sel];
      if (!action || !l) return;
      acting = true;
      void action(l.seq, control).finally(() => {
        acting = false;
        draw();
      });
    };
    box.on('keypress', (ch: string | undefined, key: BlessedKey) => {
      if (done || acting) return;
      if (ch === 'f') return act(actions.fork);
      if (ch === 'r') return act(actions.reset);
      if (ch === 'u') return act(actions.undo);
      const to = selectionAfter(key.name, sel, lines.length, rows());
      if (to !== undefined) {
        sel = to;
        return draw();
      }
      switch (key.name) {
        case 'escape':
        case 'q':
          return close();
        case 'n':
          return find(sel);
        case 'enter':
        case 'return': {
          const l = lines[sel];
          if (l?.divider) void openCard(host, t, l.seq, titles).then((jump) => (jump !== undefined ? jumpTo(jump) : draw()));
          return;
        }
      }
      if (ch === '/') {
        void ask(host, 'Search the transcript').then((q) => {
          if (q) {
            query = q;
            find(sel);
          } else draw();
        });
      }
    });
    host.openOverlay(box);
    draw();
  });
}

/** The card; resolves with the seq to jump to (j), or undefined. */
function openCard(host: OverlayHost, t: TranscriptReader, seq: number, titles: Record<string, string>): Promise<number | undefined> {
  const card = t.card(seq, titles);
  const to = titles[card.to.harness] ?? card.to.harness;
  const from = card.from ? (titles[card.from.harness] ?? card.from.harness) : 'nobody';
  const mark =
    card.matches === true
      ? '{green-fg}✓ matches what was sent (same hash){/green-fg}'
      : card.matches === false
        ? '{red-fg}✗ differs from what was sent{/red-fg}'
        : '{gray-fg}no brief was sent{/gray-fg}';
  const head = [
    `Handed over from ${escapeTags(from)} to ${escapeTags(to)} at #${seq} (${card.mode === 'resume' ? 'its own session resumed; only the delta' : 'fresh start with a replay'})`,
    `{gray-fg}${escapeTags(CARD_LABEL)}{/gray-fg}`,
    mark,
    card.lastIncludedSeq ? `j: jump to the last message included (#${card.lastIncludedSeq}) · q: close` : 'q: close',
    '',
  ];
  const body = (card.text ?? '(no context was carried: nothing had been said yet, or the returning agent had seen it all)').split('\n').map(escapeTags);
  const all = [...head, ...body];
  const box = blessed.box({
    parent: host.screen,
    label: ' Handed-over context ',
    top: 2,
    left: 2,
    width: (host.screen.width as number) - 4,
    height: (host.screen.height as number) - 4,
    tags: true,
    ...OVERLAY_STYLE,
  });
  let top = 0;
  const rows = () => Math.max(1, (box.height as number) - 2);
  const draw = () => {
    box.setContent(all.slice(top, top + rows()).join('\n'));
    host.screen.render();
  };
  return new Promise((resolve) => {
    const close = (jump?: number) => {
      host.closeOverlay(box);
      box.destroy();
      resolve(jump);
    };
    box.on('keypress', (_ch: string | undefined, key: BlessedKey) => {
      switch (key.name) {
        case 'up':
          top = Math.max(0, top - 1);
          return draw();
        case 'down':
          top = Math.min(Math.max(0, all.length - rows()), top + 1);
          return draw();
        case 'pageup':
          top = Math.max(0, top - rows());
          return draw();
        case 'pagedown':
          top = Math.min(Math.max(0, all.length - rows()), top + rows());
          return draw();
        case 'j':
          return close(card.lastIncludedSeq ?? undefined);
        case 'q':
        case 'escape':
          return close();
      }
    });
    host.openOverlay(box);
    draw();
  });
}

/** A one-line question at the bottom; resolves with the answer, or undefined on Esc. */
function ask(host: OverlayHost, label: string): Promise<string | undefined> {
  const input = blessed.textbox({
    parent: host.screen,
    bottom: 0,
    left: 0,
    width: '100%',
    height: 3,
    label: ` ${label} `,
    inputOnFocus: true,
    ...OVERLAY_STYLE,
  });
  return new Promise((resolve) => {
    const finish = (v: string | undefined) => {
      host.closeOverlay(input);
      input.destroy();
      resolve(v);
    };
    input.on('submit', (v: string) => finish(v));
    input.on('cancel', () => finish(undefined));
    host.openOverlay(input);
    input.readInput();
  });
}
