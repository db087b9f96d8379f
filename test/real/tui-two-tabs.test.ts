// real CLIs: claude, codex, gemini, qwen, opencode
// Two tabs of the same CLI in one git repository, each recording exactly its own turns: the
// built baton (dist/src/cli.js) in a real PTY, each real CLI against the fake LLM. Both tabs
// start fresh a moment apart; then each sends its own marker from the compose bar. Each
// conversation on disk holds its own marker exactly once and never the other's, and each
// marker reached the model once. For claude also: a native fork of a tab and a fresh tab
// started after it keep apart, and so do the tabs baton restores when it starts again.
// `npm run test:real -- claude` runs one CLI's part (BATON_TEST_CLIS).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeLlm } from '../fake-llm/server.js';
import { processesWithHome, type MultiCliEnv } from '../helpers/multi-cli-env.js';
import type { TestTerminal } from '../helpers/term.js';
import { until } from '../helpers/wait.js';
import { endServers, pickEntry } from '../helpers/baton-tui.js';
import { endRealTui, quitBaton, selectedClis, serverRun, startRealBaton, startRealEnv } from '../helpers/real-tui.js';
import { TUI_CLIS, TUI_READY, TUI_TITLE, type TuiCli } from '../helpers/real-tui.js';

type Cli = TuiCli;
const clis = selectedClis(TUI_CLIS);

let fake: FakeLlm;
let menv: MultiCliEnv;
let t: TestTerminal | undefined;

const home = (cli: Cli) => join(menv.dir, `baton-home-${cli}`);
const convDirs = (cli: Cli) => (existsSync(join(home(cli), 'conversations')) ? readdirSync(join(home(cli), 'conversations')) : []);
type Row = { kind?: string; text?: string; seq?: number };
function entries(cli: Cli, id: string): Row[] {
  const file = join(home(cli), 'conversations', id, 'transcript.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Row)
    .filter((e) => e.kind !== undefined && e.seq !== undefined);
}
const said = (cli: Cli, id: string) =>
  entries(cli, id)
    .filter((e) => e.kind === 'user_message')
    .map((e) => e.text ?? '');
/** Every conversation's user messages, by conversation id. */
const allSaid = (cli: Cli) => Object.fromEntries(convDirs(cli).map((id) => [id, said(cli, id)]));
/**
 * Model requests that answered `marker` as the latest user message (one per turn on it). Not
 * any reply that quotes it: at start-up Gemini CLI asks the model in the background to
 * summarise the newest earlier session of the project, which may be the other tab's, its
 * messages and replies quoted in the prompt (and so in the fake's echo, which ends with its
 * own instruction, not with the marker).
 */
const turnsOn = (marker: string) => fake.requests().filter((r) => r.reply?.kind === 'text' && r.reply.text.endsWith(`You said: ${marker}`));
const answered = (marker: string) => turnsOn(marker).length;

/** Each CLI's baton has its own server (its socket under this directory's run/). */
const serverDir = (cli: Cli) => join(menv.dir, `server-${cli}`);

const startBaton = (cli: Cli): TestTerminal => startRealBaton(menv, { cols: 140, rows: 40, batonHome: home(cli), serverDir: serverDir(cli) });

/** Tab n running `cli`, idle, read in the tab bar (a fork's tab is marked ↳#seq). */
const idle = (cli: Cli, n: number) => new RegExp(`${n}:${TUI_TITLE[cli]}(?: ↳#\\d+)? idle(?= |$)`, 'm');

/** Opens a new tab running `cli` from the picker (the first one baton shows, or C-b c) and waits for it to be idle. */
async function openTab(cli: Cli, n: number): Promise<void> {
  // The prefix commands baton from the pane and from the compose bar alike; an Esc would reach the CLI.
  if (n > 1) t!.press('C-b', 'c');
  await t!.waitFor(new RegExp(`│${TUI_TITLE[cli]}  \\d`), 90_000, `the picker listing ${TUI_TITLE[cli]}`);
  await pickEntry(t!, TUI_TITLE[cli]);
  await t!.waitFor((scr) => idle(cli, n).test(scr) && TUI_READY[cli].test(scr), 120_000, `tab ${n}'s ${cli} ready`);
}

/** Sends `text` from tab n's compose bar and waits for the model to answer it and the tab to be idle again. */
async function send(cli: Cli, n: number, text: string): Promise<void> {
  t!.press('C-b', String(n));
  await t!.waitFor(new RegExp(`${n}:${TUI_TITLE[cli]}`), 10_000);
  t!.press('C-b', 'm');
  await t!.waitFor(/›/, 10_000, 'the compose bar');
  t!.type(text);
  t!.press('Enter');
  await until(() => answered(text) > 0, `${cli} asking the model about ${text}`, 120_000).catch((err: Error) => {
    throw new Error(`${err.message}; the screen:\n${t!.screenText()}`);
  });
  await t!.waitFor(idle(cli, n), 90_000, `tab ${n}'s ${cli} idle again`);
}

/**
 * Each marker is in exactly one conversation (the one `where` names), once, and reached the
 * model once. Waits for the expected state a while (ingest lags the screen), then asserts on
 * what is there, so a failure shows every conversation's messages.
 */
async function eachOnce(cli: Cli, where: Record<string, (msgs: string[]) => boolean>): Promise<void> {
  const ok = () =>
    Object.entries(where).every(
      ([m, mine]) =>
        Object.values(allSaid(cli)).filter((msgs) => msgs.includes(m)).length === 1 &&
        Object.values(allSaid(cli)).some((msgs) => mine(msgs) && msgs.filter((x) => x === m).length === 1),
    );
  await until(ok, 'each marker recorded once, in its own conversation', 30_000).catch(() => undefined);
  const state = JSON.stringify(allSaid(cli), null, 1);
  for (const [m, mine] of Object.entries(where)) {
    const holding = Object.entries(allSaid(cli)).filter(([, msgs]) => msgs.some((x) => x.includes(m)));
    assert.is(holding.length, 1, `${m} is recorded in exactly one conversation: ${state}`);
    assert.ok(mine(holding[0]![1]), `${m} is in the conversation it was sent from: ${state}`);
    assert.is(holding[0]![1].filter((x) => x === m).length, 1, `${m} once: ${state}`);
    // (How many times each answering request held the marker tells a resent request from a message typed twice.)
    const seen = turnsOn(m).map((r) => `#${r.seq} ${r.at}: ${JSON.stringify(r.body).split(m).length - 1}x`);
    assert.is(answered(m), 1, `${m} reached the model once: ${seen.join('; ')}`);
  }
}

async function quit(): Promise<void> {
  if (!t) return;
  await quitBaton(t);
  t = undefined;
}

const s = suite('two tabs of the same CLI in one directory');
s.before(async () => {
  ({ fake, menv } = await startRealEnv(clis));
});
s.after(() => endRealTui([t], menv, fake, () => clis.map(serverDir)));

for (const cli of clis) {
  s(`${cli}: two fresh tabs a moment apart; each compose-bar message is recorded in its own conversation only, once`, async () => {
    await t?.kill();
    // An earlier CLI's baton, should its test have failed before it quit.
    for (const other of clis) if (other !== cli) await endServers(serverRun(serverDir(other)));
    t = startBaton(cli);
    await openTab(cli, 1);
    await openTab(cli, 2);
    const a = `TWO-${cli.toUpperCase()}-A-${Date.now().toString(36)}`;
    const b = `TWO-${cli.toUpperCase()}-B-${Date.now().toString(36)}`;
    await send(cli, 1, a);
    await send(cli, 2, b);
    await eachOnce(cli, { [a]: (m) => !m.includes(b), [b]: (m) => !m.includes(a) });
    assert.is(convDirs(cli).length, 2, 'two conversations');
    if (cli !== 'claude') await quit();
  });
  if (cli === 'claude') {
    s('claude: a native fork of tab 1 and a fresh tab opened after it keep apart', async () => {
      assert.ok(t, 'baton still runs from the two-tab test');
      const before = new Set(convDirs('claude'));
      const a = Object.entries(allSaid('claude')).find(([, m]) => m.some((x) => x.startsWith('TWO-CLAUDE-A-')))!;
      // Fork tab 1 at its reply (the last turn: a native fork).
      t!.press('C-b', '1');
      t!.press('C-b', 't');
      await t!.waitFor(/Transcript:/, 10_000, 'the transcript view');
      t!.type('/');
      await t!.waitFor(/Search the transcript/, 10_000);
      t!.type(`You said: ${a[1][0]}\r`);
      await t!.waitForGone(/Search the transcript/, 10_000);
      t!.type('f');
      await t!.waitFor(/Fork at #\d+/, 10_000, 'the fork dialog');
      t!.type('t');
      await t!.waitFor(/Forked at #\d+ \(native\)/, 60_000, 'a native fork');
      await t!.waitForGone(/Transcript:/, 5_000);
      await t!.waitFor(idle('claude', 3), 120_000, "the fork's claude idle");
      await openTab('claude', 4);
      const fork = convDirs('claude').find(
        (id) =>
          !before.has(id) &&
          existsSync(join(home('claude'), 'conversations', id, 'meta.json')) &&
          /forkedFrom/.test(readFileSync(join(home('claude'), 'conversations', id, 'meta.json'), 'utf8')),
      )!;
      assert.ok(fork, "the fork's conversation");
      const c = `FORK-FRESH-C-${Date.now().toString(36)}`;
      const d = `FORK-D-${Date.now().toString(36)}`;
      // The fresh tab first: its session's log is the first new one the fork's tab could see.
      await send('claude', 4, c);
      await send('claude', 3, d);
      await eachOnce('claude', { [c]: (m) => !m.includes(d) && !m.includes(a[1][0]!), [d]: (m) => m.includes(a[1][0]!) });
      assert.ok(said('claude', fork).includes(d), `the fork's own message is in the fork's conversation: ${JSON.stringify(said('claude', fork))}`);
    });

    s('claude: the tabs baton restores when it starts again keep their own sessions', async () => {
      const tabs = convDirs('claude').length;
      await quit();
      t = startBaton('claude');
      await t.waitFor(/Restore tabs/, 60_000, 'the restore offer');
      t.type('y');
      for (let n = 1; n <= tabs; n++) await t.waitFor(idle('claude', n), 120_000, `restored tab ${n} idle`);
      // Each restored claude resumed and showing its prompt before anything is sent to it.
      for (const n of [2, 1]) {
        t.press('C-b', String(n));
        await t.waitFor((scr) => idle('claude', n).test(scr) && TUI_READY.claude.test(scr), 120_000, `restored tab ${n}'s claude ready`);
      }
      const e = `RESTORED-E-${Date.now().toString(36)}`;
      const f = `RESTORED-F-${Date.now().toString(36)}`;
      await send('claude', 2, e);
      await send('claude', 1, f);
      await eachOnce('claude', {
        [e]: (m) => m.some((x) => x.startsWith('TWO-CLAUDE-B-')),
        [f]: (m) => m.some((x) => x.startsWith('TWO-CLAUDE-A-')) && !m.some((x) => x.startsWith('FORK-D-')),
      });
      await quit();
      await until(() => processesWithHome(menv.home).length === 0, 'no agent process left after the quit', 30_000);
    });
  }
}

s.run();
