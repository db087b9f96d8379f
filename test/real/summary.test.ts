// real CLIs: claude, codex
// `baton chat --summary` across two real CLIs against the fake LLM: before the switch from
// claude to codex, claude runs one extra turn on its own session answering baton's summary
// prompt; the transcript holds it as a `summary` entry (claude's, not a user message or a
// reply), and codex's first model request carries the summary text in the brief (the budget
// is kept small so that the brief leaves the oldest entries out, where the summary stands in).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SUMMARY_PROMPT } from '../../src/conversation/summary-turn.js';
import { bodyContains } from '../fake-llm/server.js';
import { BatonInEnv } from '../helpers/baton-in-env.js';

const s = suite('baton chat --summary with real CLIs');
const home = new BatonInEnv(s, ['claude', 'codex'], '240');
const plainEnv = home.env;
home.env = () => ({ ...plainEnv(), BATON_BRIEF_MAX_CHARS: '3000' });
const { chat, baton } = home;

const filler = (word: string) => `${word} `.repeat(300);

s('the outgoing agent writes a summary that the next agent gets in its brief', async () => {
  const first = await chat(['--new', '--agent', 'claude', `Remember SUM-FIRST-1180. ${filler('alpha')}`]);
  const id = first.conversation;
  await chat(['--conversation', id, `Second step SUM-SECOND-2291. ${filler('beta')}`]);
  const before = home.fake.requests().length;
  const r = await chat(['--conversation', id, '--agent', 'codex', '--summary', 'Codex, go on: SUM-NEXT-3302.']);
  assert.is(r.agent, 'codex');
  assert.ok(r.handoff, 'a handoff');
  const summaries = r.entries.filter((e) => e.kind === 'summary');
  assert.is(summaries.length, 1, 'one summary entry');
  const summary = summaries[0] as unknown as { text: string; fromSeq: number; toSeq: number; author: { type: string; harness?: string } };
  assert.equal(summary.author.type, 'agent');
  assert.is(summary.author.harness, 'claude');
  assert.is(summary.fromSeq, 1);
  // Not a message of the conversation: the turn's only user message is the user's own.
  assert.equal(
    r.entries.filter((e) => e.kind === 'user_message').map((e) => e.text),
    ['Codex, go on: SUM-NEXT-3302.'],
  );
  // claude's summary turn resumed its own session: its request holds the first turn natively.
  const asked = home.fake
    .requests()
    .slice(before)
    .filter((q) => q.kind === 'generate' && bodyContains(q, SUMMARY_PROMPT.slice(0, 60)));
  assert.ok(asked.length >= 1, 'claude was asked for a summary');
  assert.is(asked[0]!.api, 'anthropic');
  assert.ok(bodyContains(asked[0]!, 'SUM-FIRST-1180'), "claude's own history was resumed");
  // codex's first request carries the summary in the brief, and the new message.
  const next = home.fake
    .requests()
    .slice(before)
    .find((q) => q.kind === 'generate' && bodyContains(q, 'SUM-NEXT-3302'));
  assert.ok(next, 'codex got the message');
  assert.ok(bodyContains(next!, 'asked for before the switch'), 'the brief has the summary section');
  assert.ok(bodyContains(next!, summary.text.slice(0, 80)), "the summary's text is in codex's first request");
  const show = await baton(['transcript', 'show', id]);
  assert.match(show.out, /summary of \[1\]\.\.\[\d+\], asked for before a switch/);
});

s('without --summary nothing is asked and no summary is recorded', async () => {
  const first = await chat(['--new', '--agent', 'claude', 'Remember SUM-NONE-4413.']);
  const before = home.fake.requests().length;
  const r = await chat(['--conversation', first.conversation, '--agent', 'codex', 'Codex: SUM-NONE-5524.']);
  assert.not.ok(r.entries.some((e) => e.kind === 'summary'));
  assert.is(
    home.fake
      .requests()
      .slice(before)
      .filter((q) => bodyContains(q, SUMMARY_PROMPT.slice(0, 60))).length,
    0,
  );
});

s.run();
