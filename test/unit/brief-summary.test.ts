// The previous agent's summary in a brief (a `summary` entry, asked for with --summary before
// a switch): shown in place of the oldest entries the conversation part leaves out, within
// the budget, deterministic, redacted, and absent when everything is shown whole or there is none.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildBrief, type BriefOptions } from '../../src/transcript/brief.js';
import type { Transcript } from '../../src/transcript/transcript.js';
import { testTranscript } from '../helpers/test-transcript.js';

const opts = (o: Partial<BriefOptions> = {}): BriefOptions => ({
  target: { harness: 'codex', model: 'gpt-5', title: 'Codex' },
  agentTitles: { claude: 'Claude Code' },
  mode: 'fresh',
  maxChars: 6000,
  ...o,
});

/** claude runs `turns` long turns; with `summary`, it then writes one of them all. */
function conversation(turns: number, summary?: string): Transcript {
  const tr = testTranscript();
  tr.startSegment({ harness: 'claude', model: 'opus', switchId: 'a' });
  for (let i = 1; i <= turns; i++) {
    tr.apply({ type: 'user_text', text: `Step ${i}: ${'please look at this part. '.repeat(40)}` });
    tr.apply({ type: 'agent_text', text: `Done with step ${i}. ${'here is what I found. '.repeat(60)}` });
    tr.apply({ type: 'turn_end' });
  }
  if (summary !== undefined) {
    tr.flush();
    tr.summary(summary, 1, tr.lastSeq);
  }
  return tr;
}

const SUMMARY = 'SUMMARY-MARK: the user asked for steps 1 to 8; all are done; step 9 is open.';

const s = suite('brief with a summary');

s('the summary stands in for the oldest entries left out, within the budget', () => {
  const without = buildBrief(conversation(8), opts());
  const withS = buildBrief(conversation(8, SUMMARY), opts());
  assert.ok(without.tail?.omitted, 'the conversation is larger than the budget');
  assert.ok(withS.text!.includes(SUMMARY));
  assert.match(withS.text!, /Summary of #1\.\.#25 by Claude Code \(opus\) \(#26, asked for before the switch\), in place of the older entries left out below:/);
  assert.ok(withS.chars <= 6000, `${withS.chars} chars`);
  assert.equal(withS.summary, { seq: 26, fromSeq: 1, toSeq: 25, allot: SUMMARY.length, abbreviated: false });
  // Its room came from the oldest entries: fewer kept, the newest still kept.
  assert.ok(withS.tail!.items.length <= without.tail!.items.length);
  assert.ok(withS.tail!.omitted!.count >= without.tail!.omitted!.count);
  assert.is(withS.tail!.items.at(-1)!.seq, without.tail!.items.at(-1)!.seq);
  // The summary comes before the conversation part, not as an entry of it.
  assert.ok(withS.text!.indexOf('SUMMARY-MARK') < withS.text!.indexOf('Conversation, oldest first:'));
  assert.not.ok(withS.tail!.items.some((i) => i.seq === 26));
});

s('entries kept but shortened: the summary is used, its room taken from their bodies', () => {
  const without = buildBrief(conversation(2), opts({ maxChars: 3000 }));
  assert.is(without.tail!.omitted, null);
  assert.ok(without.tail!.items.some((i) => i.abbreviated));
  const b = buildBrief(conversation(2, SUMMARY), opts({ maxChars: 3000 }));
  assert.ok(b.summary && b.text!.includes(SUMMARY) && b.chars <= 3000);
});

s('nothing left out: the summary is not used and the brief is the one without it', () => {
  const a = buildBrief(conversation(1), opts({ maxChars: 120_000 }));
  const b = buildBrief(conversation(1, SUMMARY), opts({ maxChars: 120_000 }));
  assert.is(b.summary, undefined);
  assert.not.ok(b.text!.includes('SUMMARY-MARK'));
  // Only the header's range differs: the summary entry is the newest seq, not a shown entry.
  assert.is(a.counts.entries, b.counts.entries);
  assert.is(b.text!.replace(/#1\.\.#\d+/, ''), a.text!.replace(/#1\.\.#\d+/, ''));
});

s('a long summary is abbreviated to its share; the budget holds at every size', () => {
  const long = `SUMMARY-MARK ${'a long summary sentence. '.repeat(400)}`;
  for (const maxChars of [1024, 2000, 4000, 6000, 20000]) {
    const b = buildBrief(conversation(12, long), opts({ maxChars }));
    assert.ok(b.text !== null && b.chars <= maxChars, `${maxChars}: ${b.chars}`);
    if (b.summary) assert.ok(b.summary.abbreviated && b.summary.allot < long.length);
  }
  assert.ok(buildBrief(conversation(12, long), opts({ maxChars: 6000 })).summary, 'used at 6000');
});

s('deterministic: the same transcript gives byte-identical text, in another transcript too', () => {
  const a = buildBrief(conversation(8, SUMMARY), opts());
  const b = buildBrief(conversation(8, SUMMARY), opts());
  assert.is(a.text, b.text);
  assert.is(a.hash, b.hash);
});

s('a credential in the summary is redacted, in the transcript and the brief', () => {
  const key = `sk-ant-api03-${'A1b2C3d4'.repeat(12)}`;
  const tr = conversation(8, `${SUMMARY} The key was ${key}.`);
  const entry = tr.entries.at(-1)!;
  assert.is(entry.kind, 'summary');
  assert.not.ok(JSON.stringify(entry).includes(key));
  const b = buildBrief(tr, opts());
  assert.ok(b.text!.includes('SUMMARY-MARK'));
  assert.not.ok(b.text!.includes(key));
});

s('a summary a reset withdrew is not used', () => {
  const tr = conversation(8, SUMMARY);
  tr.reset(tr.lastSeq - 1);
  const b = buildBrief(tr, opts());
  assert.is(b.summary, undefined);
  assert.not.ok(b.text!.includes('SUMMARY-MARK'));
});

s.run();
