// The compose bar: where messages to a tab's agent are written. A small multi-line editor
// (Enter sends, Alt-Enter or Ctrl-J adds a line, Esc leaves with the draft kept) drawn in
// the app's compose rows, with the armed switch ("Continue with <Agent>"), the queue and
// the author above the draft. It edits text only; sending is the conversation's business.

import blessed from 'blessed';
import type { App } from './app.js';
import type { BlessedKey as ScrollKey } from './scroll-mode.js';

type BlessedKey = ScrollKey & { meta?: boolean };
import { escapeTags } from './tab-bar.js';

export interface ComposeState {
  author: string;
  agentTitle: string | undefined;
  armedTitle: string | undefined;
  queue: readonly string[];
  status: string;
}

export interface ComposeHandlers {
  send(text: string): Promise<void>;
  /** Takes the last queued message back into the draft (to edit it); undefined when none. */
  unqueueLast(): string | undefined;
  /** Deletes the last queued message. */
  deleteLastQueued(): void;
}

const ARMED_NOTE = 'Recent conversation continues as text; images and files are not carried. Nothing is sent until you send.';
const flat = (s: string, max: number) => {
  const f = s.replace(/\s+/g, ' ').trim();
  return f.length > max ? `${f.slice(0, max - 1)}…` : f;
};

export class ComposeBar {
  draft = '';
  private cursor = 0;
  private focused = false;
  private readonly input: blessed.Widgets.BoxElement;
  private state: ComposeState = { author: '', agentTitle: undefined, armedTitle: undefined, queue: [], status: '' };

  constructor(
    private readonly app: App,
    private readonly handlers: () => ComposeHandlers | undefined,
    private readonly prefix: string,
  ) {
    app.composeBarOwned = true;
    // An invisible element that takes the keyboard while the compose bar is focused.
    this.input = blessed.box({ parent: app.screen, top: 0, left: 0, width: 1, height: 1, hidden: true });
    this.input.on('keypress', (ch: string | undefined, key: BlessedKey) => void this.key(ch, key));
  }

  get isFocused(): boolean {
    return this.focused;
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
    this.input.hide();
    this.app.closeOverlay(this.input);
    this.render();
  }

  /** Puts text back into the draft (a refused or failed send), keeping what is there. */
  restore(text: string): void {
    this.draft = this.draft ? `${text}\n${this.draft}` : text;
    this.cursor = this.draft.length;
    this.render();
  }

  update(state: ComposeState): void {
    this.state = state;
    this.render();
  }

  render(): void {
    const width = Math.max(10, (this.app.screen.width as number) - 1);
    const lines: string[] = [];
    const s = this.state;
    if (s.armedTitle) {
      lines.push(`{yellow-fg}{bold}Continue with ${escapeTags(s.armedTitle)}{/bold}{/yellow-fg} {gray-fg}${escapeTags(flat(ARMED_NOTE, width - s.armedTitle.length - 16))}{/gray-fg}`);
    }
    if (s.queue.length) {
      const items = s.queue.map((q, i) => `${i + 1}. ${flat(q, 30)}`).join('  ');
      lines.push(`{gray-fg}queued (${s.queue.length}): ${escapeTags(flat(items, width - 50))}  · M-Up edits the last · M-x deletes it{/gray-fg}`);
    }
    const prompt = `${s.author} › `;
    const draftLines = this.draft.split('\n');
    let offset = 0;
    draftLines.forEach((line, i) => {
      const lead = i === 0 ? prompt : ' '.repeat(prompt.length);
      let text = escapeTags(line);
      if (this.focused && this.cursor >= offset && this.cursor <= offset + line.length) {
        const at = this.cursor - offset;
        text = `${escapeTags(line.slice(0, at))}{inverse}${escapeTags(line[at] ?? ' ')}{/inverse}${escapeTags(line.slice(at + 1))}`;
      }
      offset += line.length + 1;
      lines.push(`${escapeTags(lead)}${text}`);
    });
    if (!this.focused && !this.draft) {
      lines[lines.length - 1] = `{gray-fg}${escapeTags(prompt)}${s.agentTitle ? `message ${escapeTags(s.agentTitle)}` : 'no agent in this tab'} · ${escapeTags(this.prefix)} m to write · ${escapeTags(s.status)}{/gray-fg}`;
    }
    this.app.setComposeHeight(lines.length);
    this.app.composeBar.setContent(lines.join('\n'));
    this.app.requestChrome();
  }

  private async key(ch: string | undefined, key: BlessedKey): Promise<void> {
    const name = key.full ?? key.name;
    if (name === 'escape') return this.blur();
    if (name === this.prefix) {
      // The prefix still commands baton from the compose bar: leave it, and take the next key as a command.
      this.blur();
      this.app.router.mode = 'prefix';
      return;
    }
    if ((name === 'enter' || name === 'return') && !key.meta) {
      const text = this.draft;
      if (!text.trim()) return;
      this.draft = '';
      this.cursor = 0;
      this.render();
      await this.handlers()?.send(text);
      return;
    }
    if (name === 'M-enter' || name === 'M-return' || name === 'C-j' || name === 'linefeed') return this.insert('\n');
    if (name === 'M-up') {
      const back = this.handlers()?.unqueueLast();
      if (back !== undefined) this.restore(back);
      return;
    }
    if (name === 'M-x') {
      this.handlers()?.deleteLastQueued();
      return;
    }
    switch (key.name) {
      case 'backspace':
        if (this.cursor > 0) {
          this.draft = this.draft.slice(0, this.cursor - 1) + this.draft.slice(this.cursor);
          this.cursor--;
        }
        return this.render();
      case 'delete':
        this.draft = this.draft.slice(0, this.cursor) + this.draft.slice(this.cursor + 1);
        return this.render();
      case 'left':
        this.cursor = Math.max(0, this.cursor - 1);
        return this.render();
      case 'right':
        this.cursor = Math.min(this.draft.length, this.cursor + 1);
        return this.render();
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

  private insert(text: string): void {
    this.draft = this.draft.slice(0, this.cursor) + text + this.draft.slice(this.cursor);
    this.cursor += text.length;
    this.render();
  }
}
