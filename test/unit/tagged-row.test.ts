// A row of blessed-tagged text as terminal bytes (src/tui/tagged-row.ts), replayed into an
// emulator: the tags' looks as blessed draws them, and where a tag ends, the box's own
// colours again (not the terminal's default), as a blessed box shows it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PassThrough } from 'node:stream';
import blessed from '../../src/tui/blessed.js';
import { taggedRow } from '../../src/tui/tagged-row.js';
import { createTerminal, type IBufferCell } from '../../src/tui/xterm.js';

const s = suite('tagged-row');

function screen(): blessed.Widgets.Screen {
  const output = Object.assign(new PassThrough(), { columns: 40, rows: 5, isTTY: false });
  output.resume();
  return blessed.screen({
    input: new PassThrough() as unknown as NodeJS.ReadStream,
    output: output as unknown as NodeJS.WriteStream,
    terminal: 'xterm-256color',
  });
}

async function cells(bytes: string): Promise<IBufferCell[]> {
  const term = createTerminal(30, 1, 0);
  await new Promise<void>((r) => term.write(bytes + '\x1b[K', r));
  const line = term.buffer.active.getLine(0)!;
  return Array.from({ length: 30 }, (_, x) => line.getCell(x)!);
}

const look = (c: IBufferCell) => ({
  ch: c.getChars(),
  fg: c.isFgDefault() ? 'default' : c.getFgColor(),
  bg: c.isBgDefault() ? 'default' : c.getBgColor(),
  inverse: !!c.isInverse(),
  bold: !!c.isBold(),
});

s('tags drawn as blessed draws them; the box colours before, between, after them and in the erased tail', async () => {
  const scr = screen();
  try {
    const row = taggedRow('{inverse}{bold} 1:a {/bold}{/inverse} 2:b {yellow-fg}{bold}c{/bold}{/yellow-fg}d', { fg: 'white', bg: 'blue' }, scr);
    const c = await cells(row);
    const box = { fg: 7, bg: 4, inverse: false, bold: false };
    assert.equal(look(c[1]!), { ch: '1', fg: 7, bg: 4, inverse: true, bold: true }, 'the active tab: inverse and bold over the box colours');
    // (blessed ends the nested {/bold} by repeating {inverse}, then ends both at {/inverse}: not bold after it, as in the view.)
    assert.equal(look(c[6]!), { ch: '2', ...box }, 'after the tags end: the box colours, not the default ones, and no bold');
    assert.equal(look(c[10]!), { ch: 'c', fg: 3, bg: 4, inverse: false, bold: true });
    assert.equal(look(c[11]!), { ch: 'd', ...box }, 'a colour tag ended: the box foreground again');
    assert.equal(look(c[20]!), { ch: '', fg: 'default', bg: 4, inverse: false, bold: false }, 'the erased tail in the box background');
  } finally {
    scr.destroy();
  }
});

s('{open} and {close} are braces, text without tags is the text in the box colours', async () => {
  const scr = screen();
  try {
    const c = await cells(taggedRow(' a{open}b{close}', { fg: 'white', bg: 'black' }, scr));
    assert.is(
      c
        .slice(0, 5)
        .map((x) => x.getChars())
        .join(''),
      ' a{b}',
    );
    assert.equal(look(c[1]!), { ch: 'a', fg: 7, bg: 0, inverse: false, bold: false });
  } finally {
    scr.destroy();
  }
});

s.run();
