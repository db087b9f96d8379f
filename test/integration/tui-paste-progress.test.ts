// A paste the program in a tab reads slowly, end to end in the real TUI (a plain shell running a
// command that reads nothing until the test lets it): the compose rows say it is going in, with
// how much is in, and the notice goes once it is all in; keys typed meanwhile reach the program
// after the whole paste. Before, nothing said so, and the user could not tell baton was still
// typing it in (pty-input.ts, conversation-tabs.ts).
import * as assert from 'uvu/assert';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { plainShellSuite, waitForeground } from '../helpers/baton-tui.js';
import { until } from '../helpers/wait.js';

const s = plainShellSuite('tui paste progress');

s('a paste the program reads slowly is said in the compose rows until it is in; keys typed meanwhile go in after it', async ({ b }) => {
  const gate = join(b.work, 'gate');
  const out = join(b.work, 'out');
  // No echo: what is on the screen is baton's, not the line discipline's copy of the paste.
  b.t.type(`stty -echo; while [ ! -e ${gate} ]; do sleep 0.05; done; cat > ${out}; stty echo; echo CAT-DONE\r`);
  // The shell runs the loop (its `sleep`s hold the terminal): the paste is the loop's, then cat's, input.
  await waitForeground(b, 'sleep');
  const lines = Array.from({ length: 3000 }, (_, i) => `line ${String(i).padStart(5, '0')} ${'x'.repeat(72)}`);
  const text = `${lines.join('\n')}\n`;
  b.t.paste(text);
  await b.t.waitFor(/pasting into the pane: \d+ \/ 247 KB in · keys typed meanwhile go in after it/, 30_000, 'the paste said going in');
  b.t.type('KEYS\r');
  writeFileSync(gate, '');
  await b.t.waitForGone('pasting into the pane', 30_000);
  await until(() => existsSync(out) && statSync(out).size >= text.length + 5, 'the paste and the keys read', 30_000);
  // End of input for cat: the shell is back at its prompt for the next test.
  b.t.press('C-d');
  await b.t.waitFor(/^CAT-DONE/m);
  const got = readFileSync(out, 'utf8');
  assert.ok(got === `${text}KEYS\n`, `the keys after the whole paste: at ${got.indexOf('KEYS')} of ${got.length}`);
});

s.run();
