// real CLIs: claude, codex
// The real `baton` TUI with real agent CLIs (claude, codex) against the fake LLM, driven
// through a real PTY and read back from the emulated screen: a message from the compose
// bar reaches claude and its reply shows in the pane; an armed switch is refused while
// claude works, with the draft kept; once claude is idle the same send switches in place
// to codex, whose first model request carries the brief; the transcript view shows the
// divider and the handed-over-context card with its matching-hash mark.
// The tests are steps of one session in one TUI, in order: each starts where the one before
// left it (the switch, then the transcript view of that conversation, then quit).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cmdlineOf } from '../../src/proc/index.js';
import { bodyContains, type FakeLlm } from '../fake-llm/server.js';
import { processesWithHome, type MultiCliEnv } from '../helpers/multi-cli-env.js';
import type { TestTerminal } from '../helpers/term.js';
import { until, within } from '../helpers/wait.js';
import { pickEntry } from '../helpers/baton-tui.js';
import { endRealTui, pressEscape, startRealBaton, startRealEnv } from '../helpers/real-tui.js';

let fake: FakeLlm;
let menv: MultiCliEnv;
let t: TestTerminal;

const s = suite('tui with real agents');
s.before(async () => {
  ({ fake, menv } = await startRealEnv(['claude', 'codex']));
  t = startRealBaton(menv, { cols: 120, rows: 36 });
});
s.after(() => endRealTui([t], menv, fake));

s('a compose-bar message reaches claude; an armed switch is refused while it works; then switches in place to codex with the brief', async () => {
  await t.waitFor(/│Claude Code  \d[^]*│Plain shell/, 90_000, 'the agent picker listing Claude Code and the plain shell');
  await pickEntry(t, 'Claude Code');
  await t.waitFor(/\? for shortcuts/, 90_000, 'claude ready');

  t.press('C-b', 'm');
  t.type('hello MARK-E2E-1');
  t.press('Enter');
  await t.waitFor(/You said: hello MARK-E2E-1/, 90_000, "claude's reply in the pane");
  await t.waitFor(/1:Claude Code[^\n]*idle/, 60_000, 'claude idle again');

  // Keep claude busy: the fake LLM never answers this one.
  t.type('[[FAKE_HANG]] think hard');
  t.press('Enter');
  await t.waitFor(/1:Claude Code[^\n]*working/, 60_000, 'claude working');
  await pressEscape(t);
  t.press('C-b', 'a');
  await t.waitFor(/Continue with[^\n]*\n[^]*│Codex CLI  \d/, 60_000, 'the switch picker');
  await pickEntry(t, 'Codex CLI');
  await t.waitFor(/Continue with Codex CLI/, 10_000, 'the armed switch in the compose bar');
  t.type('switch now MARK-E2E-2');
  t.press('Enter');
  await t.waitFor(/Claude Code is still working\. Nothing was sent/, 30_000, 'the busy refusal');
  await t.waitFor(/› switch now MARK-E2E-2/, 10_000, 'the draft kept');
  assert.is(fake.requestsContaining('MARK-E2E-2').length, 0, 'nothing reached any model');

  // Interrupt claude (Esc in its pane), then send the kept draft again.
  await pressEscape(t);
  await pressEscape(t);
  await t.waitFor(/1:Claude Code[^\n]*idle/, 60_000, 'claude idle after the interrupt');
  t.press('C-b', 'm');
  t.press('Enter');
  await t.waitFor(/1:Codex CLI/, 60_000, 'the tab now runs codex');
  const req = await fake.waitForRequest((r) => r.api === 'openai-responses' && bodyContains(r, 'MARK-E2E-2'), 90_000, "codex's first request");
  assert.ok(bodyContains(req, '[baton handoff brief]'), 'codex got the brief');
  // Nothing private on a command line: no process of the agents' (nor baton's) has the brief
  // or a message in its argv, which /proc/PID/cmdline shows to every user.
  for (const pid of [...processesWithHome(menv.home), t.pid]) {
    const args = cmdlineOf(pid);
    if (!args) continue;
    const argv = args.join('\0');
    assert.not.ok(/baton handoff brief|MARK-E2E-1|MARK-E2E-2/.test(argv), `pid ${pid}'s argv carries the brief or a message: ${argv.slice(0, 200)}`);
  }
  assert.ok(bodyContains(req, 'MARK-E2E-1'), 'with the earlier turn');
  await t.waitFor(/Continued with Codex CLI/, 60_000, 'the outcome, said plainly');
});

s('the transcript view shows the divider; its card is regenerated with a matching hash', async () => {
  await pressEscape(t);
  t.press('C-b', 't');
  await t.waitFor(/Transcript:/, 10_000, 'the transcript view');
  t.type('/');
  await t.waitFor(/Search the transcript/, 10_000);
  t.type('Switched\r');
  // The divider is on screen all along; wait for the search to finish moving the selection.
  await t.waitForGone(/Search the transcript/, 10_000);
  await t.waitFor(/Switched this conversation from Claude Code to Codex CLI/, 10_000, 'the divider');
  t.press('Enter');
  await t.waitFor(/Handed-over context/, 30_000, 'the card');
  const card = t.screenText();
  assert.match(card, /Regenerated from this conversation's transcript; not stored when it was sent\./);
  assert.match(card, /✓ matches what was sent/);
  assert.match(card, /jump to the last message included/);
  t.type('q');
  t.type('q');
  await t.waitForGone(/Transcript:/, 10_000);
});

s('quit asks nothing when no agent works, and ends every process', async () => {
  t.press('C-b', 'q');
  await t.waitFor((scr) => /Quit baton/.test(scr) || !/Codex CLI/.test(scr), 15_000);
  if (/Quit baton/.test(t.screenText())) t.type('y');
  const code = await within(t.exited, 30_000, 'still running');
  assert.is(code, 0, `baton quit cleanly; it wrote last: ${JSON.stringify(t.output.slice(-1500))}`);
  // Every agent process is gone (none runs from the shared scratch HOME any more). The client
  // is told once the server's view has ended its tabs, and a process of a CLI may still be on
  // its way out then (2 runs of 6 found one at that moment): it is given 10 s.
  await until(() => processesWithHome(menv.home).length === 0, 'every agent process ended', 10_000).catch(() => undefined);
  assert.equal(processesWithHome(menv.home), []);
});

s.run();
