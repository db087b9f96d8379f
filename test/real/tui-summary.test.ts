// real CLIs: claude, codex
// A summary before a switch, asked for in the switch dialog (issue 14 item 4 in a tab): the
// built baton in a real PTY with the real CLIs against the fake LLM. After a first turn with
// Claude Code, the switch picker lists `s` "Claude Code writes a summary first"; pressed, then
// Codex CLI picked, the compose bar reads "Continue with Codex CLI · summary first". The next
// message is not typed into Claude Code: Claude Code gets baton's summary request as its next
// turn in its own pane (the tab says so), its answer is recorded as a `summary` entry (neither
// the request nor the answer as messages), and then Codex CLI's first request carries the
// summary in its brief and the user's message, once. The budget is kept small so that the
// brief leaves the oldest entries out or shortens them, where the summary stands in.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { SUMMARY_PROMPT } from '../../src/conversation/summary-turn.js';
import { bodyContains, type FakeLlm } from '../fake-llm/server.js';
import { pickEntry, pickerEntries } from '../helpers/baton-tui.js';
import type { MultiCliEnv } from '../helpers/multi-cli-env.js';
import { endRealTui, pressEscape, recordedEntries, serverSaid, startRealBaton, startRealEnv, TUI_READY } from '../helpers/real-tui.js';
import type { TestTerminal } from '../helpers/term.js';
import { until } from '../helpers/wait.js';

const s = suite('tui: a summary first, from the switch dialog');
let fake: FakeLlm | undefined;
let menv: MultiCliEnv | undefined;
let t: TestTerminal | undefined;

s.after(async () => {
  await endRealTui([t], menv, fake);
});

const batonHome = () => join(menv!.dir, 'baton-home');
const entries = () => recordedEntries(batonHome());
/** How many times `text` is in the request's body. */
const timesIn = (r: { body?: unknown }, text: string) => JSON.stringify(r.body ?? '').split(text).length - 1;
const REQUEST_HEAD = SUMMARY_PROMPT.slice(0, 60);

/** Writes `text` in the compose bar (its end, `end`, drawn there) and sends it. */
async function compose(text: string, end: string): Promise<void> {
  t!.press('C-b', 'm');
  await t!.waitFor(/›/, 10_000, 'the compose bar');
  t!.type(text);
  await t!.waitFor((scr) => scr.includes(end), 10_000, 'the draft');
  t!.press('Enter');
  await until(() => fake!.requestsContaining(end).length > 0, `the model asked about ${end}`, 180_000).catch((err: Error) => {
    throw new Error(`${err.message}; the screen:\n${t!.screenText()}`);
  });
}

s('s in the switch dialog: Claude Code writes its summary in its pane, then Codex CLI gets it in the brief with the message once', async () => {
  ({ fake, menv } = await startRealEnv(['claude', 'codex']));
  t = startRealBaton(menv, { cols: 140, rows: 40, env: { BATON_BRIEF_MAX_CHARS: '3000' } });
  await pickEntry(t, 'Claude Code', 90_000);
  await t.waitFor((scr) => /1:Claude Code idle/.test(scr) && TUI_READY.claude.test(scr), 120_000, 'claude ready');

  const first = `Remember SUMTUI-FIRST-1180. ${'alpha '.repeat(300)}END-FIRST-1180`;
  await compose(first, 'END-FIRST-1180');
  await until(() => entries().some((e) => e.kind === 'turn_end'), 'the first turn recorded as ended', 120_000);
  await t.waitFor(/1:Claude Code idle/, 90_000, 'idle after the first turn');

  await pressEscape(t);
  t.press('C-b', 'a');
  await t.waitFor(/s \[ \] Claude Code writes a summary first, for the brief/, 60_000, 'the switch picker offering the summary key');
  t.type('s');
  await t.waitFor(/s \[x\] Claude Code writes a summary first, for the brief/, 10_000, 'the summary asked for');
  await pickEntry(t, 'Codex CLI', 60_000);
  await t.waitFor(/Continue with Codex CLI · summary first/, 10_000, 'the switch armed with a summary first');
  assert.equal(pickerEntries(t), [], 'no picker left open');
  assert.not.ok(fake.requestsContaining(REQUEST_HEAD).length, 'nothing is asked before the message is sent');

  const next = 'Codex, go on: SUMTUI-NEXT-3302.';
  await compose(next, 'SUMTUI-NEXT-3302');
  await t.waitFor(/1:Codex CLI/, 60_000, 'the tab runs Codex CLI');

  // Claude Code was asked for the summary, as its next turn on its own session, and never got the message.
  const all = fake.requests().filter((r) => r.kind === 'generate');
  const asked = all.filter((r) => r.api === 'anthropic' && bodyContains(r, REQUEST_HEAD));
  assert.ok(asked.length >= 1, 'Claude Code got the summary request');
  assert.ok(
    asked.some((r) => bodyContains(r, 'SUMTUI-FIRST-1180')),
    'in its own session: the first turn is in the request',
  );
  assert.not.ok(
    all.some((r) => r.api === 'anthropic' && bodyContains(r, 'SUMTUI-NEXT-3302')),
    'the message never went to Claude Code',
  );
  // The summary: one entry, Claude Code's, covering the conversation; the request and answer nothing else.
  await until(() => entries().some((e) => e.kind === 'user_message' && e.text === next), 'the message recorded', 60_000);
  const summaries = entries().filter((e) => e.kind === 'summary') as unknown as { text: string; fromSeq: number; author: { type: string; harness?: string } }[];
  assert.is(summaries.length, 1, 'one summary entry');
  assert.is(summaries[0]!.author.harness, 'claude');
  assert.is(summaries[0]!.fromSeq, 1);
  assert.ok(summaries[0]!.text.length > 0);
  assert.equal(
    entries()
      .filter((e) => e.kind === 'user_message')
      .map((e) => e.text),
    [first, next],
    'each message recorded once; the summary request is none',
  );
  assert.not.ok(
    entries().some((e) => e.kind === 'agent_text' && e.text === summaries[0]!.text),
    'the summary is no reply',
  );
  // Codex CLI's first request: after the summary request, with the summary in the brief and the message once.
  const toCodex = all.find((r) => r.api !== 'anthropic' && bodyContains(r, 'SUMTUI-NEXT-3302'));
  assert.ok(toCodex, 'Codex CLI got the message');
  assert.ok(toCodex!.seq > asked[0]!.seq, 'after the summary was written');
  assert.ok(bodyContains(toCodex!, 'asked for before the switch'), 'the brief has the summary section');
  assert.ok(bodyContains(toCodex!, summaries[0]!.text.slice(0, 80)), "the summary's text is in Codex CLI's first request");
  assert.is(timesIn(toCodex!, 'SUMTUI-NEXT-3302'), 1, 'the message once');
  const answered = () =>
    entries().some(
      (e) => e.kind === 'agent_text' && (e.author as { harness?: string } | undefined)?.harness === 'codex' && e.text?.includes('SUMTUI-NEXT-3302'),
    );
  await until(answered, "Codex CLI's answer recorded", 120_000);
  await t.waitFor((scr) => /1:Codex CLI idle/.test(scr) && scr.includes('SUMTUI-NEXT-3302'), 60_000, 'Codex CLI answered in the tab');
  // What the user was told (the outcome is said once the switch settled, a moment after the message was taken).
  const said = () => serverSaid(batonHome());
  assert.ok(
    said().some((m) => m.startsWith('Asking Claude Code for a summary before the switch to Codex CLI')),
    `the tab said the summary was being written: ${said().join(' | ')}`,
  );
  await until(
    () => said().some((m) => /^Claude Code wrote its summary \(#\d+\)\. Continued with Codex CLI\./.test(m)),
    'the tab said the summary was written and the switch done',
    30_000,
  ).catch((err: Error) => {
    throw new Error(`${err.message}: ${said().join(' | ')}`);
  });
});

s.run();
