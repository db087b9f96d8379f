// real CLIs: claude, qwen
// The pickers' "Local model…" entry in the real `baton` TUI, through a real PTY, with a second
// fake LLM standing in for a local model server: a Claude Code tab has a turn (the cloud
// agent, the suite's configured fake); the switch dialog's "Local model…" asks for the model
// and the server, says plainly that nothing answers at a dead address and lets the user try
// again, then arms the switch to the harness the registry's rules choose (qwen3-coder -> Qwen
// Code) pointed at the server; the next message goes there with the model name and the brief
// carrying the cloud turn, and nothing of it to the configured provider. The new-tab picker's
// entry starts a tab on the server the same way.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bodyContains, startFakeLlm, type FakeLlm } from '../fake-llm/server.js';
import type { MultiCliEnv } from '../helpers/multi-cli-env.js';
import type { TestTerminal } from '../helpers/term.js';
import { pickEntry } from '../helpers/baton-tui.js';
import { endRealTui, pressEscape, startRealBaton, startRealEnv } from '../helpers/real-tui.js';

let fake: FakeLlm;
let local: FakeLlm;
let deadUrl: string;
let menv: MultiCliEnv;
let t: TestTerminal;

const s = suite('tui: local model from the pickers');
s.before(async () => {
  ({ fake, menv } = await startRealEnv(['claude', 'qwen']));
  local = await startFakeLlm();
  // An address where nothing answers: a server started and closed again.
  const dead = await startFakeLlm();
  deadUrl = dead.url;
  await dead.close();
  t = startRealBaton(menv, { cols: 120, rows: 36 });
});
s.after(async () => {
  await local?.close();
  await endRealTui([t], menv, fake);
});

s('the switch dialog takes a local model: a dead server is said plainly, then the tab continues with Qwen Code on the server', async () => {
  await t.waitFor(/│Claude Code  \d[^]*│Local model…[^]*│Plain shell/, 90_000, 'the new-tab picker with the local model entry before the plain shell');
  await pickEntry(t, 'Claude Code');
  await t.waitFor(/\? for shortcuts/, 90_000, 'claude ready');
  t.press('C-b', 'm');
  t.type('Cloud turn MARK-LT-1');
  t.press('Enter');
  await fake.waitForRequest((r) => bodyContains(r, 'MARK-LT-1'), 90_000, 'the cloud turn reached the configured provider');
  await t.waitFor(/1:Claude Code[^\n]*idle/, 60_000, 'claude idle again');

  await pressEscape(t);
  t.press('C-b', 'a');
  await t.waitFor(/Continue with[^]*│Local model…/, 60_000, 'the switch picker with the local model entry');
  await pickEntry(t, 'Local model…');
  await t.waitFor(/The model to run, as the server names it/, 10_000, 'the model question');
  t.type('qwen3-coder\r');
  await t.waitFor(/Server for qwen3-coder[^]*Enter alone: http:\/\/127\.0\.0\.1:11434/, 10_000, "the server question, Ollama's address by default");
  t.type(`${deadUrl}\r`);
  await t.waitFor(/No model server answers at http:\/\/127\.0\.0\.1:\d+/, 30_000, 'the dead server said plainly');
  assert.match(t.screenText(), /try again/);
  t.type('r');
  await t.waitFor(/Enter alone: qwen3-coder/, 10_000, 'asked again, the model kept');
  t.press('Enter');
  await t.waitFor(/Server for qwen3-coder/, 10_000);
  t.type(`${local.url}\r`);
  await t.waitFor(/Continue with Qwen Code \(local model qwen3-coder\)/, 30_000, 'the switch armed to Qwen Code on the local server');

  t.type('Local turn MARK-LT-2');
  t.press('Enter');
  const req = await local.waitForRequest((r) => r.kind === 'generate' && bodyContains(r, 'MARK-LT-2'), 120_000, 'the message reached the local server');
  assert.is(req.api, 'openai-chat');
  assert.is(req.model, 'qwen3-coder');
  assert.ok(bodyContains(req, 'MARK-LT-1'), "the brief carries the cloud agent's turn");
  assert.is(fake.requestsContaining('MARK-LT-2').length, 0, 'nothing went to the configured provider');
  await t.waitFor(/1:Qwen Code/, 60_000, 'the tab now runs Qwen Code');
});

s("the new-tab picker's entry starts Qwen Code on the local server", async () => {
  await pressEscape(t);
  t.press('C-b', 'c');
  await t.waitFor(/New tab[^]*│Local model…/, 60_000, 'the new-tab picker');
  await pickEntry(t, 'Local model…');
  await t.waitFor(/The model to run, as the server names it/, 10_000, 'the model question');
  t.type('qwen3-coder\r');
  await t.waitFor(/Server for qwen3-coder/, 10_000);
  t.type(`${local.url}\r`);
  await t.waitFor(/2:Qwen Code/, 60_000, 'a second tab running Qwen Code');
  await t.waitFor(/2:Qwen Code[^\n]*idle/, 90_000, 'qwen ready');
  t.press('C-b', 'm');
  t.type('New tab local MARK-LT-3');
  t.press('Enter');
  const req = await local.waitForRequest((r) => r.kind === 'generate' && bodyContains(r, 'MARK-LT-3'), 120_000, 'the message reached the local server');
  assert.is(req.model, 'qwen3-coder');
  assert.is(fake.requestsContaining('MARK-LT-3').length, 0, 'nothing went to the configured provider');
});

s.run();
