// real CLIs: opencode, codex
// OpenCode's own TUI in a baton tab on a local model server, through the real `baton` in a
// real PTY, with a second fake LLM standing in for the server and only opencode and codex on
// PATH (so the registry's "others" rule picks OpenCode for llama3.1). The new-tab picker's
// "Local model…" starts opencode pointed at the server (its provider given in its config
// variable, `--model baton-local/llama3.1`); a message goes there with the model name and
// nothing of it to opencode's configured provider. A switch to Codex CLI and back relaunches
// opencode on the same server in its own session (resumed: the request carries the first
// local turn).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { bodyContains, startFakeLlm, type FakeLlm } from '../fake-llm/server.js';
import type { MultiCliEnv } from '../helpers/multi-cli-env.js';
import type { TestTerminal } from '../helpers/term.js';
import { pickEntry } from '../helpers/baton-tui.js';
import { until } from '../helpers/wait.js';
import { endRealTui, pressEscape, recordedEntries, serverLogTail, startRealBaton, startRealEnv, TUI_READY } from '../helpers/real-tui.js';

let fake: FakeLlm;
let local: FakeLlm;
let menv: MultiCliEnv;
let t: TestTerminal;

const batonHome = () => join(menv.dir, 'baton-home');
const asked = (f: FakeLlm, text: string) => f.requestsContaining(text);

/** Sends `text` from the compose bar and waits for `f` to be asked about it. */
async function compose(f: FakeLlm, text: string, what: string) {
  t.press('C-b', 'm');
  await t.waitFor(/›/, 10_000, 'the compose bar');
  t.type(text);
  await t.waitFor((scr) => scr.includes(`› ${text}`), 10_000, 'the draft');
  t.press('Enter');
  return f
    .waitForRequest((r) => r.kind === 'generate' && bodyContains(r, text), 180_000, what)
    .catch((err: Error) => {
      throw new Error(`${err.message}\n${t.screenText()}\n${serverLogTail(batonHome())}`);
    });
}

const s = suite('tui: OpenCode on a local model');
s.before(async () => {
  ({ fake, menv } = await startRealEnv(['opencode', 'codex'], {}, { pathOnly: true }));
  local = await startFakeLlm();
  t = startRealBaton(menv, { cols: 120, rows: 36 });
});
s.after(async () => {
  await local?.close();
  await endRealTui([t], menv, fake);
});

s("the new-tab picker's Local model… starts opencode on the server; a switch out and back resumes it there", async () => {
  await t.waitFor(/│Local model…/, 90_000, 'the new-tab picker with the local model entry');
  await pickEntry(t, 'Local model…');
  await t.waitFor(/The model to run, as the server names it/, 10_000, 'the model question');
  t.type('llama3.1\r');
  await t.waitFor(/Server for llama3\.1/, 10_000, 'the server question');
  t.type(`${local.url}\r`);
  await t.waitFor(/1:opencode/, 60_000, 'a tab running opencode');
  await t.waitFor(TUI_READY.opencode, 120_000, 'opencode ready');

  const first = await compose(local, 'Local tab MARK-OCT-1', 'the message reached the local server');
  assert.is(first.api, 'openai-chat');
  assert.is(first.model, 'llama3.1');
  assert.is(asked(fake, 'MARK-OCT-1').length, 0, "nothing went to opencode's configured provider");
  await t.waitFor(/1:opencode[^\n]* idle/, 90_000, 'opencode idle again');

  await pressEscape(t);
  t.press('C-b', 'a');
  await t.waitFor(/Continue with[^]*│Codex CLI  \d/, 30_000, 'the switch picker listing Codex CLI');
  await pickEntry(t, 'Codex CLI');
  await t.waitFor(/Continue with Codex CLI/, 10_000, 'the switch armed');
  const cloud = await compose(fake, 'Cloud turn MARK-OCT-2', 'the cloud turn reached the configured provider');
  assert.ok(bodyContains(cloud, 'MARK-OCT-1'), 'the brief carries the local turn');
  assert.is(asked(local, 'MARK-OCT-2').length, 0, 'nothing of it went to the local server');
  await t.waitFor(/1:Codex CLI[^\n]* idle/, 90_000, 'codex idle again');

  await pressEscape(t);
  t.press('C-b', 'a');
  await t.waitFor(/Continue with[^]*│opencode  \d/, 30_000, 'the switch picker listing opencode');
  await pickEntry(t, 'opencode');
  await t.waitFor(/Continue with opencode/, 10_000, 'the switch armed');
  const back = await compose(local, 'Local again MARK-OCT-3', 'the returning message reached the local server');
  assert.is(back.model, 'llama3.1');
  assert.ok(bodyContains(back, 'MARK-OCT-1'), "opencode's own session, resumed");
  assert.ok(bodyContains(back, 'MARK-OCT-2'), 'the delta it missed');
  assert.is(asked(fake, 'MARK-OCT-3').length, 0, 'nothing went to the configured provider');
  await until(
    () => recordedEntries(batonHome()).some((e) => e.kind === 'handoff' && (e as { mode?: string }).mode === 'resume'),
    'the switch back recorded as a resume',
    30_000,
  );
});

s.run();
