// A model change in a view tab, end to end in baton's TUI (issue 14 item 2), with the fixture
// ACP agent as a drop-in advertising its models as ACP's model config option: the switch
// picker of the view tab in front has "<Agent> (baton view) · other model…" (the new-tab
// picker does not), the model chosen is armed like a PTY tab's ("Continue with … ·
// fixture-large"), and the next message changes the model in the running session
// (session/set_config_option, once; the agent is not relaunched) and then goes to it: the
// reply comes from the new model and remembers the first turn, the view's status line names
// the model, and the transcript has a new segment for the same agent with the new model,
// resume mode, on the same session, each message recorded once.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fixtureDecl } from '../helpers/acp-fixture.js';
import { type BatonTui, pickEntry, pickerEntries, startBatonTui } from '../helpers/baton-tui.js';
import { recordedEntries } from '../helpers/real-tui.js';
import { until } from '../helpers/wait.js';

const s = suite('tui acp view model change');
const VIEW = 'ACP fixture agent (baton view)';
const TURN_MS = 30_000;
let b: BatonTui;
let agentHome: string;

s.before(() => {
  agentHome = mkdtempSync(join(tmpdir(), 'baton-view-model-agent-'));
  const decl = fixtureDecl({ env: { ACP_FIXTURE_MODELS: 'config', ACP_FIXTURE_HOME: agentHome } });
  b = startBatonTui({ cols: 110, rows: 34, plugins: { 'acp-fixture.mjs': `export default (kit) => kit.acpDriver(${JSON.stringify(decl)});\n` } });
});
s.after(async () => {
  await b.cleanup();
  rmSync(agentHome, { recursive: true, force: true });
});

const entries = () => recordedEntries(join(b.home, 'state/baton'));

async function compose(text: string): Promise<void> {
  b.t.press('C-b', 'm');
  await b.t.waitFor(/›/, 10_000, 'the compose bar');
  b.t.type(text);
  await b.t.waitFor((scr) => scr.includes(`› ${text}`), 10_000, 'the draft');
  b.t.press('Enter');
}

s('the view tab: another model from the switch picker changes in the running session, a new segment', async () => {
  await b.t.waitFor(/┌─ New tab /, 30_000, 'the new-tab picker');
  await until(() => pickerEntries(b.t).some((e) => e.startsWith(VIEW)), 'the view listed', 30_000);
  assert.not.ok(
    pickerEntries(b.t).some((e) => e.includes('other model')),
    `the new-tab picker keeps view rows short: ${pickerEntries(b.t).join(' | ')}`,
  );
  await pickEntry(b.t, VIEW);
  await b.t.waitFor('fixture-small · Enter sends', TURN_MS, 'the view ready, its status line naming the model');
  await compose('first turn');
  await b.t.waitFor('echo: first turn [model fixture-small]', TURN_MS);
  await b.t.waitFor('Enter sends', TURN_MS);

  b.t.press('C-b', 'a');
  await pickEntry(b.t, `${VIEW} · other model…`, 30_000);
  await b.t.waitFor(/┌─ Model of ACP fixture agent \(baton view\) /, 10_000, 'the model picker');
  // The list is filled when the driver answers; keys pressed as it is filled can land on the
  // row that was there before (seen: fixture-small taken, nothing armed), so the filled list first.
  await b.t.waitFor(/From ACP fixture agent's answer to ACP session\/new/, 30_000, 'the model list filled');
  await new Promise((r) => setTimeout(r, 300));
  await pickEntry(b.t, 'fixture-large', 30_000);
  await b.t.waitFor(/Continue with ACP fixture agent \(baton view\) · fixture-large/, 10_000, 'the model change armed');

  await compose('second turn');
  await b.t.waitFor('echo: second turn (previous: first turn) [model fixture-large]', TURN_MS, 'the reply from the new model, same session');
  await b.t.waitFor('fixture-large · Enter sends', TURN_MS, 'the status line names the new model');
  const calls = readFileSync(join(agentHome, 'model-calls.log'), 'utf8').trim().split('\n');
  assert.is(calls.length, 1, `told once: ${calls}`);
  assert.match(calls[0]!, /^set_config_option fixture-large /);

  await until(() => entries().filter((e) => e.kind === 'turn_end').length >= 2, 'both turns recorded', TURN_MS);
  const rows = entries() as unknown as Array<Record<string, unknown>>;
  const handoffs = rows.filter((e) => e.kind === 'handoff') as Array<{ to?: { harness: string; model: string }; mode?: string }>;
  const last = handoffs.at(-1);
  assert.is(last?.to?.harness, 'acp-fixture-view');
  assert.is(last?.to?.model, 'fixture-large');
  assert.is(last?.mode, 'resume');
  assert.equal(
    rows.filter((e) => e.kind === 'user_message').map((e) => e.text),
    ['first turn', 'second turn'],
    'each message recorded once',
  );
  const sessions = new Set(rows.filter((e) => e.kind === 'agent_session').map((e) => e.agentSession));
  assert.is(sessions.size, 1, `one session: ${[...sessions]}`);
  // The view's own log: the agent's one session, opened once (never relaunched).
  const viewLog = readFileSync(join(b.home, 'state/baton/acp-views', `${[...sessions][0]}.jsonl`), 'utf8');
  assert.is(viewLog.split('\n').filter((l) => l.includes('"acp":')).length, 1, 'the agent session opened once');
});

s.run();
