// real CLIs: gemini, qwen, claude-code-acp, opencode
// Permission modes in baton's ACP view with real CLIs against the fake LLM (issue 13 item 3):
// the tab starts in plan (`baton acp-view --mode plan`, as the view driver launches it), a
// scripted write is not made (any card that shows is approved, and still nothing is written),
// Shift-Tab leaves plan in the same session, and the same write, approved, is on disk. Gemini
// CLI, Qwen Code and claude-code-acp have plan mode of their own (session/set_mode; the status line says
// "plan"); opencode has none over ACP, so baton emulates it ("plan (emulated)": the plan
// instruction with the message, every change refused). A mode change shows and is recorded as
// a notice only, never as something the agent said. `BATON_TEST_CLIS=qwen` runs one.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readViewLog } from '../../src/plugins/acp-view-log.js';
import { type FakeLlm, startFakeLlm } from '../fake-llm/server.js';
import { builtBaton } from '../helpers/built-baton.js';
import { type CliEnv, cliEnv } from '../helpers/cli-env.js';
import { selectedClis } from '../helpers/real-tui.js';
import { TestTerminal } from '../helpers/term.js';

const VIEW = 'view-1b2c3d4e-5f60-4718-899a-bbccddeeff00';
const TURN_MS = 240_000;
const SHIFT_TAB = '\x1b[Z';
/** How each CLI's plan mode is named in the status line: its own, or baton's. */
const PLAN: Record<string, string> = { gemini: '· plan ·', qwen: '· plan ·', 'claude-code-acp': '· plan ·', opencode: '· plan (emulated) ·' };

for (const cli of selectedClis(['gemini', 'qwen', 'claude-code-acp', 'opencode'] as const)) {
  const s = suite(`acp view modes: ${cli}`);
  let fake: FakeLlm;
  let env: CliEnv;
  let t: TestTerminal;
  const logPath = () => join(env.dir, 'baton', 'acp-views', `${VIEW}.jsonl`);
  const events = () => readViewLog(logPath()).flatMap((l) => (l.ev ? [l.ev] : []));
  const turnsOver = () => events().filter((e) => e.type === 'turn_end').length;

  /** Sends a message and waits for its turn to end, approving every card that shows meanwhile. */
  async function turnApproving(text: string, turns: number): Promise<number> {
    t.type(text);
    await t.waitFor(text.slice(-20), 10_000, 'the message in the input line');
    t.press('Enter');
    let approved = 0;
    await t.waitFor(
      (screen) => {
        if (/ y {2}Allow/.test(screen) && screen.includes('waiting for you')) {
          t.type('y');
          approved++;
        }
        return turnsOver() >= turns && screen.includes('Enter sends');
      },
      TURN_MS,
      `turn ${turns} over`,
    );
    return approved;
  }

  s.before(async () => {
    fake = await startFakeLlm();
    env = cliEnv(cli, { fakeUrl: fake.url });
    t = new TestTerminal([process.execPath, builtBaton(), 'acp-view', '--agent', cli, '--view', VIEW, '--mode', 'plan'], {
      cols: 120,
      rows: 40,
      cwd: env.cwd,
      env: { ...env.env, BATON_HOME: join(env.dir, 'baton') },
    });
  });
  s.after(async () => {
    await t?.kill();
    await env?.cleanup();
    await fake?.close();
  });

  s(`${cli}: in plan a scripted write is not made, even approved`, async () => {
    await t.waitFor('Enter sends', TURN_MS, `${cli} started`);
    assert.match(t.screenText(), PLAN[cli]!);
    await turnApproving(`[[FAKE_WRITE: planned.txt :: from plan]] write it MARK-PLAN`, 1);
    assert.not.ok(existsSync(join(env.cwd, 'planned.txt')), `${cli} in plan wrote the file:\n${t.screenText()}`);
    assert.ok(fake.requestsContaining('MARK-PLAN').length > 0, 'the model was asked');
  });

  s(`${cli}: Shift-Tab leaves plan in the same session; the same write, approved, is made`, async () => {
    t.type(SHIFT_TAB);
    await t.waitFor(
      (screen) => !screen.includes(PLAN[cli]!) && events().some((e) => e.type === 'notice' && e.text === 'mode: default'),
      30_000,
      'the mode back to default',
    );
    await turnApproving(`[[FAKE_WRITE: planned.txt :: after plan]] now write it MARK-EDIT`, 2);
    assert.ok(existsSync(join(env.cwd, 'planned.txt')), `${cli} out of plan did not write the file:\n${t.screenText()}`);
    assert.match(readFileSync(join(env.cwd, 'planned.txt'), 'utf8'), 'after plan');
    const sessions = new Set(readViewLog(logPath()).flatMap((l) => (l.acp ? [l.acp] : [])));
    assert.is(sessions.size, 1, 'one agent session');
    const modes = events().flatMap((e) => (e.type === 'notice' && e.text.startsWith('mode:') ? [e.text] : []));
    assert.equal(modes, [`mode: ${PLAN[cli]!.replace(/^· | ·$/g, '')}`, 'mode: default']);
    // The agent says nothing outside a turn: a mode change is a notice, not agent text (Gemini
    // CLI announces it in band, as a message chunk "[MODE_UPDATE] default").
    let inTurn = false;
    const outside = events().flatMap((e) => {
      if (e.type === 'user_text') inTurn = true;
      if (e.type === 'turn_end') inTurn = false;
      return !inTurn && e.type === 'agent_text' ? [e.text] : [];
    });
    assert.equal(outside, [], 'agent text outside a turn');
    assert.not.match(t.screenText(), 'MODE_UPDATE');
  });

  s.run();
}
