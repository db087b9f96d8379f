// The compose bar: where messages to a tab's agent are written. A small multi-line editor
// (Enter sends, Alt-Enter or Ctrl-J adds a line, Esc leaves with the draft kept) drawn in
// the app's compose rows, with the armed switch ("Continue with <Agent>"), the queue and
// the author above the draft. Pasted text goes into the draft whole — its line breaks stay
// line breaks, its control sequences are dropped (it is untrusted) — so only an Enter the
// user types sends. Any queued message can be selected, taken back to edit, or deleted.
// It edits text only (its rows as text: compose-lines.ts); sending and the queue itself are
// the conversation's business.

import blessed from './blessed.js';
import { stripControls } from '../transcript/sanitize.js';
import type { App } from './app.js';
import type { BlessedKey as ScrollKey } from './scroll-mode.js';
import { composeLines, type ComposeState } from './compose-lines.js';

type BlessedKey = ScrollKey & { meta?: boolean; sequence?: string };

export interface ComposeHandlers {
  send(text: string): Promise<void>;
  /** Takes queued message `index` out of the queue (to edit it) if it still is `text`; undefined otherwise. */
  unqueue(index: number, text: string): string | undefined;
  /** Deletes queued message `index` if it still is `text`. */
  deleteQueued(index: number, text: string): void;
}

/** Pasted text as it goes into the draft: CR and CRLF as newlines, every control sequence and character but \n and \t gone. */
export function pastedText(text: string): string {
  return stripControls(text.replace(/\r\n?/g, '\n'));
}

const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;
const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;

export class ComposeBar {
  draft = '';
  private cursor = 0;
  /** Whose draft is shown (a tab); each keeps its own, so a draft never goes to another tab. */
  private owner: object | undefined;
  private readonly kept = new WeakMap<object, { draft: string; cursor: number }>();
  private focused = false;
  private selected: { index: number; text: string } | undefined;
  private readonly input: blessed.Widgets.BoxElement;
  private state: ComposeState = { author: '', agentTitle: undefined, armedTitle: undefined, queue: [], status: '' };

  constructor(
    private readonly app: App,
    private readonly handlers: () => ComposeHandlers | undefined,
    private readonly prefix: string,
  ) {
    app.composeBarOwned = true;
    // An invisible element that takes the keyboard (and pastes) while the compose bar is focused.
    this.input = blessed.box({ parent: app.screen, top: 0, left: 0, width: 1, height: 1, hidden: true });
    this.input.on('keypress', (ch: string | undefined, key: BlessedKey) => void this.key(ch, key));
    this.input.on('paste', (text: string) => this.paste(text));
  }

  get isFocused(): boolean {
    return this.focused;
  }

  /** Index of the selected queued message, if one is. */
  get selectedQueued(): number | undefined {
    return this.selected?.index;
  }

  focus(): void {
    if (this.focused) return;
    this.focused = true;
    this.input.show();
    this.app.openOverlay(this.input);
    this.render();
  }

  blur(): void {
    if (!this.focused) return;
    this.focused = false;
    this.selected = undefined;
    this.input.hide();
    this.app.closeOverlay(this.input);
    this.render();
  }

  /** Puts text back into the draft (a refused or failed send, a queued message to edit), keeping what is there. */
  restore(text: string): void {
    this.draft = this.draft ? `${text}\n${this.draft}` : text;
    this.cursor = this.draft.length;
    this.render();
  }

  /**
   * Puts text back into `owner`'s draft, whether it is shown or kept for later (a message its
   * agent did not take comes back to its own tab, whichever tab is in front).
   */
  restoreFor(owner: object, text: string): void {
    if (owner === this.owner) return this.restore(text);
    const kept = this.kept.get(owner);
    const draft = kept?.draft ? `${text}\n${kept.draft}` : text;
    this.kept.set(owner, { draft, cursor: draft.length });
  }

  /**
   * Takes `text` out of `owner`'s draft where restoreFor() put it, if it is still there as it
   * was put (a message its agent took after all must not be sent twice); true when it was.
   */
  dropFrom(owner: object, text: string): boolean {
    const shown = owner === this.owner;
    const cur = shown ? { draft: this.draft, cursor: this.cursor } : this.kept.get(owner);
    if (!cur) return false;
    const draft = cur.draft === text ? '' : cur.draft.startsWith(`${text}\n`) ? cur.draft.slice(text.length + 1) : undefined;
    if (draft === undefined) return false;
    const cursor = Math.max(0, Math.min(draft.length, cur.cursor - (cur.draft.length - draft.length)));
    if (!shown) {
      this.kept.set(owner, { draft, cursor });
      return true;
    }
    this.draft = draft;
    this.cursor = cursor;
    this.render();
    return true;
  }

  /** Pasted text (untrusted) into the draft at the cursor, whole: nothing in it sends or commands. */
  paste(text: string): void {
    const clean = pastedText(text);
    if (clean) this.insert(clean);
  }

  /**
   * Shows `owner`'s draft (a tab come to the front), keeping the one shown so far for its
   * own owner: a draft written for one tab is never sent to another.
   */
  showFor(owner: object | undefined): void {
    if (owner === this.owner) return;
    if (this.owner) this.kept.set(this.owner, { draft: this.draft, cursor: this.cursor });
    const next = owner ? this.kept.get(owner) : undefined;
    this.owner = owner;
    this.draft = next?.draft ?? '';
    this.cursor = next?.cursor ?? 0;
    this.selected = undefined;
    this.render();
  }

  update(state: ComposeState): void {
    this.state = state;
    // The selection follows its message as the queue changes (one sent from the front); a
    // message that left the queue is not silently replaced by another under the selection.
    const sel = this.selected;
    if (sel && state.queue[sel.index] !== sel.text) {
      let best = -1;
      state.queue.forEach((q, i) => {
        if (q === sel.text && (best < 0 || Math.abs(i - sel.index) < Math.abs(best - sel.index))) best = i;
      });
      this.selected = best < 0 ? undefined : { index: best, text: sel.text };
    }
    this.render();
  }

  render(): void {
    const width = Math.max(10, (this.app.screen.width as number) - 1);
    const draft = { draft: this.draft, cursor: this.cursor, focused: this.focused, selected: this.selected?.index };
    const lines = composeLines(this.state, draft, width, this.app.screen.height as number, this.prefix);
    this.app.setComposeHeight(lines.length);
    this.app.composeBar.setContent(lines.join('\n'));
    this.app.requestChrome();
  }

  private async key(ch: string | undefined, key: BlessedKey): Promise<void> {
    // blessed reports a typed \r twice, as "enter" and as "return": one Enter, one action.
    if (key.name === 'enter' && key.sequence === '\r') return;
    let name = key.full ?? key.name;
    // Alt as an ESC prefix (ESC ESC [ A) is Alt-Up too; blessed names only ESC [ 1 ; 3 A so.
    if (name && !name.startsWith('M-') && /^\x1b\x1b[[O]/.test(key.sequence ?? '')) name = `M-${name}`;
    if (name === 'escape') {
      if (!this.selected) return this.blur();
      this.selected = undefined;
      return this.render();
    }
    if (name === this.prefix) {
      // The prefix still commands baton from the compose bar: leave it, and take the next key as a command.
      this.blur();
      this.app.router.mode = 'prefix';
      return;
    }
    if ((name === 'enter' || name === 'return') && !key.meta) {
      const text = this.draft;
      if (!text.trim()) return this.selected ? this.editQueued() : undefined;
      this.draft = '';
      this.cursor = 0;
      this.render();
      await this.handlers()?.send(text);
      return;
    }
    if (name === 'M-enter' || name === 'M-return' || name === 'C-j' || name === 'linefeed') return this.insert('\n');
    if (name === 'M-up') return this.selectQueued(-1);
    if (name === 'M-down') return this.selectQueued(1);
    if (name === 'M-e') return this.editQueued();
    if (name === 'M-x') return this.deleteQueued();
    switch (key.name) {
      case 'backspace':
        if (this.cursor > 0) {
          const from = this.before(this.cursor);
          this.draft = this.draft.slice(0, from) + this.draft.slice(this.cursor);
          this.cursor = from;
        }
        return this.render();
      case 'delete':
        this.draft = this.draft.slice(0, this.cursor) + this.draft.slice(this.after(this.cursor));
        return this.render();
      case 'left':
        this.cursor = this.before(this.cursor);
        return this.render();
      case 'right':
        this.cursor = this.after(this.cursor);
        return this.render();
      case 'up':
      case 'down':
        return this.lineMove(key.name === 'up' ? -1 : 1);
      case 'home':
        this.cursor = this.draft.lastIndexOf('\n', this.cursor - 1) + 1;
        return this.render();
      case 'end': {
        const nl = this.draft.indexOf('\n', this.cursor);
        this.cursor = nl < 0 ? this.draft.length : nl;
        return this.render();
      }
    }
    if (key.ctrl && key.name === 'u') {
      this.draft = '';
      this.cursor = 0;
      return this.render();
    }
    if (ch && !key.ctrl && !key.meta && ch >= ' ') this.insert(ch);
  }

  /** M-Up / M-Down: the first M-Up selects the last queued message; M-Down past the last clears. */
  private selectQueued(step: -1 | 1): void {
    const q = this.state.queue;
    if (!q.length) return;
    let i: number | undefined;
    if (!this.selected) i = step < 0 ? q.length - 1 : undefined;
    else i = this.selected.index + step;
    if (i !== undefined && i < 0) i = 0;
    this.selected = i === undefined || i >= q.length ? undefined : { index: i, text: q[i]! };
    this.render();
  }

  /** The selected (else the last) queued message. */
  private target(): { index: number; text: string } | undefined {
    if (this.selected) return this.selected;
    const q = this.state.queue;
    return q.length ? { index: q.length - 1, text: q[q.length - 1]! } : undefined;
  }

  private editQueued(): void {
    const t = this.target();
    if (!t) return;
    const back = this.handlers()?.unqueue(t.index, t.text);
    this.selected = undefined;
    if (back !== undefined) this.restore(back);
    else this.render();
  }

  private deleteQueued(): void {
    const t = this.target();
    if (!t) return;
    const had = this.selected !== undefined;
    const before = this.state.queue;
    this.handlers()?.deleteQueued(t.index, t.text);
    // The handler may have updated the state already (a new queue) or not yet.
    const q = this.state.queue === before ? before.filter((_, i) => i !== t.index) : this.state.queue;
    // With a selection, it moves to the neighbour, so M-x again deletes the next one.
    const i = Math.min(t.index, q.length - 1);
    this.selected = had && i >= 0 ? { index: i, text: q[i]! } : undefined;
    this.render();
  }

  /** Up/Down within a multi-line draft: same column on the line above or below. */
  private lineMove(step: -1 | 1): void {
    const lineStart = this.draft.lastIndexOf('\n', this.cursor - 1) + 1;
    const col = this.cursor - lineStart;
    if (step < 0) {
      if (lineStart === 0) return;
      const prevStart = this.draft.lastIndexOf('\n', lineStart - 2) + 1;
      this.cursor = Math.min(prevStart + col, lineStart - 1);
    } else {
      const nl = this.draft.indexOf('\n', this.cursor);
      if (nl < 0) return;
      const nextEnd = this.draft.indexOf('\n', nl + 1);
      this.cursor = Math.min(nl + 1 + col, nextEnd < 0 ? this.draft.length : nextEnd);
    }
    if (this.cursor > 0 && this.cursor < this.draft.length && isLow(this.draft.charCodeAt(this.cursor)) && isHigh(this.draft.charCodeAt(this.cursor - 1)))
      this.cursor--;
    this.render();
  }

  /** Index one character (code point) before / after i. */
  private before(i: number): number {
    return i >= 2 && isLow(this.draft.charCodeAt(i - 1)) && isHigh(this.draft.charCodeAt(i - 2)) ? i - 2 : Math.max(0, i - 1);
  }

  private after(i: number): number {
    return isHigh(this.draft.charCodeAt(i)) && isLow(this.draft.charCodeAt(i + 1)) ? i + 2 : Math.min(this.draft.length, i + 1);
  }

  private insert(text: string): void {
    this.draft = this.draft.slice(0, this.cursor) + text + this.draft.slice(this.cursor);
    this.cursor += text.length;
    this.render();
  }
}
