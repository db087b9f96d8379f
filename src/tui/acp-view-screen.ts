// The bytes that draw baton's ACP view on a terminal (the tab's PTY, so the tab's emulator,
// its scrollback, every client and a reattach see it as they see any program): blocks that are
// done are written once, above, and scroll into the terminal's history as a CLI's output
// does; what can still change (streaming text, running tool cards, open permission cards,
// the plan) and the footer (status line, input line) are the live area at the bottom,
// erased and redrawn on every frame. A live area taller than the screen shows its last rows.
// A resize redraws everything at the new width. Pure: state in, bytes out.

import { type DrawContext, drawBlock } from './acp-view-cards.js';
import type { ViewModel } from './acp-view-model.js';
import { C, type Line, clip, lineBytes, lineText, span, wrap } from './acp-view-text.js';

export interface Footer {
  /** The agent's name, for the status line. */
  title: string;
  /** The model the session runs, when the agent or the launch named one (a switch to another model changes it in place). */
  model?: string;
  /** The permission mode, as the status line names it ("plan (emulated)"; default is not shown); Shift-Tab changes it. */
  mode?: string;
  /** The input line's text. */
  input: string;
  /** Messages typed while the agent worked, sent when it is done. */
  queued: number;
  /** What happened last that the user should read (a refusal, the agent's exit). */
  note?: string;
  /** The agent is starting or gone: no input taken. */
  state: 'starting' | 'ready' | 'gone';
}

/** The status line's words, which the driver's statusFromScreen reads back. */
export const SAYS = {
  working: 'working · Esc cancels',
  approval: 'waiting for you: answer the card above',
  idle: 'Enter sends',
  starting: 'starting…',
} as const;

/** The input box shows at most this many lines of a long message (its end, where the cursor is). */
const INPUT_LINES = 4;

export class ViewScreen {
  private committed = 0;
  private liveHeight = 0;
  private width = 0;

  constructor(
    private readonly model: ViewModel,
    private readonly ctx: Omit<DrawContext, 'width'> = {},
  ) {}

  /** A frame: everything when `full` (first frame, resize), else what changed below the committed blocks. */
  frame(cols: number, rows: number, footer: Footer, full = false): string {
    let out = '';
    if (full || cols !== this.width) {
      // Clear the screen and the history: the committed blocks are drawn again at this width.
      out += '\x1b[?2004h\x1b[H\x1b[2J\x1b[3J';
      this.committed = 0;
      this.liveHeight = 0;
      this.width = cols;
    } else if (this.liveHeight > 0) {
      out += `\r${this.liveHeight > 1 ? `\x1b[${this.liveHeight - 1}A` : ''}\x1b[J`;
    }
    const ctx = { ...this.ctx, width: cols };
    const blocks = this.model.blocks;
    const lines: Line[] = [];
    while (this.committed < blocks.length && blocks[this.committed]!.done) lines.push(...drawBlock(blocks[this.committed++]!, ctx));
    let live: Line[] = [];
    for (let i = this.committed; i < blocks.length; i++) live.push(...drawBlock(blocks[i]!, ctx));
    live.push(...this.footer(cols, footer));
    if (live.length > rows) live = live.slice(live.length - rows);
    for (const l of lines) out += `${lineBytes(clip(l, cols))}\r\n`;
    out += live.map((l) => lineBytes(clip(l, cols))).join('\r\n');
    this.liveHeight = live.length;
    return out;
  }

  /** The status line and the input box. */
  footer(cols: number, f: Footer): Line[] {
    const open = this.model.openPermissions().length;
    const status =
      f.state === 'starting'
        ? SAYS.starting
        : f.state === 'gone'
          ? 'the agent has ended'
          : open
            ? SAYS.approval
            : this.model.working
              ? SAYS.working
              : SAYS.idle;
    const line: Line = [
      span(`─ ${f.title} · `, { dim: true }),
      ...(f.model ? [span(f.model), span(' · ', { dim: true })] : []),
      // The default mode goes unsaid: the line names a mode only when it is not the usual one.
      ...(f.mode && f.mode !== 'default' ? [span(f.mode, { fg: f.mode.startsWith('plan') ? C.cyan : C.yellow, bold: true }), span(' · ', { dim: true })] : []),
      span(status, open ? { fg: C.magenta, bold: true } : this.model.working ? { fg: C.yellow } : { dim: true }),
    ];
    if (f.queued) line.push(span(` · ${f.queued} queued`, { dim: true }));
    const out: Line[] = [[], clip(line, cols)];
    if (f.note) out.push(...wrap([span(f.note, { fg: C.red })], cols));
    const text = f.input.split(/\r\n|\r|\n/);
    const boxed = text.flatMap((l, i) => wrap([span(i === 0 ? '› ' : '  ', { bold: true, fg: C.green }), span(l)], cols, [span('  ')]));
    if (boxed.length > INPUT_LINES) out.push([span(`  [${text.length} lines; the last shown]`, { dim: true })], ...boxed.slice(-INPUT_LINES + 1));
    else out.push(...boxed);
    return out;
  }
}

/** The text of the lines a frame draws (for tests). */
export const plain = (lines: Line[]) => lines.map(lineText);
