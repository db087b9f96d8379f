// The cost of drawing a pane's frame, in one process, without PTYs: the same emulator
// screens drawn by baton's row writer (what the pane uses) and by the way panes were drawn
// before it (emulator cells copied into blessed's grid, then blessed's diff and SGR), each
// frame changing every row as a flood does. CPU time per frame and bytes per frame, both
// ways, for plain numbers (`seq`), a coloured listing and rows with emoji (the row writer
// writes a row's changed span, as the pane does). The figures are
// ratios of one run; the machine is shared.

import { PassThrough, Writable } from 'node:stream';
import blessed from '../src/tui/blessed.js';
import { paintRow, type BlessedRow } from '../src/tui/cells.js';
import { RowWriter, type RowSignature } from '../src/tui/row-writer.js';
import { terminalCaps } from '../src/tui/terminal-caps.js';
import { createTerminal, type Terminal } from '../src/tui/xterm.js';
import { hyperlinks } from '../src/tui/xterm-cells.js';

const COLS = 100;
const ROWS = 30;
const FRAMES = Number(process.env.BATON_BENCH_FRAMES ?? 600);

/** Screens: each frame adds enough lines that every row changes. */
const WORKLOADS: Record<string, (frame: number) => string> = {
  seq: (f) => Array.from({ length: ROWS }, (_, i) => `${f * ROWS + i}\r\n`).join(''),
  'coloured listing': (f) =>
    Array.from(
      { length: ROWS },
      (_, i) =>
        `\x1b[1;34mdir-${f}-${i}\x1b[0m  \x1b[32mexec.sh\x1b[0m  \x1b[38;2;200;120;40mnotes-${i}.md\x1b[0m  \x1b[3;2mignored\x1b[0m plain text after it\r\n`,
    ).join(''),
  emoji: (f) =>
    Array.from({ length: ROWS }, (_, i) => `${f}:${i} \u{1F468}\u200D\u{1F469}\u200D\u{1F467} done \u2714\uFE0F \u2192 next \u{1F680}\r\n`).join(''),
};

const write = (t: Terminal, d: string) => new Promise<void>((r) => t.write(d, r));

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

async function rowWriterRun(name: string): Promise<{ ms: number; bytes: number }> {
  const term = createTerminal(COLS, ROWS, 0);
  const writer = new RowWriter(terminalCaps({ TERM: 'xterm-256color', COLORTERM: 'truecolor', HOME: '/nonexistent' }));
  const links = hyperlinks(term);
  const cell = term.buffer.active.getNullCell();
  const last: RowSignature[] = [];
  let ms = 0;
  let bytes = 0;
  for (let f = 0; f < FRAMES; f++) {
    await write(term, WORKLOADS[name]!(f));
    const t0 = cpuMs();
    const buf = term.buffer.active;
    let out = '';
    for (let y = 0; y < ROWS; y++) {
      const r = writer.line(buf.getLine(buf.baseY + y), cell, { y: y + 1, x0: 0, width: COLS, toEdge: true }, links, undefined, last[y]);
      out += r.bytes;
      last[y] = r.signature;
    }
    ms += cpuMs() - t0;
    bytes += Buffer.byteLength(out);
  }
  term.dispose();
  return { ms, bytes };
}

async function blessedRun(name: string): Promise<{ ms: number; bytes: number }> {
  const term = createTerminal(COLS, ROWS, 0);
  let bytes = 0;
  const output = new Writable({
    write(chunk: Buffer, _e, done) {
      bytes += chunk.length;
      done();
    },
  }) as Writable & { isTTY: boolean; columns: number; rows: number };
  Object.assign(output, { isTTY: true, columns: COLS, rows: ROWS + 3 });
  const screen = blessed.screen({
    input: new PassThrough() as unknown as NodeJS.ReadStream,
    output: output as unknown as NodeJS.WriteStream,
    terminal: 'xterm-256color',
    fullUnicode: true,
    smartCSR: false,
    warnings: false,
    forceUnicode: true,
  } as blessed.Widgets.IScreenOptions);
  const program = screen.program as unknown as { flush(): void };
  const lines = (screen as unknown as { lines: BlessedRow[] }).lines;
  const cell = term.buffer.active.getNullCell();
  let ms = 0;
  for (let f = 0; f < FRAMES; f++) {
    await write(term, WORKLOADS[name]!(f));
    const t0 = cpuMs();
    const buf = term.buffer.active;
    for (let y = 0; y < ROWS; y++) paintRow(buf.getLine(buf.baseY + y), cell, lines[y + 1]!, 0, COLS);
    screen.draw(1, ROWS);
    program.flush();
    ms += cpuMs() - t0;
  }
  screen.destroy();
  term.dispose();
  return { ms, bytes };
}

console.log(`render: ${FRAMES} frames of ${COLS}x${ROWS}, every row changed each frame; CPU time and bytes per frame`);
for (const name of Object.keys(WORKLOADS)) {
  // Warm both up, then measure.
  await rowWriterRun(name);
  await blessedRun(name);
  const a = await rowWriterRun(name);
  const b = await blessedRun(name);
  const per = (r: { ms: number; bytes: number }) => `${((r.ms / FRAMES) * 1000).toFixed(0)} µs, ${(r.bytes / FRAMES / 1024).toFixed(1)} KB`;
  console.log(`${name.padEnd(17)} row writer ${per(a)}  |  blessed grid + draw (before) ${per(b)}  |  time ratio ${(a.ms / b.ms).toFixed(2)}`);
}
process.exit(0);
