// The view cropped for a read-only client smaller than it (src/server/cropped-view.ts): the
// view's bytes go in, the client's bytes come out and are replayed into a terminal of the
// client's size, to see what a person there would see: the tab bar on the first row, the
// compose rows and the status line (with the note saying why) on the last, the pane's
// top-left part between them, the cursor only where it is shown; a client that cannot keep
// up gets nothing until it drains, then the whole current frame.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CroppedView, type ChromeRows } from '../../src/server/cropped-view.js';
import type { ViewSink } from '../../src/server/virtual-terminal.js';
import type { TerminalCaps } from '../../src/tui/terminal-caps.js';
import { createTerminal, cursorHidden, type Terminal } from '../../src/tui/xterm.js';

const s = suite('cropped-view');

const CAPS: TerminalCaps = { truecolor: true, colors: 256, dim: true, italic: true, strikethrough: true, styledUnderline: true, hyperlinks: true };
const VIEW = { cols: 40, rows: 10 };
const NOTE = ' read-only, cropped';
const write = (t: Terminal, data: string | Uint8Array) => new Promise<void>((r) => t.write(data, r));
const drawn = () => new Promise((r) => setImmediate(r));

/** A view frame: the tab bar, pane rows P1.., two compose rows, the status line; the cursor at (x, y). */
function frame(cursor = { x: 3, y: 2 }): Buffer {
  let out = '\x1b[H\x1b[2J\x1b[44mTAB BAR one two three four five six\x1b[0m';
  for (let y = 1; y <= 6; y++) out += `\x1b[${y + 1};1HP${y} ${'abcdefghij'.repeat(3)}END`;
  out += '\x1b[8;1Hcompose one\x1b[9;1Hcompose two\x1b[10;1H\x1b[40mstatus line hints\x1b[K\x1b[0m';
  out += `\x1b[${cursor.y + 1};${cursor.x + 1}H`;
  return Buffer.from(out, 'utf8');
}

class Client implements ViewSink {
  readonly term: Terminal;
  congested = false;
  written = 0;
  private drain: (() => void) | undefined;
  constructor(cols: number, rows: number) {
    this.term = createTerminal(cols, rows, 0);
  }
  write(data: Buffer): boolean {
    this.written++;
    void write(this.term, data);
    return !this.congested;
  }
  onDrain(cb: () => void): void {
    this.drain = cb;
  }
  drained(): void {
    this.congested = false;
    this.drain?.();
  }
  async rows(): Promise<string[]> {
    await write(this.term, '');
    const b = this.term.buffer.active;
    return Array.from({ length: this.term.rows }, (_, y) =>
      b
        .getLine(b.viewportY + y)!
        .translateToString(true)
        .trimEnd(),
    );
  }
}

function crop(client: Client, chrome: ChromeRows = { top: 1, bottom: 3 }): CroppedView {
  return new CroppedView(client, { cols: client.term.cols, rows: client.term.rows }, VIEW, () => chrome, CAPS, NOTE);
}

s('the tab bar on the first row, compose rows and status line on the last, the pane cut to what fits between', async () => {
  const c = new Client(20, 6);
  const v = crop(c);
  v.write(frame());
  await drawn();
  assert.equal(await c.rows(), ['TAB BAR one two thre', 'P1 abcdefghijabcdefg', 'P2 abcdefghijabcdefg', 'compose one', 'compose two', ' read-only, cropped']);
  assert.equal(c.term.buffer.active.cursorY, 2, "the view's cursor, on the pane row the client shows");
  assert.equal(c.term.buffer.active.cursorX, 3);
  assert.not.ok(cursorHidden(c.term), 'and shown');
  v.dispose();
});

s('a row the view changes is drawn again; the cursor is hidden where the client does not show it, and follows a move alone', async () => {
  const c = new Client(20, 6);
  const v = crop(c);
  v.write(frame({ x: 30, y: 2 }));
  await drawn();
  v.write(Buffer.from('\x1b[2;1HP1 changed\x1b[K\x1b[2;31H'));
  await drawn();
  const rows = await c.rows();
  assert.is(rows[1], 'P1 changed');
  assert.is(rows[2], 'P2 abcdefghijabcdefg');
  assert.ok(cursorHidden(c.term), 'the cursor is past the right edge');
  v.write(Buffer.from('\x1b[3;5H'));
  await drawn();
  await c.rows();
  assert.equal([c.term.buffer.active.cursorX, c.term.buffer.active.cursorY], [4, 2], 'the cursor moved alone, into what the client shows');
  assert.not.ok(cursorHidden(c.term));
  v.dispose();
});

s('narrower but taller than the view: the rows as they are, cut at the right edge, blank below', async () => {
  const c = new Client(20, 12);
  const v = crop(c);
  v.write(frame());
  await drawn();
  const rows = await c.rows();
  assert.equal(rows.slice(0, 10), [
    'TAB BAR one two thre',
    'P1 abcdefghijabcdefg',
    'P2 abcdefghijabcdefg',
    'P3 abcdefghijabcdefg',
    'P4 abcdefghijabcdefg',
    'P5 abcdefghijabcdefg',
    'P6 abcdefghijabcdefg',
    'compose one',
    'compose two',
    'status line hints',
  ]);
  assert.equal(rows.slice(10), ['', ' read-only, cropped']);
  v.dispose();
});

s("the tab bar and status line laid out for the client's width, where the view can lay them out, in place of its own rows cut", async () => {
  const rowsAt = (w: number) => ({ tabBar: `\x1b[44mtabs for ${w}`, status: `status for ${w}` });
  const c = new Client(20, 12);
  const v = crop(c, { top: 1, bottom: 3, rowsAt });
  v.write(frame());
  await drawn();
  const rows = await c.rows();
  assert.is(rows[0], 'tabs for 20');
  assert.equal(rows.slice(7, 10), ['compose one', 'compose two', 'status for 20'], "the compose rows are the view's, cut");
  assert.is(c.term.buffer.active.getLine(0)!.getCell(15)!.getBgColor(), 4, "the tab bar's own colour to the right edge");
  c.term.resize(15, 6);
  v.resize({ cols: 15, rows: 6 }, VIEW, NOTE);
  await drawn();
  assert.is((await c.rows())[0], 'tabs for 15', 'laid out again for a new width');
  v.dispose();
});

s('a congested client is sent nothing until it drains, then the whole current frame', async () => {
  const c = new Client(20, 6);
  const v = crop(c);
  c.congested = true;
  v.write(frame());
  await drawn();
  const sent = c.written;
  v.write(Buffer.from('\x1b[3;1HP2 while congested\x1b[K'));
  await drawn();
  assert.is(c.written, sent, 'nothing more while congested');
  // What the client's terminal showed is not known any more: every row must be written.
  await write(c.term, '\x1b[H\x1b[2Jgarbage');
  c.drained();
  await drawn();
  assert.equal(await c.rows(), ['TAB BAR one two thre', 'P1 abcdefghijabcdefg', 'P2 while congested', 'compose one', 'compose two', ' read-only, cropped']);
  v.dispose();
});

s('the view resized: the mirror follows and the client is drawn whole at its new size', async () => {
  const c = new Client(20, 6);
  const v = crop(c);
  v.write(frame());
  await drawn();
  c.term.resize(25, 5);
  v.resize({ cols: 25, rows: 5 }, VIEW, ' read-only, cropped to 25x5');
  await drawn();
  assert.equal(await c.rows(), ['TAB BAR one two three fou', 'P1 abcdefghijabcdefghijab', 'compose one', 'compose two', ' read-only, cropped to 2…']);
  v.dispose();
});

s.run();
