// Small modal choices: the picker (a list of {label, value}: agents with their models, the
// plain shell; with keys that toggle an option for the pick, listed under it) and the yes/no
// confirmation. Each resolves once, with undefined/false when dismissed; neither acts on the
// choice itself.

import type { Event } from '../lifecycle/index.js';
import blessed from './blessed.js';
import { OVERLAY_STYLE, type OverlayHost } from './overlay.js';
import { escapeTags, oneLine } from './tab-bar.js';
import { wrapLines } from './wrap.js';

export interface PickerChoice<T> {
  label: string;
  value: T;
  /** Shown after the label, dimmed: a model, "not installed", "current". */
  detail?: string;
  /**
   * The row of what runs now (the tab's agent, its model; its detail says "current"): the
   * selection starts on it, as tmux's choosers start on the current window, not on the first.
   */
  current?: true;
}

/** Resolves the dialog once: closes the overlay, destroys the element, hands back the answer. */
function closer<V>(host: OverlayHost, el: blessed.Widgets.BlessedElement, resolve: (v: V) => void): (v: V) => void {
  let done = false;
  return (v: V) => {
    if (done) return;
    done = true;
    host.closeOverlay(el);
    el.destroy();
    resolve(v);
  };
}

/**
 * A centered box holding `given` lines, wrapped here so the box is as tall as the text and
 * its last line (the keys) is never cut off; `pad` columns of padding each side.
 */
function dialogBox(host: OverlayHost, title: string, given: string[], pad: 0 | 1): blessed.Widgets.BoxElement {
  const width = Math.min(Math.max(...given.map((l) => l.length), title.length + 4) + 4 + 2 * pad, (host.screen.width as number) - 2);
  const lines = wrapLines(given, width - 2 - 2 * pad);
  return blessed.box({
    parent: host.screen,
    label: ` ${escapeTags(oneLine(title))} `,
    top: 'center',
    left: 'center',
    width,
    height: Math.min(lines.length + 2, (host.screen.height as number) - 2),
    ...(pad ? { padding: { left: pad, right: pad } } : {}),
    content: lines.map(escapeTags).join('\n'),
    tags: true,
    ...OVERLAY_STYLE,
  });
}

/** A picker's choices as they change (versions found, agents found missing): see agent-choices.ts. */
export interface LiveChoices<T> {
  list(): PickerChoice<T>[];
  note(): string | undefined;
  /** list() or note() may say something new. */
  readonly onChange: Event<void>;
  /** Settles once the list is complete (no more rows to come); without it the list counts as complete. */
  readonly settled?: Promise<void>;
}

/** Said when Enter is pressed on a list still being filled with nothing to take yet. */
export const NOT_YET = 'Nothing to take yet: the list is still coming. Enter takes a row once it is here; Esc closes.';

/**
 * What a row is, across changes of the list: its value (a row's label may be shared or
 * change while it stays the same choice), else its label.
 */
function identity<T>(c: PickerChoice<T>): string {
  try {
    return JSON.stringify(c.value) ?? c.label;
  } catch {
    return c.label;
  }
}

/**
 * A key that turns something on or off for whatever is picked (the switch picker's `s`:
 * a summary first), listed under the entries with its state; the caller reads `on` once the
 * picker resolved.
 */
export interface PickerToggle {
  /** One character the list does not take itself (not j, k, l, g, q, /, ?). */
  key: string;
  /** What it does, as listed after the key and its box. */
  label: string;
  on: boolean;
}

/**
 * The words under a picker's entries: one note for all, or one for the entry selected (the
 * switch picker: a return to an agent that ran here says something else than a fresh start).
 */
export type PickerNote<T> = string | ((selected: T | undefined) => string | undefined);

/** The index of the current row (PickerChoice.current), -1 when there is none. */
const currentIndex = <T>(choices: PickerChoice<T>[]): number => choices.findIndex((c) => c.current);

/** What a note that follows the selection says for each row (none for a note said for all). */
const everyNote = <T>(note: PickerNote<T> | undefined, choices: PickerChoice<T>[]): string[] =>
  typeof note === 'function' ? choices.flatMap((c) => note(c.value) ?? []) : [];

/** A toggle's line: "s [x] a summary first". */
export const toggleLine = (t: PickerToggle): string => `${t.key} [${t.on ? 'x' : ' '}] ${t.label}`;

/** A picker's items, size and note lines (the note, then the toggles) for its choices as they are now. */
function measurePicker<T>(host: OverlayHost, title: string, choices: PickerChoice<T>[], text: string | undefined, toggles: PickerToggle[], notes: string[]) {
  const items = choices.map((c) => escapeTags(c.label) + (c.detail ? `  {gray-fg}${escapeTags(c.detail)}{/gray-fg}` : ''));
  const keys = toggles.map(toggleLine);
  const textWidth = Math.max(
    title.length + 4,
    ...choices.map((c) => c.label.length + (c.detail ? c.detail.length + 2 : 0)),
    text ? text.length : 0,
    // A note that follows the selection: as wide as its widest, so the box keeps its width as the selection moves.
    ...notes.map((n) => n.length),
    ...keys.map((k) => k.length),
  );
  const width = Math.min(textWidth + 6, (host.screen.width as number) - 2);
  // A note wider than the screen allows wraps, the picker as tall as it then is; the toggles under it.
  const noteLines = [...(text ? wrapLines([text], width - 4) : []), ...wrapLines(keys, width - 4)];
  const height = Math.min(choices.length + 2 + (noteLines.length ? noteLines.length + 1 : 0), (host.screen.height as number) - 2);
  return { items, width, height, noteLines };
}

/**
 * A list to pick one of; resolves with its value, or undefined on Esc / q. The selection
 * starts on the current row (PickerChoice.current), else the first. Given live choices, it is
 * drawn at once with what is known and redrawn as they change, the selection staying on the
 * entry the user was on (on the current row, until the user presses a key); Enter with no entry under it while the
 * list is still coming (a model list being asked for) is refused, said under the list, and
 * the picker stays. `note`: said under the list, for all entries or for the selected one.
 * `toggles`: keys that flip an option for the pick. (A move of the selection redraws the note
 * only: blessed's setItems moves the selection itself, which would come back to the redraw.)
 */
export function openPicker<T>(
  host: OverlayHost,
  title: string,
  given: PickerChoice<T>[] | LiveChoices<T>,
  note?: PickerNote<T>,
  toggles: PickerToggle[] = [],
): Promise<T | undefined> {
  const live = Array.isArray(given) ? undefined : given;
  let choices = live ? live.list() : (given as PickerChoice<T>[]);
  // Until a live list has settled, Enter with nothing under the selection is refused (said
  // once, until the list changes), not taken as a dismissal: it was meant for a row to come.
  let complete = !live?.settled;
  void live?.settled?.then(() => (complete = true));
  let refused = false;
  // The selected row, for a note that follows it (blessed's list says when it moves).
  let selected = Math.max(0, currentIndex(choices));
  const noteOf = () => {
    const text = live?.note() ?? (typeof note === 'function' ? note(choices[selected]?.value) : note);
    return refused ? [NOT_YET, text].filter(Boolean).join(' ') : text;
  };
  const measure = () => measurePicker(host, title, choices, noteOf(), toggles, everyNote(note, choices));
  const first = measure();
  // Made at its size: blessed may draw an element as soon as it has a parent.
  const list = blessed.list({
    parent: host.screen,
    label: ` ${escapeTags(oneLine(title))} `,
    top: 'center',
    left: 'center',
    width: first.width,
    height: first.height,
    items: first.items,
    tags: true,
    keys: true,
    vi: true,
    ...OVERLAY_STYLE,
    style: { ...OVERLAY_STYLE.style, selected: { inverse: true } },
  });
  let noteBox: blessed.Widgets.TextElement | undefined;
  const layout = (m = measure(), rows = true) => {
    if (m !== first) {
      if (rows) list.setItems(m.items as never);
      list.width = m.width;
      list.height = m.height;
    }
    if (m.noteLines.length && !noteBox) noteBox = blessed.text({ parent: list, left: 1, tags: true, style: { fg: 'gray', bg: 'black' } });
    if (noteBox) {
      // Under the entries and a blank row (the border's row counted).
      noteBox.top = choices.length + 2;
      noteBox.height = Math.max(1, m.noteLines.length);
      noteBox.setContent(m.noteLines.map(escapeTags).join('\n'));
    }
  };
  layout(first);
  const redraw = (rows = true) => {
    layout(measure(), rows);
    host.screen.render();
  };
  // Until a key is pressed the selection is the picker's: it goes to the current row when
  // that row comes (a model list arrives after the picker is drawn). Afterwards it is the user's.
  let touched = false;
  const currentRow = () => currentIndex(choices);
  return new Promise((resolve) => {
    // The selection stays on the row the user was on (by identity) as rows come and go.
    const watching = live?.onChange(() => {
      const at = (list as unknown as { selected: number }).selected;
      const was = choices[at] ? identity(choices[at]) : undefined;
      choices = live.list();
      refused = false;
      layout();
      const same = was === undefined ? -1 : choices.findIndex((c) => identity(c) === was);
      const current = touched ? -1 : currentRow();
      list.select(current >= 0 ? current : same >= 0 ? same : Math.min(at, choices.length - 1));
      host.screen.render();
    });
    const finish = closer<T | undefined>(host, list, (v) => {
      watching?.dispose();
      resolve(v);
    });
    list.on('select', (_item: unknown, index: number) => {
      const choice = choices[index];
      if (choice || complete) return finish(choice?.value);
      refused = true;
      redraw();
    });
    list.on('keypress', () => (touched = true));
    list.on('select item', (_item: unknown, index: number) => {
      const moved = index !== selected;
      selected = index;
      if (moved && typeof note === 'function') redraw(false);
    });
    list.key(['escape', 'q', 'C-c'], () => finish(undefined));
    for (const toggle of toggles)
      list.key([toggle.key], () => {
        toggle.on = !toggle.on;
        redraw();
      });
    host.openOverlay(list);
    list.select(Math.max(0, currentRow()));
  });
}

/** "y" confirms; "n", Esc and q decline. Enter declines too: a quit must be meant. */
export function confirm(host: OverlayHost, title: string, text: string): Promise<boolean> {
  const box = dialogBox(host, title, [...text.split('\n'), '', 'y: yes    n / Esc: no'], 0);
  return new Promise((resolve) => {
    const finish = closer<boolean>(host, box, resolve);
    box.key(['y', 'S-y'], () => finish(true));
    box.key(['n', 'S-n', 'escape', 'q', 'enter'], () => finish(false));
    host.openOverlay(box);
  });
}

export interface KeyOption<T> {
  /** The key that takes it: one character, or "enter". */
  key: string;
  label: string;
  value: T;
}

export interface ChooseOptions<T> {
  /** What Enter takes — the safe answer; without it Enter does nothing, so an Enter meant for something else never acts. */
  enterTakes?: T;
  /** What Esc means, as listed (default "cancel"). */
  escape?: string;
}

/**
 * A question with a few answers, each taken by its key (listed under the text). Esc and q
 * resolve with undefined.
 */
export function choose<T>(host: OverlayHost, title: string, text: string, options: KeyOption<T>[], how: ChooseOptions<T> = {}): Promise<T | undefined> {
  const keyWidth = Math.max(...options.map((o) => o.key.length), 3);
  const given = [
    ...text.split('\n'),
    '',
    ...options.map((o) => `${o.key.padStart(keyWidth)}  ${o.label}`),
    `${'Esc'.padStart(keyWidth)}  ${how.escape ?? 'cancel'}`,
  ];
  // Long lines (a path, a git message) wrap inside the box rather than run off it.
  const box = dialogBox(host, title, given, 1);
  return new Promise((resolve) => {
    const finish = closer<T | undefined>(host, box, resolve);
    box.on('keypress', (ch: string | undefined, key: { name?: string }) => {
      if (key.name === 'escape' || ch === 'q') return finish(undefined);
      if (key.name === 'enter' || key.name === 'return') {
        if (how.enterTakes !== undefined) finish(how.enterTakes);
        return;
      }
      const hit = options.find((o) => o.key === ch);
      if (hit) finish(hit.value);
    });
    host.openOverlay(box);
  });
}
