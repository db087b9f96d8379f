// real CLIs: codex
// Scroll mode in a real codex tab: the built `baton` in a real PTY, codex against the fake
// LLM, several turns typed into its pane until the first has scrolled off. PgUp in scroll
// mode then shows the first turn's text (codex runs inline, so finished turns reach the
// scrollback), and after PgUp has moved the cursor, / still finds a word that is on the
// live screen (the search wraps around), as tmux's copy mode would.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { FakeLlm } from '../fake-llm/server.js';
import type { MultiCliEnv } from '../helpers/multi-cli-env.js';
import type { TestTerminal } from '../helpers/term.js';
import { pickEntry } from '../helpers/baton-tui.js';
import { endRealTui, startRealBaton, startRealEnv, submitTyped } from '../helpers/real-tui.js';

let fake: FakeLlm;
let menv: MultiCliEnv;
let t: TestTerminal;

const TURNS = 4;
const message = (i: number) => `message ${i} turn${i}word ${Array.from({ length: 6 }, (_, k) => `line${i}x${k}`).join(' ')}`;

/** The pane's rows: between the tab bar and the compose bar. */
const pane = (screen: string) => screen.split('\n').slice(1, -2).join('\n');

/** Whether `word` is on the screen drawn as scroll mode's match (inverse video). */
function highlighted(word: string): boolean {
  const b = t.term.buffer.active;
  for (let y = 0; y < t.term.rows; y++) {
    const line = b.getLine(b.viewportY + y)!;
    const x = line.translateToString().indexOf(word);
    if (x >= 0 && line.getCell(x)!.isInverse() && line.getCell(x + word.length - 1)!.isInverse()) return true;
  }
  return false;
}

const s = suite('tui scroll mode with a real agent');
s.before(async () => {
  ({ fake, menv } = await startRealEnv(['codex'], { commit: false }));
  // Small, so turns scroll off soon.
  t = startRealBaton(menv, { cols: 80, rows: 24 });
});
s.after(() => endRealTui([t], menv, fake));

s('after several codex turns, PgUp in scroll mode shows the first turn and / finds a word on the screen', async () => {
  await t.waitFor(/│Codex CLI  \d/, 90_000, 'the agent picker listing Codex CLI');
  await pickEntry(t, 'Codex CLI');
  await t.waitFor(/Ask Codex to do anything/, 90_000, 'codex ready');
  for (let i = 1; i <= TURNS; i++) {
    t.type(message(i));
    await t.waitFor(`› message ${i} turn${i}word`, 30_000, `message ${i} typed into codex's composer`);
    await submitTyped(t, fake, `turn${i}word`);
    await t.waitFor(`You said: message ${i} turn${i}word`, 90_000, `codex's reply ${i}`);
    await t.waitFor(/1:Codex CLI[^\n]*idle/, 60_000, `codex idle after turn ${i}`);
  }
  await t.waitFor((scr) => !pane(scr).includes('turn1word'), 30_000, 'the first turn scrolled off the screen');

  t.press('C-b', '[');
  await t.waitFor('[scroll] bottom', 10_000, 'scroll mode');
  let screen = t.screenText();
  for (let pages = 0; !pane(screen).includes('message 1 turn1word'); pages++) {
    assert.ok(pages < 10, `PgUp reached the first turn; the screen:\n${screen}`);
    const before = pane(screen);
    t.press('PageUp');
    screen = await t.waitFor((scr) => pane(scr) !== before && /\[scroll\] \d+ lines up/.test(scr), 10_000, 'an earlier page');
  }
  assert.match(pane(screen), /You said: message 1 turn1word/);
  t.type('q');
  await t.waitFor((scr) => pane(scr).includes(`message ${TURNS} turn${TURNS}word`) && !/\[scroll/.test(scr), 10_000, 'the live screen again');

  // The reported bug: PgUp first, then / for a word on the live screen.
  t.press('C-b', '[');
  await t.waitFor('[scroll]', 10_000, 'scroll mode');
  const live = pane(t.screenText());
  t.press('PageUp');
  await t.waitFor((scr) => pane(scr) !== live, 10_000, 'scrolled up');
  t.type('/');
  t.type(`turn${TURNS}word`);
  await t.waitFor(new RegExp(`^ /turn${TURNS}word$`, 'm'), 10_000, 'the search prompt');
  t.press('Enter');
  screen = await t.waitFor(/search wrapped around|not found/, 10_000, 'the search');
  assert.not.match(screen, /not found/);
  await t.waitFor(() => highlighted(`turn${TURNS}word`), 10_000, 'the match shown highlighted');
  t.type('q');
  await t.waitForGone(/\[scroll|wrapped around/, 10_000);
});

s.run();
