// Scroll mode over what a pane showed, fed as bytes into the pane's emulator (PaneScreen)
// with no PTY: what each agent CLI really wrote over six turns (test/fixtures/<cli>/tui-*.pty,
// see test/fixtures/capture-tui-output.ts), and small made-up screens. PgUp reaches the
// first turn wherever the CLI keeps its history in the scrollback; / finds what is on the
// screen wherever the cursor stands; a full-screen view says it has no scrollback.

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { PaneScreen } from '../../src/tui/pane-screen.js';
import { ScrollMode, type ScrollView } from '../../src/tui/scroll-mode.js';

const s = suite('scroll-mode');

class Driven {
  readonly view: ScrollView = { height: 0, scrollTop: undefined, highlights: [] };
  readonly mode: ScrollMode;
  status = '';
  copied: string[] = [];
  left = false;

  constructor(
    readonly screen: PaneScreen,
    height = screen.rows,
  ) {
    (this.view as { height: number }).height = height;
    this.mode = new ScrollMode(screen, {
      view: this.view,
      status: (t) => (this.status = t ?? ''),
      redraw: () => {},
      copy: (t) => this.copied.push(t),
      leave: () => (this.left = true),
    });
  }

  key(name: string, ch?: string): void {
    this.mode.handleKey(ch, { name, full: name });
  }

  type(text: string): void {
    for (const ch of text) this.key(ch, ch);
  }

  search(text: string): void {
    this.key('/', '/');
    this.type(text);
    this.key('enter');
  }

  /** The rows scroll mode shows. */
  page(): string[] {
    return Array.from({ length: this.view.height }, (_, y) => this.screen.lineText(this.view.scrollTop! + y));
  }

  /** The highlighted match: its line number and the line's text. */
  match(): { line: number; text: string } | undefined {
    const h = this.view.highlights.at(-1);
    return h && { line: h.line, text: this.screen.lineText(h.line) };
  }
}

function replay(fixture: string): PaneScreen {
  // Captured at 80x24: the same size here, so the program's layout is what it drew.
  const screen = new PaneScreen(80, 24);
  assert.ok(screen.parse(readFileSync(new URL(`../fixtures/${fixture}`, import.meta.url), 'utf8')));
  return screen;
}

function fed(bytes: string, cols = 30, rows = 6): PaneScreen {
  const screen = new PaneScreen(cols, rows, 1000);
  assert.ok(screen.parse(bytes));
  return screen;
}

// ---- the agents' own output ----

/** CLIs that keep their conversation in the scrollback (inline TUIs), as baton launches them. */
const INLINE = ['codex/tui-inline-six-turns.pty', 'claude/tui-six-turns.pty', 'gemini/tui-six-turns.pty', 'qwen/tui-six-turns.pty'];
/** CLIs in their full-screen view (the alternate screen): the screen is all there is. */
const FULL_SCREEN = ['codex/tui-full-screen-six-turns.pty', 'opencode/tui-full-screen-six-turns.pty'];

for (const fixture of INLINE) {
  s(`${fixture}: PgUp reaches the first turn; / finds a word on the screen and one in the history`, () => {
    const screen = replay(fixture);
    try {
      const d = new Driven(screen);
      assert.match(d.status, /\[scroll\] bottom/);
      assert.not.ok(
        d.page().some((l) => l.includes('turn1word')),
        'the first turn is off the screen',
      );
      let pages = 0;
      while (!d.page().some((l) => l.includes('message 1 turn1word')) && pages++ < 20) d.key('pageup');
      assert.ok(pages <= 20, `PgUp reached the first turn; top page:\n${d.page().join('\n')}`);
      assert.match(d.status, /\d+ lines up/);

      const live = new Driven(screen);
      live.search('turn6word');
      assert.ok(live.match()!.line >= screen.screenTop, 'the last turn is found on the screen');
      assert.match(live.match()!.text, /turn6word/);
      live.search('TURN1WORD');
      assert.ok(live.match()!.line < screen.screenTop, 'the first turn is found in the history');
      assert.match(live.match()!.text, /turn1word/);
      assert.ok(
        live.page().some((l) => l.includes('turn1word')),
        'and shown',
      );
    } finally {
      screen.dispose();
    }
  });
}

for (const fixture of FULL_SCREEN) {
  s(`${fixture}: after PgUp, / still finds a word on the screen, and v y copies from there`, () => {
    const screen = replay(fixture);
    try {
      assert.ok(screen.fullScreen);
      const d = new Driven(screen);
      // The reported bug: PgUp (nothing above) took the cursor to the top row, and / searched
      // upwards from there and found nothing though the word was on the screen.
      d.key('pageup');
      d.key('pageup');
      d.search('turn6word');
      assert.match(d.match()?.text ?? '', /message 6 turn6word/, `found; status: ${d.status}`);
      assert.match(d.status, /wrapped around/);
      d.key('v');
      d.type('llllllllll');
      d.key('y');
      assert.equal(d.copied, ['turn6word l']);
      assert.ok(d.left);
    } finally {
      screen.dispose();
    }
  });

  s(`${fixture}: scroll mode says plainly that the full-screen view has no scrollback`, () => {
    const screen = replay(fixture);
    try {
      const d = new Driven(screen);
      assert.match(d.status, /^\[scroll\] no scrollback in this program's full-screen view/);
      d.key('pageup');
      assert.match(d.status, /no scrollback in this program's full-screen view/);
      // The screen is all there is: the first turn was redrawn away by the program itself.
      assert.is(screen.firstLine, 0);
      assert.not.ok(d.page().some((l) => l.includes('turn1word')));
    } finally {
      screen.dispose();
    }
  });
}

// ---- search, made-up screens ----

s('search wraps around at either end, says so, and visits the cursor line last', () => {
  const d = new Driven(fed('alpha one\r\nbeta\r\nalpha two\r\ngamma\r\ndelta\r\nalpha three'));
  // The cursor starts at the program's cursor: the end of the last line, after a match.
  d.search('alpha');
  assert.equal(d.match(), { line: 5, text: 'alpha three' });
  assert.match(d.status, /\[scroll\]/);
  d.key('n');
  assert.equal(d.match(), { line: 2, text: 'alpha two' });
  d.key('n');
  assert.equal(d.match(), { line: 0, text: 'alpha one' });
  d.key('n');
  assert.equal(d.match(), { line: 5, text: 'alpha three' });
  assert.match(d.status, /search wrapped around to the bottom/);
  d.key('S-n');
  assert.equal(d.match(), { line: 0, text: 'alpha one' });
  assert.match(d.status, /search wrapped around to the top/);
  d.search('nowhere');
  assert.match(d.status, /not found: nowhere/);
});

s('search finds a second match on the cursor line, before and after the cursor', () => {
  const d = new Driven(fed('xx ab ab ab\r\nother'));
  d.key('g');
  d.search('ab');
  // From (0,0) upwards: nothing above, wraps to the last match on the line.
  assert.equal(d.view.highlights.at(-1), { line: 0, start: 9, end: 11 });
  d.key('n');
  assert.equal(d.view.highlights.at(-1), { line: 0, start: 6, end: 8 });
  d.key('S-n');
  assert.equal(d.view.highlights.at(-1), { line: 0, start: 9, end: 11 });
});

s('a program entering its full-screen view while scroll mode is open: back to the live screen, not a stale line number', () => {
  const screen = fed(`${Array.from({ length: 40 }, (_, i) => `n${i}`).join('\r\n')}`);
  const d = new Driven(screen);
  d.key('g');
  assert.is(d.page()[0], 'n0');
  screen.parse('\x1b[?1049h\x1b[Hfull screen text');
  d.key('up');
  assert.is(d.page()[0], 'full screen text');
  assert.match(d.status, /no scrollback in this program's full-screen view/);
  d.search('screen');
  assert.equal(d.match(), { line: 0, text: 'full screen text' });
});

s.run();
