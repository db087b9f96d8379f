// The brief's conversation part at small budgets (issue #10, item 1): the newest entry is
// always kept, bodies are shortened before whole entries are dropped, and the budget is
// used. Each case here once failed: a 445-character reply dropped from a 678-character
// brief at 1024, and the newest agent reply of a long conversation dropped while a quarter
// of the budget went unused (the window stopped at the first entry whose floor did not fit).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildBrief, type BriefOptions } from '../../src/transcript/brief.js';
import { testTranscript } from '../helpers/test-transcript.js';

const make = () => testTranscript();
// As `baton brief ID --max-chars N` asks for it: the next agent, a fresh start, the title.
const opts = (o: Partial<BriefOptions> = {}): BriefOptions => ({
  target: { harness: 'next-agent', model: 'default', title: 'the next agent' },
  agentTitles: { claude: 'Claude Code' },
  mode: 'fresh',
  maxChars: 1024,
  ...o,
});

const PROSE =
  'The uploader retries a failed chunk three times with exponential backoff, then gives up and reports the chunk index ' +
  'and the last status code to the caller, which can resume from that chunk later. ';
const prose = (n: number, tag: string) => (tag + ' ' + PROSE.repeat(Math.ceil(n / PROSE.length))).slice(0, n - 4) + ' END';

/** One question and a 445-character answer: the probe of issue #10. */
function oneExchange() {
  const tr = make();
  tr.startSegment({ harness: 'claude', model: 'opus', switchId: 'a' });
  tr.apply({ type: 'user_text', text: 'Explain the retry logic in the uploader.' });
  tr.apply({ type: 'agent_text', text: prose(445, 'REPLY-HEAD') });
  tr.apply({ type: 'turn_end' });
  tr.flush();
  return tr;
}

/** Forty turns of question, a look, a tool call with a long output and a long answer. */
function longConversation(turns = 40) {
  const tr = make();
  tr.startSegment({ harness: 'claude', model: 'opus', switchId: 'a' });
  for (let i = 0; i < turns; i++) {
    tr.apply({ type: 'user_text', text: `Question ${i}: ${prose(180, 'Q')}` });
    tr.apply({ type: 'agent_text', text: `Let me look at step ${i}.`, messageId: `look${i}` });
    tr.apply({ type: 'tool_call', toolCallId: `t${i}`, toolName: 'Bash', input: { command: `npm test -- step${i}` } });
    tr.apply({ type: 'tool_result', toolCallId: `t${i}`, output: prose(2400, 'OUT') });
    tr.apply({ type: 'agent_text', text: prose(900, `ANSWER-${i}`), messageId: `ans${i}` });
    tr.apply({ type: 'turn_end' });
  }
  tr.flush();
  return tr;
}

const t = suite('brief tail at small budgets');

t('at 1024, one question and a 445-character reply: the reply is kept (shortened if it must be) and nothing is omitted', () => {
  const tr = oneExchange();
  const b = buildBrief(tr, opts({ title: 'Explain the retry logic in the uploader.' }));
  const text = b.text!;
  assert.ok(text !== null, `no brief: ${b.reason}`);
  assert.ok(text.length <= 1024);
  assert.not.ok(text.includes('omitted:'), 'no entry omitted');
  assert.ok(text.includes('[#2] ana (user):\nExplain the retry logic in the uploader.'), 'the question, whole');
  const reply = text.indexOf('[#3] Claude Code (opus):\nREPLY-HEAD');
  assert.ok(reply > 0, 'the reply is there, from its first words');
  assert.ok(text.includes('END\n\n', reply) || text.includes('END\n\nThe rest:', reply), 'and its last words');
  assert.equal(
    b.tail!.items.map((i) => i.seq),
    [1, 2, 3],
  );
  assert.is(b.lastIncludedSeq, 3);
  assert.ok(b.chars >= 0.9 * 1024, `the budget is used: ${b.chars} of 1024`);
});

t('a long conversation: the newest agent reply is kept at every budget, and at least 90% of the budget is used', () => {
  const tr = longConversation();
  const newest = tr.lastSeq - 1; // the final answer; the turn end after it is not shown
  assert.is(tr.entries[newest - 1]!.kind, 'agent_text');
  for (const maxChars of [1024, 1100, 1500, 2000, 3000, 5000, 8000, 12_000, 30_000]) {
    const b = buildBrief(tr, opts({ maxChars, title: 'The uploader' }));
    const text = b.text!;
    assert.ok(text !== null && text.length <= maxChars, `${maxChars}: ${b.reason}`);
    const kept = b.tail!.items;
    assert.is(kept[kept.length - 1]!.seq, newest, `${maxChars}: the newest entry is the last one shown`);
    assert.ok(text.includes(`[#${newest}] Claude Code (opus):\nANSWER-39`), `${maxChars}: the final answer, from its first words`);
    assert.ok(b.chars >= 0.9 * maxChars, `${maxChars}: ${b.chars} chars used (${((100 * b.chars) / maxChars).toFixed(1)}%)`);
    // The last instruction is there too, pinned or in the tail.
    assert.ok(text.includes('Question 39:'), `${maxChars}: the last user instruction`);
  }
});

t('at 1024, four entries of 600 to 1500 characters and a tool call are all shown, each shortened: bodies are cut before entries are dropped', () => {
  const tr = make();
  tr.startSegment({ harness: 'claude', model: 'opus', switchId: 'a' });
  tr.apply({ type: 'user_text', text: prose(600, 'ASK') });
  tr.apply({ type: 'agent_text', text: prose(1500, 'PLAN'), messageId: 'm1' });
  tr.apply({ type: 'tool_call', toolCallId: 't', toolName: 'Bash', input: { command: 'npm test' } });
  tr.apply({ type: 'tool_result', toolCallId: 't', output: prose(1200, 'RESULT') });
  tr.apply({ type: 'agent_text', text: prose(1000, 'DONE'), messageId: 'm2' });
  tr.flush();
  const b = buildBrief(tr, opts());
  const text = b.text!;
  assert.ok(text !== null && text.length <= 1024, `${b.reason}`);
  const kept = b.tail!.items;
  assert.equal(
    kept.filter((i) => i.rawLength > 0).map((i) => i.seq),
    [2, 3, 4, 5, 6],
    'every entry with a body is shown',
  );
  assert.ok(
    kept.filter((i) => i.rawLength > 100).every((i) => i.abbreviated),
    'the long ones shortened',
  );
  for (const head of ['ASK', 'PLAN', '{"command":"npm test"}', 'RESU', 'DONE']) assert.ok(text.includes(`:\n${head}`), `${head} shown from its first words`);
  // The newest, the answer, keeps the most: a third of the room.
  const done = kept.find((i) => i.seq === 6)!;
  assert.ok(
    kept.every((i) => i.allot <= done.allot),
    'the newest entry keeps the most',
  );
  assert.ok(b.chars >= 0.9 * 1024, `${b.chars} of 1024`);
});

t('an entry is dropped only when it does not fit even shortened, with every kept body at its floor', () => {
  const tr = longConversation(12);
  for (const maxChars of [1024, 2000, 4000, 9000]) {
    const b = buildBrief(tr, opts({ maxChars }));
    const p = b.tail!;
    assert.ok(p.omitted, `${maxChars}: this transcript does not fit`);
    // At its floor, each kept entry costs floorCost; the oldest one may be kept below it.
    const atFloors = p.items.reduce((s, i) => s + Math.min(i.cost, i.floorCost), 0);
    assert.ok(
      atFloors + p.nextDroppedMinCost! > p.windowBudget,
      `${maxChars}: the newest dropped entry (${p.nextDroppedMinCost} chars shortened) fit beside the kept ones at their floors (${atFloors} of ${p.windowBudget})`,
    );
    assert.ok(
      p.items.slice(1).every((i) => i.allot >= i.floorAllot),
      `${maxChars}: only the oldest kept entry is below its floor`,
    );
  }
});

t.run();
