// real CLIs: gemini
// "Needs you" notifications (issue 13 item 4), in the real `baton` TUI with the real Gemini
// CLI against the fake LLM, through real PTYs, with two clients attached to one server: the
// raw bytes each client writes to its terminal are read. When Gemini, in a tab behind a plain
// shell, ends a turn, and when it waits at a shell call's permission prompt, each client's
// stream carries the bell and the desktop notification once, in what its terminal shows (one
// says nothing of itself: OSC 9 and OSC 777; one says it is iTerm2: OSC 9 only), and the tab
// bar marks the tab. A turn that ends with a message queued behind it is not told (baton
// sends that one at once), and the queued message waits for the approval, never typed into it.
// The steps are one session: each test starts from the state the one before left.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeLlm } from '../fake-llm/server.js';
import type { MultiCliEnv } from '../helpers/multi-cli-env.js';
import { TestTerminal } from '../helpers/term.js';
import { builtBaton, pickEntry } from '../helpers/baton-tui.js';
import { endRealTui, pressEscape, realBatonEnv, startRealBaton, startRealEnv } from '../helpers/real-tui.js';

let fake: FakeLlm;
let menv: MultiCliEnv;
/** The client that started the server (its terminal says nothing of itself), and one attached beside it that says it is iTerm2. */
let a: TestTerminal;
let b: TestTerminal;

const notification = (body: string) => `\x1b]9;baton: ${body}\x07`;
const notification777 = (body: string) => `\x1b]777;notify;baton;${body}\x07`;
/** How many times `needle` is in `hay`. */
const count = (hay: string, needle: string) => hay.split(needle).length - 1;

/** What each client wrote from `marks` on. */
const since = (marks: [number, number]) => [a.output.slice(marks[0]), b.output.slice(marks[1])] as const;
const mark = (): [number, number] => [a.output.length, b.output.length];

const s = suite('tui needs-you with gemini');
s.before(async () => {
  ({ fake, menv } = await startRealEnv(['gemini']));
  a = startRealBaton(menv, { cols: 100, rows: 30, env: { TERM_PROGRAM: '', LC_TERMINAL: '', VTE_VERSION: '', SHELL: '/bin/sh', PS1: '$ ' } });
});
s.after(() => endRealTui([a, b], menv, fake));

s('a turn that ends in a tab behind another: both clients ring and notify once, each as its terminal shows it; the tab says done until shown', async () => {
  await a.waitFor(/│Gemini CLI  \d[^]*│Plain shell/, 90_000, 'the agent picker listing Gemini CLI');
  await pickEntry(a, 'Gemini CLI');
  await a.waitFor(/Type your message/, 90_000, 'gemini ready');
  b = new TestTerminal([process.execPath, builtBaton(), 'attach'], {
    cols: 100,
    rows: 30,
    cwd: menv.cwd,
    env: realBatonEnv(menv, { env: { TERM_PROGRAM: 'iTerm.app', LC_TERMINAL: '', VTE_VERSION: '' } }),
  });
  await b.waitFor(/1:Gemini CLI/, 30_000, 'the second client showing the tab');

  a.press('C-b', 'm');
  a.type('[[FAKE_HOLD: turn-1]] first MARK-N1');
  a.press('Enter');
  await a.waitFor(/1:Gemini CLI[^\n]*working/, 30_000, 'the tab working');
  await pressEscape(a);
  a.press('C-b', 'c');
  await pickEntry(a, 'Plain shell');
  await a.waitFor(/^\$$/m, 30_000, 'its prompt');

  const at = mark();
  fake.release('turn-1');
  await a.waitFor(/1:Gemini CLI[^\n]*done/, 60_000, 'the tab behind marked done');
  await b.waitFor(/1:Gemini CLI[^\n]*done/, 10_000, 'marked on the other client too');
  const [outA, outB] = since(at);
  const body = '1:Gemini CLI is done';
  assert.is(
    count(outA, `\x07${notification(body)}${notification777(body)}`),
    1,
    `client a: bell, OSC 9 and OSC 777 once: ${JSON.stringify(outA.slice(0, 400))}`,
  );
  assert.is(count(outB, `\x07${notification(body)}`), 1, 'client b (iTerm2): bell and OSC 9 once');
  assert.is(count(outB, '\x1b]777;'), 0, 'client b: no OSC 777');

  // Shown, the mark goes.
  a.press('C-b', '1');
  await a.waitFor(/1:Gemini CLI[^\n]*idle/, 10_000, 'the tab shown: idle, not done');
});

s('a permission prompt in a tab behind another is told once; the turn before it, ending with that message queued, is not', async () => {
  a.press('C-b', 'm');
  a.type('[[FAKE_HOLD: turn-2]] second MARK-N2');
  a.press('Enter');
  await a.waitFor(/1:Gemini CLI[^\n]*working/, 30_000, 'the tab working');
  a.type('[[FAKE_SHELL: touch needs-you.txt]] third MARK-N3');
  a.press('Enter');
  await a.waitFor(/queued \(1\)/, 10_000, 'the shell message queued behind the turn');
  await pressEscape(a);
  a.press('C-b', '2');
  await a.waitFor(/^\$$/m, 10_000, 'the plain shell in front again');

  const at = mark();
  fake.release('turn-2');
  await a.waitFor(/1:Gemini CLI[^\n]*needs you/, 90_000, 'the tab behind waiting for approval');
  await b.waitFor(/1:Gemini CLI[^\n]*needs you/, 10_000, 'on the other client too');
  const [outA, outB] = since(at);
  const body = '1:Gemini CLI needs you';
  assert.is(count(outA, `\x07${notification(body)}${notification777(body)}`), 1, `client a: told once: ${JSON.stringify(outA.slice(0, 400))}`);
  assert.is(count(outB, `\x07${notification(body)}`), 1, 'client b: told once');
  assert.is(count(outA, 'is done'), 0, 'the turn that ended with a message queued was not told');
  assert.is(count(outA, '\x1b]9;'), 1, 'one notification in all');
  assert.ok(!existsSync(join(menv.cwd, 'needs-you.txt')), 'nothing answered the permission prompt');
});

s.run();
