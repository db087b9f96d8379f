// Permission modes in the ACP view's program with the fixture ACP agent (a real process,
// which advertises no modes, so every mode is baton's own, "emulated"): started in plan, the
// status line says "plan (emulated)", the agent hears the plan instruction with the message
// and a write it asks for is refused by baton with no card to answer; Shift-Tab steps the
// same session through default, accept-edits and plan; a write card open when plan begins
// is refused at once (pressing y afterwards writes nothing); back in default the same write,
// allowed, is on disk. Each change is a notice in the view's log, which the transcript takes.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { AcpAgentDecl } from '../../src/plugins/validate.js';
import { PLAN_INSTRUCTION } from '../../src/plugins/plan-mode.js';
import { AcpViewProgram } from '../../src/tui/acp-view-program.js';
import { fixtureDecl } from '../helpers/acp-fixture.js';
import { until } from '../helpers/wait.js';

const SHIFT_TAB = '\x1b[Z';
const s = suite('acp view modes (fixture agent)');
let dir: string;
let logPath: string;
let screen = '';
let program: AcpViewProgram;

type Line = { rec?: { t: string; text?: string; optionId?: string }; ev?: { type: string; text?: string; decision?: string } };
const lines = (): Line[] =>
  readFileSync(logPath, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);
const count = (t: string) => lines().filter((l) => l.rec?.t === t).length;
const notices = () => lines().flatMap((l) => (l.ev?.type === 'notice' ? [l.ev.text] : []));
/** The status line of the last frame drawn. */
const status = () =>
  screen
    .slice(screen.lastIndexOf('─ '))
    .split('\r\n')[0]!
    .replace(/\x1b\[[0-9;]*m/g, '');

async function turn(text: string, turns: number): Promise<void> {
  program.feed(`${text}\r`);
  await until(() => count('turn_end') >= turns, `turn ${turns} over`, 20_000);
}

s.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'baton-view-modes-'));
  logPath = join(dir, 'view.jsonl');
  program = new AcpViewProgram({
    decl: fixtureDecl() as unknown as AcpAgentDecl,
    cwd: dir,
    env: { ...process.env, ACP_FIXTURE_HOME: join(dir, 'agent-home') },
    viewId: 'v-modes',
    logPath,
    mode: 'plan',
    out: { write: (b) => void (screen += b), cols: () => 200, rows: () => 30 },
  });
  await program.start();
});
s.after(async () => {
  await program?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

s('started in plan: "plan (emulated)"; the plan instruction goes with the message; a write is refused without a card', async () => {
  await until(() => status().includes('ACP fixture agent · plan (emulated) · Enter sends'), 'the status line naming the mode');
  assert.equal(notices(), ['mode: plan (emulated)']);
  const file = join(dir, 'planned.txt');
  await turn(`[[write ${file} planned]] plan it`, 1);
  assert.not.ok(existsSync(file), 'plan mode wrote the file');
  assert.equal(program.model.openPermissions(), []);
  const decision = lines().find((l) => l.ev?.type === 'approval')?.ev;
  assert.is(decision?.decision, 'denied');
  const replied = lines()
    .flatMap((l) => (l.ev?.type === 'agent_text' ? [l.ev.text] : []))
    .join('');
  assert.ok(replied.includes(`echo: ${PLAN_INSTRUCTION.slice(0, 40)}`), `the agent heard the plan instruction: ${replied}`);
  assert.equal(
    lines().flatMap((l) => (l.rec?.t === 'user' ? [l.rec.text] : [])),
    [`[[write ${file} planned]] plan it`],
    'the user record holds only what was typed',
  );
  assert.ok(lines().some((l) => l.rec?.t === 'notice' && l.rec.text?.startsWith('plan mode: baton refused it')));
});

s('Shift-Tab steps the same session: plan -> default; a card open when plan begins is refused, y after it writes nothing', async () => {
  program.feed(SHIFT_TAB);
  await until(() => notices().includes('mode: default'), 'the change to default');
  await until(() => status().includes('ACP fixture agent · Enter sends'), 'the status line without a mode (the default goes unsaid)');
  const file = join(dir, 'open-card.txt');
  program.feed(`[[write ${file} held]] write it\r`);
  await until(() => program.model.openPermissions().length === 1, 'the write card');
  program.feed(SHIFT_TAB); // accept-edits: baton lets edits go ahead from now; the open card still waits
  await until(() => notices().includes('mode: accept-edits (emulated)'), 'the change to accept-edits');
  assert.is(program.model.openPermissions().length, 1);
  program.feed(SHIFT_TAB); // plan: the open card is refused
  await until(() => count('turn_end') >= 2, 'turn 2 over', 20_000);
  program.feed('y');
  assert.not.ok(existsSync(file), 'the card open when plan began wrote the file');
  assert.equal(notices().slice(-2), ['mode: accept-edits (emulated)', 'mode: plan (emulated)']);
});

s('leaving plan (live, same session): the same write, allowed, is on disk', async () => {
  program.feed(SHIFT_TAB);
  await until(() => notices().at(-1) === 'mode: default', 'the change to default');
  const file = join(dir, 'planned.txt');
  program.feed(`[[write ${file} written]] now write it\r`);
  await until(() => program.model.openPermissions().length === 1, 'the write card');
  program.feed('y');
  await until(() => count('turn_end') >= 3, 'turn 3 over', 20_000);
  assert.is(readFileSync(file, 'utf8'), 'written');
  const sessions = lines().flatMap((l) => ((l as { acp?: string }).acp ? [(l as { acp?: string }).acp] : []));
  assert.is(new Set(sessions).size, 1, 'one agent session throughout');
});

s('accept-edits where baton emulates it: an edit is allowed without a card', async () => {
  program.feed(SHIFT_TAB);
  await until(() => notices().at(-1) === 'mode: accept-edits (emulated)', 'the change to accept-edits');
  const file = join(dir, 'auto.txt');
  await turn(`[[write ${file} auto]] write`, 4);
  assert.is(readFileSync(file, 'utf8'), 'auto');
});

s.run();
