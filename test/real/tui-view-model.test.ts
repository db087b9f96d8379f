// real CLIs: gemini, opencode, claude-code-acp
// A model change in a view tab (baton's ACP view) with a real agent against the fake LLM
// (issue 14 item 2): after a first turn, the view tab's switch picker has "<Agent> (baton
// view) · other model…"; the model chosen is armed as for a PTY tab, and the next compose-bar
// message changes the model in the agent's running session (Gemini CLI advertises the older
// ACP `models` field, so session/set_model; opencode the model config option, so
// session/set_config_option, here with a second model of the fake provider in its config;
// claude-code-acp its own list, default / opus / haiku; the agent is not relaunched) and goes to it: the
// request names the new model and carries the first turn, no brief is sent, the view's status
// line names the model, and the transcript has a new segment for the same agent with the new
// model in resume mode on the same session. `npm run test:real -- gemini` runs one agent's part.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bodyContains, type FakeLlm } from '../fake-llm/server.js';
import { pickEntry, pickerEntries } from '../helpers/baton-tui.js';
import type { MultiCliEnv } from '../helpers/multi-cli-env.js';
import { composeTurn, endRealTui, recordedEntries, secondOpencodeModel, selectedClis, startRealBaton, startRealEnv, TUI_TITLE } from '../helpers/real-tui.js';
import type { TestTerminal } from '../helpers/term.js';

const clis = selectedClis(['gemini', 'opencode', 'claude-code-acp'] as const);
const TITLE: Record<(typeof clis)[number], string> = { gemini: TUI_TITLE.gemini, opencode: TUI_TITLE.opencode, 'claude-code-acp': 'Claude Code (ACP adapter)' };
/** The model chosen in the picker, what the agent then names in its requests, and how it is changed. */
const NEXT: Record<(typeof clis)[number], { pick: string; sent: RegExp; via: string }> = {
  gemini: { pick: 'gemini-2.5-pro', sent: /^gemini-2\.5-pro$/, via: 'set_model' },
  opencode: { pick: 'fake/fake-model-2', sent: /^fake-model-2$/, via: 'config' },
  // Its "haiku" is the newest Haiku the SDK knows, which it names in full.
  'claude-code-acp': { pick: 'haiku', sent: /haiku/, via: 'set_model' },
};

const TURN_MS = 180_000;

const s = suite('a model change in a view tab, in the running session');
let fake: FakeLlm | undefined;
let menv: MultiCliEnv | undefined;
let t: TestTerminal | undefined;

s.after.each(async () => {
  await endRealTui([t], menv, fake);
  t = menv = fake = undefined;
});

const entries = () => recordedEntries(join(menv!.dir, 'baton-home'));

/** Sends `text` from the compose bar and waits until the model was asked about it and the turn is recorded as ended. */
const compose = (text: string) => composeTurn(t!, fake!, join(menv!.dir, 'baton-home'), text, TURN_MS);

for (const cli of clis) {
  const view = `${TITLE[cli]} (baton view)`;
  s(`${cli}: another model from the view tab's switch picker, changed in the running session`, async () => {
    ({ fake, menv } = await startRealEnv([cli]));
    if (cli === 'opencode') secondOpencodeModel(menv.env);
    t = startRealBaton(menv, { cols: 140, rows: 40 });
    await pickEntry(t, view, 90_000);
    await t.waitFor('Enter sends', TURN_MS, `${view} ready`);

    const first = `first turn VIEW-MODEL-ONE-${cli}`;
    await compose(first);
    const firstModels = fake.requestsContaining(first).map((r) => r.model);
    assert.not.ok(
      firstModels.some((m) => NEXT[cli].sent.test(m)),
      `the first turn ran another model: ${firstModels}`,
    );
    await t.waitFor('Enter sends', TURN_MS, 'the view idle after the first turn');

    t.press('C-b', 'a');
    await pickEntry(t, `${view} · other model…`, 60_000);
    await t.waitFor(/┌─ Model of /, 30_000, 'the model picker');
    await pickEntry(t, NEXT[cli].pick, 90_000);
    await t.waitFor(`Continue with ${view} · ${NEXT[cli].pick}`, 10_000, 'the model change armed');
    assert.equal(pickerEntries(t), [], 'no picker left open');

    const second = `on the new model VIEW-MODEL-TWO-${cli}`;
    await compose(second);
    const asked = fake.requestsContaining(second);
    assert.ok(
      asked.length > 0 && asked.every((r) => NEXT[cli].sent.test(r.model)),
      `every request of the second turn names ${NEXT[cli].pick}: ${asked.map((r) => r.model)}`,
    );
    assert.ok(
      asked.some((r) => bodyContains(r, first)),
      'the same session: the first turn is in the request',
    );
    assert.not.ok(
      asked.some((r) => bodyContains(r, 'baton transcript show')),
      'no brief was sent',
    );
    await t.waitFor(`${NEXT[cli].pick} · `, 30_000, "the view's status line names the new model");

    const rows = entries() as unknown as Array<Record<string, unknown>>;
    const handoff = rows.filter((e) => e.kind === 'handoff').at(-1) as { to?: { harness: string; model: string }; mode?: string } | undefined;
    assert.is(handoff?.to?.harness, `${cli}-view`);
    assert.is(handoff?.to?.model, NEXT[cli].pick);
    assert.is(handoff?.mode, 'resume', `resumed its own session: ${JSON.stringify(handoff)}`);
    assert.equal(
      rows.filter((e) => e.kind === 'user_message').map((e) => e.text),
      [first, second],
      'each message recorded once, as typed',
    );
    const sessions = [...new Set(rows.filter((e) => e.kind === 'agent_session').map((e) => e.agentSession as string))];
    assert.is(sessions.length, 1, `one session: ${sessions}`);
    // The view's own log: the agent's session opened once (the agent was never relaunched).
    const viewLog = readFileSync(join(menv.dir, 'baton-home', 'acp-views', `${sessions[0]}.jsonl`), 'utf8');
    assert.is(viewLog.split('\n').filter((l) => l.includes('"acp":')).length, 1, 'the agent session opened once');
    assert.ok(viewLog.includes(`"via":"${NEXT[cli].via}"`), `${cli} advertised ${NEXT[cli].via}: ${viewLog.split('\n').find((l) => l.includes(`"via"`))}`);
  });
}

s.run();
