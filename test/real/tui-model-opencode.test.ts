// real CLIs: opencode, claude
// A model change mid-conversation in an opencode tab (issue 14 item 2), the built baton in a
// real PTY with the real opencode TUI against the fake LLM, its config given a second model of
// the fake provider: after a first turn, the switch picker's "opencode · other model…" row
// opens opencode's model list, the second model chosen is armed as a switch to the same
// agent, and with the next compose-bar message opencode changes model in its running session
// (its own model dialog driven by baton: the same opencode process, never relaunched). The
// request names the new model and carries the first turn, no brief is sent, the transcript
// has a handoff to the new model in resume mode, and opencode's recent-model list (model.json,
// the default a new session starts on) is as it was before the change.
// Coming back to opencode from another agent on another model resumes its session, which
// opencode runs on the session's last model whatever --model says: baton changes it through the
// same dialog once the TUI is up, so the request names the model the transcript records. The
// same when the model change itself is a relaunch (a summary first, asked for with `s`: the
// in-place change is not made then).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cmdlineOf, exeOf } from '../../src/proc/index.js';
import { bodyContains, type FakeLlm } from '../fake-llm/server.js';
import { pickEntry, pickerEntries } from '../helpers/baton-tui.js';
import { type MultiCliEnv, processesWithHome } from '../helpers/multi-cli-env.js';
import { composeTurn, endRealTui, recordedEntries, secondOpencodeModel, startRealBaton, startRealEnv, TUI_READY, TUI_TITLE } from '../helpers/real-tui.js';
import type { TestTerminal } from '../helpers/term.js';

const PICK = 'fake/fake-model-2';
const TURN_MS = 180_000;

const s = suite('a model change mid-conversation in an opencode tab');
let fake: FakeLlm | undefined;
let menv: MultiCliEnv | undefined;
let t: TestTerminal | undefined;

s.after.each(async () => {
  await endRealTui([t], menv, fake);
  t = menv = fake = undefined;
});

/** The pids of the running opencode TUI (its native binary, not an `opencode acp` asked for its models) in this env's home. */
const tuiPids = () => processesWithHome(menv!.home).filter((pid) => exeOf(pid)?.endsWith('/opencode-ai/bin/opencode.exe') && !cmdlineOf(pid)?.includes('acp'));
const modelJson = () => join(menv!.home, '.local/state/opencode/model.json');
const idle = new RegExp(`1:${TUI_TITLE.opencode} idle(?= |$)`, 'm');
const entries = () => recordedEntries(join(menv!.dir, 'baton-home'));

/** Sends `text` from the compose bar and waits until the model was asked about it and the turn is recorded as ended. */
const compose = (text: string) => composeTurn(t!, fake!, join(menv!.dir, 'baton-home'), text, TURN_MS);

s('opencode: another model from the switch picker changes model in the running session, recorded as a new segment', async () => {
  ({ fake, menv } = await startRealEnv(['opencode']));
  secondOpencodeModel(menv.env);
  t = startRealBaton(menv, { cols: 140, rows: 40 });
  await pickEntry(t, TUI_TITLE.opencode, 90_000);
  await t.waitFor((scr) => idle.test(scr) && TUI_READY.opencode.test(scr), 120_000, 'opencode ready');

  const first = 'first turn MODEL-ONE-opencode';
  await compose(first);
  await t.waitFor(idle, 90_000, 'idle after the first turn');
  const firstModels = fake.requestsContaining(first).map((r) => r.model);
  assert.not.ok(firstModels.includes('fake-model-2'), `the first turn ran another model: ${firstModels}`);

  t.press('C-b', 'a');
  await pickEntry(t, `${TUI_TITLE.opencode} · other model…`, 60_000);
  await t.waitFor(new RegExp(`┌─ Model of ${TUI_TITLE.opencode} `), 30_000, 'the model picker');
  await pickEntry(t, PICK, 90_000);
  await t.waitFor(new RegExp(`Continue with ${TUI_TITLE.opencode} · ${PICK}`), 10_000, 'the model change armed');
  assert.equal(pickerEntries(t), [], 'no picker left open');
  const before = tuiPids();
  assert.is(before.length, 1, `one opencode TUI before the change: ${before}`);
  const defaults = readFileSync(modelJson(), 'utf8');

  const second = 'on the new model MODEL-TWO-opencode';
  await compose(second);
  const asked = fake.requestsContaining(second).filter((r) => r.model === 'fake-model-2');
  assert.ok(asked.length > 0, `a request naming fake-model-2: ${fake.requestsContaining(second).map((r) => r.model)}`);
  assert.ok(
    asked.some((r) => bodyContains(r, first)),
    'the same native session: the first turn is in the request',
  );
  assert.not.ok(
    asked.some((r) => bodyContains(r, 'baton transcript show')),
    'no brief was sent',
  );
  assert.equal(tuiPids(), before, 'the same opencode process: not relaunched');
  assert.is(readFileSync(modelJson(), 'utf8'), defaults, "opencode's recent models (a new session's default) are as they were");
  const handoff = entries()
    .filter((e) => e.kind === 'handoff')
    .at(-1) as { to?: { harness: string; model: string }; mode?: string } | undefined;
  assert.is(handoff?.to?.harness, 'opencode');
  assert.is(handoff?.to?.model, PICK);
  assert.is(handoff?.mode, 'resume', `opencode resumed its own session: ${JSON.stringify(handoff)}`);
  const said = entries()
    .filter((e) => e.kind === 'user_message')
    .map((e) => e.text);
  assert.equal(said, [first, second], 'each message recorded once, as typed');
});

s('opencode, then Claude Code, then opencode on another model: its session resumed and moved to that model', async () => {
  ({ fake, menv } = await startRealEnv(['opencode', 'claude']));
  secondOpencodeModel(menv.env);
  t = startRealBaton(menv, { cols: 140, rows: 40 });
  await pickEntry(t, TUI_TITLE.opencode, 90_000);
  await t.waitFor((scr) => idle.test(scr) && TUI_READY.opencode.test(scr), 120_000, 'opencode ready');
  const first = 'first turn BACK-ONE-opencode';
  await compose(first);
  await t.waitFor(idle, 90_000, 'idle after the first turn');

  t.press('C-b', 'a');
  await pickEntry(t, TUI_TITLE.claude, 60_000);
  await t.waitFor(/Continue with Claude Code/, 10_000, 'the switch to Claude Code armed');
  const second = 'on claude BACK-TWO-claude';
  await compose(second);
  await t.waitFor(new RegExp(`1:${TUI_TITLE.claude} idle(?= |$)`, 'm'), 90_000, 'Claude Code idle');

  t.press('C-b', 'a');
  await pickEntry(t, `${TUI_TITLE.opencode} · other model…`, 60_000);
  await t.waitFor(new RegExp(`┌─ Model of ${TUI_TITLE.opencode} `), 30_000, 'the model picker');
  await pickEntry(t, PICK, 90_000);
  await t.waitFor(new RegExp(`Continue with ${TUI_TITLE.opencode} · ${PICK}`), 10_000, 'the switch back armed');
  const third = 'back on opencode BACK-THREE-opencode';
  await compose(third);
  const asked = fake.requestsContaining(third);
  assert.ok(asked.length > 0 && asked.every((r) => r.model === 'fake-model-2'), `every request of the turn names fake-model-2: ${asked.map((r) => r.model)}`);
  assert.ok(
    asked.some((r) => bodyContains(r, first)),
    'its own session resumed: the first turn is in the request',
  );
  const handoff = entries()
    .filter((e) => e.kind === 'handoff')
    .at(-1) as { to?: { harness: string; model: string }; mode?: string } | undefined;
  assert.is(handoff?.to?.model, PICK);
  assert.is(handoff?.mode, 'resume', JSON.stringify(handoff));
  assert.not.match(t.screenText(), /could not be moved/);
});

s('opencode to another model with a summary first: relaunched on its session, then moved to that model in it', async () => {
  ({ fake, menv } = await startRealEnv(['opencode']));
  secondOpencodeModel(menv.env);
  t = startRealBaton(menv, { cols: 140, rows: 40 });
  await pickEntry(t, TUI_TITLE.opencode, 90_000);
  await t.waitFor((scr) => idle.test(scr) && TUI_READY.opencode.test(scr), 120_000, 'opencode ready');
  const first = 'first turn SUM-ONE-opencode';
  await compose(first);
  await t.waitFor(idle, 90_000, 'idle after the first turn');

  t.press('C-b', 'a');
  await t.waitFor(/s \[ \] opencode writes a summary first/, 60_000, 'the switch picker offering the summary key');
  t.type('s');
  await t.waitFor(/s \[x\] opencode writes a summary first/, 10_000, 'the summary asked for');
  await pickEntry(t, `${TUI_TITLE.opencode} · other model…`, 60_000);
  await t.waitFor(new RegExp(`┌─ Model of ${TUI_TITLE.opencode} `), 30_000, 'the model picker');
  await pickEntry(t, PICK, 90_000);
  await t.waitFor(new RegExp(`Continue with ${TUI_TITLE.opencode} · ${PICK}.*summary first`), 10_000, 'the model change armed, a summary first');
  const before = tuiPids();
  const second = 'after the summary SUM-TWO-opencode';
  await compose(second);
  const asked = fake.requestsContaining(second);
  assert.ok(asked.length > 0 && asked.every((r) => r.model === 'fake-model-2'), `every request of the turn names fake-model-2: ${asked.map((r) => r.model)}`);
  assert.ok(
    asked.some((r) => bodyContains(r, first)),
    'its own session resumed: the first turn is in the request',
  );
  assert.not.equal(tuiPids(), before, 'relaunched (the summary turn came first)');
  assert.is(entries().filter((e) => e.kind === 'summary').length, 1, 'the summary recorded');
  const handoff = entries()
    .filter((e) => e.kind === 'handoff')
    .at(-1) as { to?: { harness: string; model: string }; mode?: string } | undefined;
  assert.is(handoff?.to?.model, PICK);
  assert.is(handoff?.mode, 'resume', JSON.stringify(handoff));
});

s.run();
