// real CLIs: claude, codex, gemini, qwen, opencode
// Per CLI, what a user does in one tab and what the transcript must then hold (issue #9's
// matrix): the built baton (dist/src/cli.js) in a real PTY, each real CLI against the fake
// LLM. Launched in a tab; a compose-bar message recorded once and sent to the model once; a
// message typed straight into the CLI recorded as typed; a switch to another agent and back
// each recorded as the message typed (never the brief), the return resuming the CLI's own
// session; a fork of the last reply into a new tab whose first message is recorded in the
// fork only. Each step is a test of its own, and a table of pass/fail per CLI is printed
// at the end. `npm run test:real -- gemini` runs one CLI's part (BATON_TEST_CLIS).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { startFakeLlm, type FakeLlm } from '../fake-llm/server.js';
import { multiCliEnv, type MultiCliEnv } from '../helpers/multi-cli-env.js';
import type { TestTerminal } from '../helpers/term.js';
import { until } from '../helpers/wait.js';
import { endServers, pickEntry } from '../helpers/baton-tui.js';
import { gitInit, pressEscape, recordedEntries, selectedClis, serverLogTail, serverRun, serverSaid, startRealBaton, submitTyped } from '../helpers/real-tui.js';
import { TUI_CLIS, TUI_READY, TUI_TITLE, type TuiCli } from '../helpers/real-tui.js';

type Cli = TuiCli;
/** The agent each CLI's conversation is switched to and back from. */
const PARTNER = (cli: Cli): Cli => (cli === 'claude' ? 'codex' : 'claude');
const clis = selectedClis(TUI_CLIS);
const STEPS = ['launched in a tab', 'compose-bar message once', 'typed message ingested', 'switch out as typed', 'switch back as typed', 'fork'] as const;
type Step = (typeof STEPS)[number];

let fake: FakeLlm;
let menv: MultiCliEnv;
let t: TestTerminal | undefined;
const results = new Map<Cli, Map<Step, 'pass' | 'FAIL'>>();

const home = (cli: Cli) => join(menv.dir, `baton-home-${cli}`);
const serverDir = (cli: Cli) => join(menv.dir, `server-${cli}`);
type Row = ReturnType<typeof recordedEntries>[number] & { mode?: string; to?: { harness: string } };
const convDirs = (cli: Cli) => [...new Set(recordedEntries(home(cli)).map((e) => e.conversation))];
const entries = (cli: Cli, id: string): Row[] => recordedEntries(home(cli)).filter((e) => e.conversation === id);
const said = (cli: Cli, id: string) =>
  entries(cli, id)
    .filter((e) => e.kind === 'user_message')
    .map((e) => e.text ?? '');
/**
 * Model requests that answered `marker` as the end of the latest user message (one per turn
 * on it): the fake echoes a long prompt (a brief with the message after it) by its ends.
 */
const answered = (marker: string) =>
  fake.requests().filter((r) => r.reply?.kind === 'text' && r.reply.text.startsWith('FAKE-LLM reply. You said: ') && r.reply.text.endsWith(marker)).length;

const startBaton = (cli: Cli): TestTerminal => startRealBaton(menv, { cols: 140, rows: 40, batonHome: home(cli), serverDir: serverDir(cli) });

/** Tab n running `cli`, idle, read in the tab bar (a fork's tab is marked ↳#seq). */
const idle = (cli: Cli, n: number) => new RegExp(`${n}:${TUI_TITLE[cli]}(?: ↳#\\d+)? idle(?= |$)`, 'm');

/**
 * Waits for the model to answer `text`, for tab n (running `agent`) to be idle again and for
 * the turn's end to be recorded in conversation `conv` of `cli`'s baton. The last matters for
 * the next step: a CLI writes its log a moment after its screen shows the reply, and until
 * baton has read the turn's end there the tab counts as working, so a switch sent in that
 * moment is refused (the draft kept, "still working").
 */
async function answeredIn(cli: Cli, agent: Cli, n: number, text: string, conv: () => string | undefined): Promise<void> {
  await until(() => answered(text) > 0, `${agent} asking the model about ${text}`, 120_000).catch((err: Error) => {
    throw new Error(`${err.message}; the screen:\n${t!.screenText()}`);
  });
  await t!.waitFor(idle(agent, n), 90_000, `tab ${n}'s ${agent} idle again`);
  const ended = () => {
    const id = conv();
    if (!id) return false;
    const rows = entries(cli, id);
    const at = rows.findIndex((e) => e.kind === 'user_message' && e.text === text);
    return at >= 0 && rows.slice(at).some((e) => e.kind === 'turn_end');
  };
  await until(ended, `the turn on ${text} recorded as ended`, 60_000);
}

/**
 * Sends `text` from the compose bar of `cli`'s tab shown: Enter once the draft shows the text,
 * as a person's Enter comes after it, and returns once the model was asked. When baton refuses
 * because the agent is still working (the draft comes back, "wait for it to finish and
 * retry"), it does what the message asks, once the tab reads idle: said in the test's output,
 * since the tab read idle before the Enter. (CI once saw the draft stay after a switch was
 * armed; its output cut the status line, so the server's messages are now in the failure.)
 */
async function compose(cli: Cli, text: string): Promise<void> {
  t!.press('C-b', 'm');
  await t!.waitFor(/›/, 10_000, 'the compose bar');
  t!.type(text);
  await t!.waitFor((scr) => scr.includes(`› ${text}`), 10_000, 'the draft');
  for (let tries = 1; ; tries++) {
    const before = serverSaid(home(cli)).length;
    const refused = () =>
      serverSaid(home(cli))
        .slice(before)
        .find((m) => /is still working\. Nothing was sent/.test(m));
    t!.press('Enter');
    await until(() => answered(text) > 0 || !!refused(), `the model asked about ${text}, or baton refusing it`, 180_000);
    const refusal = refused();
    if (!refusal || answered(text) > 0) return;
    assert.ok(tries < 3, `sent three times, refused each time: ${refusal}`);
    console.log(`[tui-matrix] ${cli}: baton refused the compose bar's Enter ("${refusal}"); Enter again once the tab reads idle`);
    await t!.waitFor((scr) => /^\s*1:\S[^\n]* idle(?= |$)/m.test(scr) && scr.includes(`› ${text}`), 90_000, 'the tab idle, the draft back');
  }
}

/** `text` is recorded as a user message of conversation `id`, exactly once, as typed. */
async function recordedOnce(cli: Cli, id: string, text: string): Promise<void> {
  await until(() => said(cli, id).includes(text), `${text} recorded`, 30_000).catch(() => undefined);
  const msgs = said(cli, id);
  assert.is(msgs.filter((m) => m === text).length, 1, `${text} recorded once, as typed: ${JSON.stringify(msgs)}`);
  assert.not.ok(
    msgs.some((m) => m.includes('[baton handoff brief]')),
    `no brief recorded as a user message: ${JSON.stringify(msgs)}`,
  );
}

/** Switches the shown tab to `to` with the switch picker; the next message carries the switch. */
async function switchTo(to: Cli): Promise<void> {
  t!.press('C-b', 'a');
  await t!.waitFor(new RegExp(`┌─ Continue with [^]*│${TUI_TITLE[to]}  \\d`), 30_000, `the switch picker listing ${TUI_TITLE[to]}`);
  await pickEntry(t!, TUI_TITLE[to]);
  await t!.waitFor(new RegExp(`Continue with ${TUI_TITLE[to]}`), 10_000, 'the switch armed');
}

function step(s: ReturnType<typeof suite>, cli: Cli, name: Step, body: () => Promise<void>): void {
  s(`${cli}: ${name}`, async () => {
    try {
      await body();
      results.get(cli)!.set(name, 'pass');
    } catch (err) {
      results.get(cli)!.set(name, 'FAIL');
      if (err instanceof Error) err.message += `\n${serverLogTail(home(cli))}`;
      throw err;
    }
  });
}

const s = suite('per CLI: a tab, its messages, a switch out and back, a fork');
s.before(async () => {
  fake = await startFakeLlm();
  const names = [...new Set([...clis, ...clis.map(PARTNER)])];
  menv = multiCliEnv({ fakeUrl: fake.url, names });
  gitInit(menv.cwd);
});
s.after(async () => {
  await t?.kill();
  // The tabs run in baton's server: ended by pid with each socket directory.
  if (menv) for (const cli of clis) await endServers(serverRun(serverDir(cli)));
  await menv?.cleanup();
  await fake?.close();
});

for (const cli of clis) {
  const mark = (what: string) => `${what} ${cli.toUpperCase()}-MX`;
  const partner = PARTNER(cli);
  let conv = '';
  results.set(cli, new Map());

  step(s, cli, 'launched in a tab', async () => {
    // The CLI before this one: its baton and the tabs its server runs end here.
    await t?.kill();
    for (const other of clis.slice(0, clis.indexOf(cli))) await endServers(serverRun(serverDir(other)));
    t = startBaton(cli);
    await t.waitFor(new RegExp(`│${TUI_TITLE[cli]}  \\d`), 90_000, `the picker listing ${TUI_TITLE[cli]}`);
    await pickEntry(t, TUI_TITLE[cli]);
    await t.waitFor((scr) => idle(cli, 1).test(scr) && TUI_READY[cli].test(scr), 120_000, `${cli} ready`);
  });

  step(s, cli, 'compose-bar message once', async () => {
    const m = mark('composed');
    await compose(cli, m);
    await answeredIn(cli, cli, 1, m, () => convDirs(cli)[0]);
    [conv] = convDirs(cli);
    await recordedOnce(cli, conv!, m);
    assert.is(answered(m), 1, `${m} reached the model once`);
  });

  step(s, cli, 'typed message ingested', async () => {
    const m = mark('typed');
    await pressEscape(t!);
    // Key by key, as a person types: the CLI must not take it for a paste.
    for (const ch of m) {
      t!.type(ch);
      await new Promise((r) => setTimeout(r, 15));
    }
    await t!.waitFor((scr) => scr.replace(/\s+/g, '').includes(m.replace(/\s+/g, '')), 10_000, 'the typed text in the CLI');
    await new Promise((r) => setTimeout(r, 300));
    await submitTyped(t!, fake, m);
    await answeredIn(cli, cli, 1, m, () => conv);
    await recordedOnce(cli, conv, m);
    assert.is(answered(m), 1, `${m} reached the model once`);
  });

  step(s, cli, 'switch out as typed', async () => {
    const m = mark('after switch');
    await switchTo(partner);
    await compose(cli, m);
    await answeredIn(cli, partner, 1, m, () => conv);
    await recordedOnce(cli, conv, m);
    const handoff = entries(cli, conv)
      .filter((e) => e.kind === 'handoff')
      .at(-1);
    assert.is(handoff?.to?.harness, partner, 'the switch is recorded as a handoff');
  });

  step(s, cli, 'switch back as typed', async () => {
    const m = mark('back again');
    await switchTo(cli);
    await compose(cli, m);
    await answeredIn(cli, cli, 1, m, () => conv);
    await recordedOnce(cli, conv, m);
    const handoff = entries(cli, conv)
      .filter((e) => e.kind === 'handoff')
      .at(-1);
    assert.is(handoff?.to?.harness, cli);
    assert.is(handoff?.mode, 'resume', `${cli} resumed its own session: ${JSON.stringify(handoff)}`);
  });

  step(s, cli, 'fork', async () => {
    const m = mark('in the fork');
    await pressEscape(t!);
    t!.press('C-b', 't');
    await t!.waitFor(/Transcript:/, 10_000, 'the transcript view');
    t!.type('/');
    await t!.waitFor(/Search the transcript/, 10_000);
    t!.type(`You said: ${mark('back again')}\r`);
    await t!.waitForGone(/Search the transcript/, 10_000);
    t!.type('f');
    await t!.waitFor(/Fork at #(\d+)/, 10_000, 'the fork dialog');
    t!.type('t');
    await t!.waitFor((scr) => idle(cli, 2).test(scr) && TUI_READY[cli].test(scr), 120_000, `the fork's ${cli} ready`);
    const fork = convDirs(cli).find((id) => id !== conv)!;
    assert.ok(fork, 'the fork is a conversation of its own');
    await compose(cli, m);
    await answeredIn(cli, cli, 2, m, () => convDirs(cli).find((id) => id !== conv));
    await recordedOnce(cli, fork, m);
    assert.not.ok(said(cli, conv).includes(m), "the fork's message is not in the source");
    assert.ok(said(cli, fork).includes(mark('composed')), 'the fork holds the history before it');
    assert.is(answered(m), 1, `${m} reached the model once`);
  });
}

process.on('exit', () => {
  const w = Math.max(...STEPS.map((x) => x.length));
  const lines = [`\nper CLI (issue #9 matrix):`, `  ${''.padEnd(w)}  ${clis.map((c) => c.padEnd(8)).join(' ')}`];
  for (const st of STEPS) lines.push(`  ${st.padEnd(w)}  ${clis.map((c) => (results.get(c)?.get(st) ?? '-').padEnd(8)).join(' ')}`);
  console.log(lines.join('\n'));
});

s.run();
