// real CLIs: claude, codex
// A new native session started by the user in the pane (issue 9): /clear typed into Claude
// Code's own input box, or /new into Codex's, moves the same process to a new session (a new
// log). The tab follows it, by what the process itself says (Claude Code's sessions/<pid>.json;
// the thread locks codex's process holds), and the conversation goes on in the same
// transcript with a notice, instead of recording nothing from then on (a compose-bar message
// was then handed back as "did not take your message" although the model had answered it).
// Codex first asks where the new conversation runs: read as needing the user, answered in
// the pane. The built baton (dist/src/cli.js) in a real PTY, the real CLIs against the fake
// LLM. `npm run test:real -- codex` runs one CLI's part (BATON_TEST_CLIS).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeLlm } from '../fake-llm/server.js';
import type { MultiCliEnv } from '../helpers/multi-cli-env.js';
import type { TestTerminal } from '../helpers/term.js';
import { until } from '../helpers/wait.js';
import { endServers, pickEntry } from '../helpers/baton-tui.js';
import { endRealTui, pressEscape, selectedClis, serverRun, startRealBaton, startRealEnv } from '../helpers/real-tui.js';

type Cli = 'claude' | 'codex';
const ALL: Cli[] = ['claude', 'codex'];
const TITLE: Record<Cli, string> = { claude: 'Claude Code', codex: 'Codex CLI' };
/** What each is told for a new session, and what its input box shows of it. */
const NEW: Record<Cli, { command: string; typed: RegExp }> = {
  claude: { command: '/clear', typed: /❯\s\/clear/ },
  codex: { command: '/new', typed: /^\s*›\s\/new/m },
};
const clis = selectedClis(ALL);

let fake: FakeLlm;
let menv: MultiCliEnv;
let t: TestTerminal | undefined;
let cli: Cli = 'claude';

const home = (c: Cli) => join(menv.dir, `baton-home-${c}`);
const serverDir = (c: Cli) => join(menv.dir, `server-${c}`);
type Row = { kind?: string; text?: string; agentSession?: string };
function entries(): Row[][] {
  const dir = join(home(cli), 'conversations');
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
const turnsOn = (text: string) =>
  fake.requests().filter((r) => r.reply?.kind === 'text' && r.reply.text.startsWith('FAKE-LLM reply. You said: ') && r.reply.text.endsWith(text));

const idle = () => new RegExp(`1:${TITLE[cli]} idle(?= |$)`, 'm');
const ready = (scr: string) => idle().test(scr) && /\? for shortcuts/.test(scr);

async function send(text: string): Promise<void> {
  t!.press('C-b', 'm');
  await t!.waitFor(/›/, 10_000, 'the compose bar');
  t!.type(text);
  t!.press('Enter');
  await until(() => turnsOn(text).length > 0, `${cli} asking the model about ${text}`, 120_000).catch((err: Error) => {
    throw new Error(`${err.message}; the screen:\n${t!.screenText()}`);
  });
  await t!.waitFor(idle(), 90_000, `${cli} idle again`);
}

const s = suite('a new native session started in the pane');
s.before(async () => {
  ({ fake, menv } = await startRealEnv(clis));
});
s.after(() => endRealTui([t], menv, fake, () => clis.map(serverDir)));

for (const c of clis) {
  s(`${c}: ${NEW[c].command} typed in the pane; the next compose-bar message is recorded in the same conversation, once, after a notice`, async () => {
    await t?.kill();
    cli = c;
    t = startRealBaton(menv, { cols: 140, rows: 40, batonHome: home(c), serverDir: serverDir(c) });
    await t.waitFor(new RegExp(`│${TITLE[c]}  \\d`), 90_000, `the picker listing ${TITLE[c]}`);
    await pickEntry(t, TITLE[c]);
    await t.waitFor(ready, 120_000, `${c} ready`);
    const a = `BEFORE-NEW-${c.toUpperCase()}-${Date.now().toString(36)}`;
    const b = `AFTER-NEW-${c.toUpperCase()}-${Date.now().toString(36)}`;
    await send(a);

    // Typed into the CLI's own input box: Esc leaves the compose bar for the pane.
    await pressEscape(t);
    t.type(NEW[c].command);
    await t.waitFor(NEW[c].typed, 10_000, `${NEW[c].command} in ${c}'s input box`);
    t.press('Enter');
    if (c === 'codex') {
      // Codex asks where the new conversation runs: the tab needs the user; Enter in the pane keeps this worktree.
      await t.waitFor(/Where should the new conversation run\?/, 30_000, 'codex asking where');
      await t.waitFor(/1:Codex CLI needs you/, 10_000, 'the tab needing the user');
      t.press('Enter');
      await t.waitForGone(/Where should the new conversation run\?/, 30_000);
    } else {
      await t.waitForGone(new RegExp(`You said: ${a}`), 30_000);
    }
    await t.waitFor(ready, 60_000, `${c} ready after ${NEW[c].command}`);

    await send(b);
    await until(() => entries().some((rows) => said(rows).includes(b)), `${b} recorded`, 30_000).catch(() => undefined);
    const all = entries();
    assert.is(all.length, 1, 'one conversation');
    const rows = all[0]!;
    assert.equal(said(rows), [a, b], `both messages, once each, in order: ${JSON.stringify(said(rows))}`);
    assert.is(turnsOn(b).length, 1, `the message after ${NEW[c].command} reached the model once`);
    const notice = rows.findIndex((e) => e.kind === 'notice' && /moved to another (session|thread)/.test(e.text ?? ''));
    assert.ok(
      notice > rows.findIndex((e) => e.text === a) && notice < rows.findIndex((e) => e.text === b),
      `a notice of the new session between the two: ${JSON.stringify(rows.map((e) => e.kind))}`,
    );
    const sessions = rows.filter((e) => e.kind === 'agent_session').map((e) => e.agentSession);
    assert.is(new Set(sessions).size, 2, `the new session recorded beside the first: ${JSON.stringify(sessions)}`);
    assert.not.match(t.screenText(), /did not take your message|back in the compose bar/, 'no message handed back');
    await t.kill();
    t = undefined;
    await endServers(serverRun(serverDir(c)));
  });
}

s.run();
