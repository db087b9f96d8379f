// real CLIs: claude
// A tab's permission mode with Claude Code's own terminal UI (issue 13 item 3): the built
// baton in a real PTY, the real claude against the fake LLM. The mode a tab starts in comes
// from harness-registry.json (`defaults.claude.mode: plan`): claude is launched with
// --permission-mode plan and without its writing tools (its plan mode alone asks to write, and
// a yes writes), its own footer says plan mode, and a scripted write is not made, nor asked.
// C-b M then chooses accept-edits: baton relaunches claude in it, continuing its own session
// (one claude session in the transcript), and the same write is made.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { FakeLlm } from '../fake-llm/server.js';
import { endServers, pickEntry } from '../helpers/baton-tui.js';
import type { MultiCliEnv } from '../helpers/multi-cli-env.js';
import { endRealTui, quitBaton, recordedEntries, serverRun, startRealBaton, startRealEnv } from '../helpers/real-tui.js';
import type { TestTerminal } from '../helpers/term.js';
import { until } from '../helpers/wait.js';

const TURN_MS = 240_000;
let fake: FakeLlm;
let menv: MultiCliEnv;
let t: TestTerminal | undefined;
const home = () => join(menv.dir, 'baton-home');
const turnOver = (marker: string) =>
  until(() => fake.requests().some((r) => r.reply?.kind === 'text' && r.reply.text.includes(marker)), `claude's final answer on ${marker}`, TURN_MS);

async function send(text: string): Promise<void> {
  t!.press('C-b', 'm');
  await t!.waitFor(/›/, 10_000, 'the compose bar');
  t!.type(text);
  t!.press('Enter');
}

const s = suite('tab modes: Claude Code');
s.before(async () => {
  ({ fake, menv } = await startRealEnv(['claude']));
  const config = join(menv.dir, 'config', 'baton');
  mkdirSync(config, { recursive: true });
  writeFileSync(join(config, 'harness-registry.json'), JSON.stringify({ defaults: { claude: { mode: 'plan' } } }));
});
s.after(() => endRealTui([t], menv, fake, () => [menv.dir]));

s('started in plan (the registry default): a scripted write is not made', async () => {
  t = startRealBaton(menv, { cols: 140, rows: 40 });
  await t.waitFor(/│Claude Code {2}\d/, 90_000, 'the picker listing Claude Code');
  await pickEntry(t, 'Claude Code');
  // In a mode other than default claude's footer names the mode where it says "? for shortcuts".
  await t.waitFor(/plan mode on/i, 90_000, 'claude ready, its own footer saying plan mode');
  await send('[[FAKE_WRITE: moded.txt :: from plan]] write it MARK-PLAN');
  // Claude Code's plan mode alone asks "Do you want to create moded.txt?" in its TUI (and a
  // yes writes): baton takes the writing tools away in plan, so it never gets to ask.
  await until(
    () => {
      if (/Do you want to create/.test(t!.screenText())) throw new Error(`claude asked to write in plan mode:\n${t!.screenText()}`);
      return fake.requests().some((r) => r.reply?.kind === 'text' && r.reply.text.includes('MARK-PLAN'));
    },
    "claude's final answer on MARK-PLAN",
    TURN_MS,
  );
  await t.waitFor(/1:Claude Code[^\n]* idle/, 60_000, 'the tab idle');
  assert.not.ok(existsSync(join(menv.cwd, 'moded.txt')), `claude in plan mode wrote the file:\n${t.screenText()}`);
});

s('C-b M, accept-edits: claude relaunched in it, its session continued; the same write is made', async () => {
  t!.press('C-b', 'M');
  await t!.waitFor('Permission mode', 10_000, 'the mode dialog');
  assert.match(t!.screenText(), 'started in plan mode');
  t!.type('e');
  await t!.waitFor(/relaunched in accept-edits mode/, 90_000, 'the relaunch');
  await t!.waitFor(/accept edits on/i, 90_000, 'claude ready again, its own footer saying accept edits');
  await send('[[FAKE_WRITE: moded.txt :: after plan]] now write it MARK-EDIT');
  await turnOver('MARK-EDIT');
  await until(() => existsSync(join(menv.cwd, 'moded.txt')), 'the file written', 30_000).catch(() => undefined);
  assert.ok(existsSync(join(menv.cwd, 'moded.txt')), `claude in accept-edits did not write the file:\n${t!.screenText()}`);
  assert.match(readFileSync(join(menv.cwd, 'moded.txt'), 'utf8'), 'after plan');
  const sessions = new Set(recordedEntries(home()).flatMap((e) => (e.kind === 'agent_session' ? [(e as { agentSession?: string }).agentSession] : [])));
  assert.is(sessions.size, 1, `one claude session: ${[...sessions].join(', ')}`);
  await quitBaton(t!);
  t = undefined;
  await endServers(serverRun(menv.dir));
});

s.run();
