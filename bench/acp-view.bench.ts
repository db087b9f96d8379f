// baton's view of an ACP agent: the time from a permission request reaching the view to its
// card being on the tab's emulator screen, in one process, without the agent, the JSON-RPC
// pipe or the PTY: the record applied to the view's model, the frame drawn, the frame parsed
// by the same emulator a tab uses (PaneScreen), the card found on the screen. Each round is a
// whole captured opencode turn (test/fixtures/acp-view/opencode-write-allowed.json) appended
// to one session, so the history grows as a long session's does; between rounds a neighbour
// emulator parses a flood (what another tab costs the same event loop). p50/p95/max over the
// rounds; the machine is shared, so the figures are of one run.

import { readFileSync } from 'node:fs';
import { ViewModel, type ViewRecord } from '../src/tui/acp-view-model.js';
import { ViewScreen } from '../src/tui/acp-view-screen.js';
import { PaneScreen } from '../src/tui/pane-screen.js';

const ROUNDS = Number(process.env.BATON_BENCH_ROUNDS ?? 300);
const COLS = 120;
const ROWS = 40;

const turn = JSON.parse(readFileSync(new URL('../test/fixtures/acp-view/opencode-write-allowed.json', import.meta.url), 'utf8')) as ViewRecord[];
const model = new ViewModel();
const view = new ViewScreen(model);
const screen = new PaneScreen(COLS, ROWS, 10_000);
const neighbour = new PaneScreen(COLS, ROWS, 10_000);
const footer = { title: 'opencode', input: '', queued: 0, state: 'ready' as const };
const flood = Array.from({ length: 2000 }, (_, i) => `${i} lorem ipsum dolor sit amet, consectetur adipiscing elit\r\n`).join('');

const draw = (full = false) => {
  if (!screen.parse(view.frame(COLS, ROWS, footer, full))) throw new Error('the emulator did not parse the frame synchronously');
};
const cardShown = () => {
  for (let y = 0; y < ROWS; y++) if (screen.rowText(y).includes('⚑ Permission needed')) return true;
  return false;
};

draw(true);
const ms: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  neighbour.parse(flood);
  for (const r of turn) {
    if (r.t !== 'permission') {
      model.apply(r);
      draw();
      continue;
    }
    const t0 = process.hrtime.bigint();
    model.apply(r);
    draw();
    if (!cardShown()) throw new Error('the card is not on the screen');
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
}
ms.sort((a, b) => a - b);
const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!.toFixed(3);
console.log(`permission request -> card on the emulator's screen, ${ms.length} rounds (history growing to ${model.blocks.length} blocks):`);
console.log(`  p50 ${at(0.5)} ms   p95 ${at(0.95)} ms   max ${ms[ms.length - 1]!.toFixed(3)} ms   (target: under 16 ms p95)`);
console.log("  plus the view's frame pacing: drawn at once after 16 ms without a frame, else within 16 ms");
screen.dispose();
neighbour.dispose();
