// real CLIs: claude
// A new native session started by the user in the pane (issue 9): /clear typed into Claude
// Code's own input box moves the same claude process to a new session, with a new log. The
// tab follows it, by what the process itself says (Claude Code's sessions/<pid>.json), and
// the conversation goes on in the same transcript with a notice, instead of recording nothing
// from then on (a compose-bar message was then handed back as "did not take your message"
// although claude had answered it). The built baton (dist/src/cli.js) in a real PTY, the real
// CLI against the fake LLM.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeLlm, type FakeLlm } from '../fake-llm/server.js';
import { multiCliEnv, type MultiCliEnv } from '../helpers/multi-cli-env.js';
import { type TestTerminal, until } from '../helpers/term.js';
import { pickEntry } from '../helpers/baton-tui.js';
import { endRealTui, gitInit, pressEscape, startRealBaton } from '../helpers/real-tui.js';

let fake: FakeLlm;
let menv: MultiCliEnv;
let t: TestTerminal;

const home = () => join(menv.dir, 'baton-home');
type Row = { kind?: string; text?: string; agentSession?: string };
function entries(): Row[][] {
  const dir = join(home(), 'conversations');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((id) => join(dir, id, 'transcript.jsonl'))
    .filter((f) => existsSync(f))
    .map((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Row),
    );
}
const said = (rows: Row[]) => rows.filter((e) => e.kind === 'user_message').map((e) => e.text ?? '');
/** Model turns on `text` as the latest user message (after /clear, claude's caveat about the command comes before it). */
const turnsOn = (text: string) => fake.requests().filter((r) => r.reply?.kind === 'text' && r.reply.text.startsWith('FAKE-LLM reply. You said: ') && r.reply.text.endsWith(text));

const idle = /1:Claude Code idle(?= |$)/m;

async function send(text: string): Promise<void> {
  t.press('C-b', 'm');
  await t.waitFor(/›/, 10_000, 'the compose bar');
  t.type(text);
  t.press('Enter');
  await until(() => turnsOn(text).length > 0, `claude asking the model about ${text}`, 120_000).catch((err: Error) => {
    throw new Error(`${err.message}; the screen:\n${t.screenText()}`);
  });
  await t.waitFor(idle, 90_000, 'claude idle again');
}

const s = suite('a new native session started in the pane');
s.before(async () => {
  fake = await startFakeLlm();
  menv = multiCliEnv({ fakeUrl: fake.url, names: ['claude'] });
  gitInit(menv.cwd);
  t = startRealBaton(menv, { cols: 140, rows: 40, batonHome: home() });
});
s.after(() => endRealTui([t], menv, fake));

s('claude: /clear typed in the pane; the next compose-bar message is recorded in the same conversation, once, after a notice', async () => {
  await t.waitFor(/│Claude Code  \d/, 90_000, 'the picker listing Claude Code');
  pickEntry(t, 'Claude Code');
  await t.waitFor((scr) => idle.test(scr) && /\? for shortcuts/.test(scr), 120_000, 'claude ready');
  const a = `BEFORE-CLEAR-${Date.now().toString(36)}`;
  const b = `AFTER-CLEAR-${Date.now().toString(36)}`;
  await send(a);

  // Typed into claude's own input box: Esc leaves the compose bar for the pane (alone: an Esc
  // followed at once by a key reads as Alt+key).
  await pressEscape(t);
  t.type('/clear');
  await t.waitFor(/❯\s\/clear/, 10_000, '/clear in claude\'s input box');
  t.press('Enter');
  await t.waitForGone(new RegExp(`You said: ${a}`), 30_000);
  await t.waitFor((scr) => idle.test(scr) && /\? for shortcuts/.test(scr), 60_000, 'claude ready after /clear');

  await send(b);
  await until(() => entries().some((rows) => said(rows).includes(b)), `${b} recorded`, 30_000).catch(() => undefined);
  const all = entries();
  assert.is(all.length, 1, 'one conversation');
  const rows = all[0]!;
  assert.equal(said(rows), [a, b], `both messages, once each, in order: ${JSON.stringify(said(rows))}`);
  assert.is(turnsOn(b).length, 1, 'the message after /clear reached the model once');
  const notice = rows.findIndex((e) => e.kind === 'notice' && /moved to another session/.test(e.text ?? ''));
  assert.ok(notice > rows.findIndex((e) => e.text === a) && notice < rows.findIndex((e) => e.text === b), `a notice of the new session between the two: ${JSON.stringify(rows.map((e) => e.kind))}`);
  const sessions = rows.filter((e) => e.kind === 'agent_session').map((e) => e.agentSession);
  assert.is(new Set(sessions).size, 2, `the new session recorded beside the first: ${JSON.stringify(sessions)}`);
  assert.not.match(t.screenText(), /did not take your message|back in the compose bar/, 'no message handed back');
});

s.run();
