// The brief's entry index: what it says hidden is exactly what Transcript.visible() hides
// (resets, undone resets, resets hidden by resets), its counts match a plain count, it keeps
// up as entries are appended, and an array that was rewritten is indexed again.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Hidden, indexOf, isRenderable, lastIndexAtOrBelow } from '../../src/transcript/brief-index.js';
import { Transcript } from '../../src/transcript/transcript.js';
import type { Entry } from '../../src/transcript/types.js';
import { prng, randomTranscript } from '../helpers/brief-transcripts.js';

const t = suite('brief index');

/** Adds resets of every sort: near and far, undone, undoing a reset that is itself hidden. */
function withResets(seed: number): Transcript {
  const tr = randomTranscript(seed, { entries: 150, maxOutput: 100, resets: false });
  const r = prng(seed);
  const resets: number[] = [];
  for (let i = 0; i < 12; i++) {
    tr.apply({ type: 'user_text', text: `after ${i}` });
    tr.flush();
    const x = r();
    if (x < 0.6) resets.push(tr.reset(1 + Math.floor(r() * (tr.lastSeq - 1))).seq);
    else if (resets.length) tr.reset(0, { undoes: resets[Math.floor(r() * resets.length)]! });
  }
  return tr;
}

t('hidden positions are exactly those Transcript.visible() leaves out, for every slice end', () => {
  for (let seed = 1; seed <= 25; seed++) {
    const tr = withResets(seed);
    const entries = tr.entries;
    const index = indexOf(entries);
    for (let hi = 0; hi < entries.length; hi += 7) {
      const slice = entries.slice(0, hi + 1);
      const visible = new Set(new Transcript({ id: 'x', entries: slice }).visible().map((e) => e.seq));
      const hidden = new Hidden(entries, index, 0, hi);
      for (let i = 0; i <= hi; i++) assert.is(hidden.has(i), !visible.has(entries[i]!.seq), `seed ${seed} hi ${hi} i ${i}`);
      const c = hidden.visibleCounts(index, 0, hi);
      const seen = slice.filter((e) => visible.has(e.seq));
      assert.is(c.shown, seen.filter(isRenderable).length);
      assert.is(c.users, seen.filter((e) => e.kind === 'user_message').length);
      assert.is(c.calls, seen.filter((e) => e.kind === 'tool_call').length);
    }
  }
});

t('the index keeps up with appends, and positions of kinds are right', () => {
  const tr = randomTranscript(3, { entries: 50 });
  indexOf(tr.entries);
  tr.apply({ type: 'user_text', text: 'more' });
  tr.apply({ type: 'tool_call', toolCallId: 'z', toolName: 'TodoWrite', input: { todos: [] } });
  tr.startSegment({ harness: 'codex', model: 'gpt-5', switchId: 'z' });
  const index = indexOf(tr.entries);
  const at = (kind: string) => tr.entries.flatMap((e, i) => (e.kind === kind ? [i] : []));
  assert.equal(index.userAt, at('user_message'));
  assert.equal(index.callAt, at('tool_call'));
  assert.equal(index.handoffAt, at('handoff'));
  assert.equal(index.resetAt, at('reset'));
  assert.is(index.lastHandoff(tr.entries.length - 1), tr.entries.length - 1);
  assert.ok(index.planAt.includes(tr.entries.length - 2));
});

t('an array rewritten in place, not appended to, is indexed again', () => {
  const tr = randomTranscript(4, { entries: 30 });
  const entries: Entry[] = [...tr.entries];
  const before = indexOf(entries).userAt.length;
  entries[entries.length - 1] = { ...entries[entries.length - 1]!, kind: 'user_message', text: 'replaced' } as Entry;
  const after = indexOf(entries);
  assert.is(after.userAt.length, entries.filter((e) => e.kind === 'user_message').length);
  assert.ok(after.userAt.length >= before);
  entries.length = 10;
  assert.is(indexOf(entries).userAt.length, entries.filter((e) => e.kind === 'user_message').length);
});

t('lastIndexAtOrBelow finds the slice end by seq, with gaps', () => {
  const entries = [1, 2, 5, 9].map((seq) => ({ seq }) as Entry);
  assert.is(lastIndexAtOrBelow(entries, 0), -1);
  assert.is(lastIndexAtOrBelow(entries, 4), 1);
  assert.is(lastIndexAtOrBelow(entries, 5), 2);
  assert.is(lastIndexAtOrBelow(entries, 100), 3);
});

t.run();
