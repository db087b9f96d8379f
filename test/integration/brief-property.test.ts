// Properties of the brief over many seeded random transcripts (random kinds, bodies from
// empty to 50k-character tool outputs with ANSI codes and credentials, random segments,
// handoffs, cursors and resets; random budgets, modes and slices), checked against a naive
// reading of the same entries through Transcript.visible():
//  - the brief never exceeds its budget, and one is produced whenever the budget is usable;
//  - byte-identical on repeat, from a copy of the entries, and in another process with
//    another time zone and locale;
//  - it always contains the last user instruction when the budget allows it (>= 2000);
//  - it abbreviates before it drops: an entry is dropped only when it did not fit even cut
//    to MIN_BODY with every kept entry at its floor (sum of kept floors + the next entry's
//    cut cost > the window's budget), only the oldest kept entry is ever below its floor,
//    and bodies are cut class by class (a class is cut only when every class cut before it
//    is at its floor);
//  - the newest entry of the range is always shown;
//  - when its material exceeds the budget (the brief with no limit is longer), it uses at
//    least 90% of the budget;
//  - what it shows and what it says it omitted add up to the range, in order;
//  - nothing in it is left to redact and it holds no control characters;
//  - exactly one opening frame line (its first) and one closing frame line (its last): the
//    frame's words a body quotes are unframed.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { clean, EXPANSION_ORDER, isRenderable, MIN_BODY } from '../../src/transcript/brief-render.js';
import { buildBrief, type Brief } from '../../src/transcript/brief.js';
import { BRIEF_BEGIN, BRIEF_END, unframe } from '../../src/transcript/brief-sections.js';
import { redact } from '../../src/transcript/redact.js';
import { Transcript } from '../../src/transcript/transcript.js';
import type { Entry } from '../../src/transcript/types.js';
import { briefCase } from '../helpers/brief-transcripts.js';
import { signalGroup } from '../../src/proc/index.js';

const SEEDS = Array.from({ length: 160 }, (_, i) => i + 1);

/** The conveyed range the naive way: the slice, its visible entries, the delta, renderable ones. */
function naive(entries: readonly Entry[], o: { uptoSeq?: number; sinceSeq?: number; mode: string }): Entry[] {
  const slice = entries.filter((e) => o.uptoSeq === undefined || e.seq <= o.uptoSeq);
  const visible = new Transcript({ id: 'n', entries: slice }).visible();
  return visible.filter((e) => isRenderable(e) && (o.mode !== 'returning' || e.seq > o.sinceSeq!));
}

const p = suite('brief properties');

const cache = new Map<number, { brief: Brief; range: Entry[]; c: ReturnType<typeof briefCase> }>();
const run = (seed: number) => {
  let hit = cache.get(seed);
  if (!hit) {
    const c = briefCase(seed);
    hit = { brief: buildBrief(c.transcript, c.options), range: naive(c.transcript.entries, c.options), c };
    cache.set(seed, hit);
  }
  return hit;
};

p('never over budget; a brief whenever the budget is usable and there is something to carry', () => {
  for (const seed of SEEDS) {
    const { brief, range, c } = run(seed);
    const max = c.options.maxChars;
    if (brief.text !== null) {
      assert.ok(brief.text.length <= max, `seed ${seed}: ${brief.text.length} > ${max}`);
      assert.is(brief.chars, brief.text.length);
    } else if (!range.length) assert.is(brief.reason, 'empty', `seed ${seed}`);
    else assert.ok(max < 1024, `seed ${seed}: no brief at ${max} (${brief.reason})`);
  }
});

p('counts and slice bounds agree with the naive reading', () => {
  for (const seed of SEEDS) {
    const { brief, range, c } = run(seed);
    assert.is(brief.counts.entries, range.length, `seed ${seed}`);
    assert.is(brief.counts.userTurns, range.filter((e) => e.kind === 'user_message').length, `seed ${seed}`);
    assert.is(brief.counts.toolCalls, range.filter((e) => e.kind === 'tool_call').length, `seed ${seed}`);
    const slice = c.transcript.entries.filter((e) => c.options.uptoSeq === undefined || e.seq <= c.options.uptoSeq);
    assert.is(brief.uptoSeq, slice.length ? slice[slice.length - 1]!.seq : 0);
  }
});

p('byte-identical on repeat and from a copy of the entries', () => {
  for (const seed of SEEDS) {
    const { brief, c } = run(seed);
    const again = buildBrief(c.transcript, c.options);
    const copy = buildBrief([...c.transcript.entries], { ...c.options, conversationId: c.transcript.id });
    assert.is(again.text, brief.text, `seed ${seed}`);
    assert.is(copy.text, brief.text, `seed ${seed}`);
  }
});

p('the last user instruction of the range is always in it when the budget allows (>= 2000)', () => {
  let checked = 0;
  for (const seed of SEEDS) {
    const { brief, range, c } = run(seed);
    if (c.options.maxChars < 2000 || brief.text === null) continue;
    const users = range.filter((e) => e.kind === 'user_message');
    const last = users[users.length - 1];
    if (last?.kind !== 'user_message') continue;
    checked++;
    const pinned = brief.tail!.pinned?.seq === last.seq;
    const inTail = brief.tail!.items.some((i) => i.seq === last.seq);
    assert.ok(pinned || inTail, `seed ${seed}: #${last.seq} neither pinned nor in the tail`);
    const marker = pinned ? `Last user instruction (#${last.seq}, ana)` : `[#${last.seq}] ana (user):`;
    const at = brief.text.indexOf(marker);
    assert.ok(at >= 0, `seed ${seed}: ${marker}`);
    const head = unframe(clean(last.text)).slice(0, 8);
    assert.ok(brief.text.startsWith(head, brief.text.indexOf('\n', at) + 1), `seed ${seed}: the instruction's words follow its header`);
  }
  assert.ok(checked > 40, `only ${checked} cases had a user instruction`);
});

p('abbreviates before it drops: no entry dropped while a kept one is above its floor and the dropped one fits cut; classes cut in order', () => {
  let dropped = 0;
  let cutBelowFloor = 0;
  for (const seed of SEEDS) {
    const { brief } = run(seed);
    const t = brief.tail;
    if (!t) continue;
    // At its floor each kept entry costs floorCost; the oldest may be kept cut below it.
    const floors = t.items.reduce((s, i) => s + Math.min(i.cost, i.floorCost), 0);
    assert.ok(floors <= t.windowBudget, `seed ${seed}: kept floors fit`);
    assert.ok(t.items.reduce((s, i) => s + i.cost, 0) <= t.windowBudget, `seed ${seed}: kept costs fit`);
    if (t.nextDroppedMinCost !== null) {
      dropped++;
      assert.ok(
        floors + t.nextDroppedMinCost > t.windowBudget,
        `seed ${seed}: an entry was dropped that fit cut to ${MIN_BODY} beside the kept ones at their floors`,
      );
      assert.ok(t.nextDroppedFloorCost! >= t.nextDroppedMinCost, `seed ${seed}`);
    }
    t.items.forEach((i, k) => {
      assert.ok(i.allot <= i.rawLength, `seed ${seed} #${i.seq}: allot at most full`);
      if (i.allot >= i.floorAllot) return;
      cutBelowFloor++;
      assert.is(k, 0, `seed ${seed} #${i.seq}: only the oldest kept entry is below its floor`);
      assert.ok(i.allot >= Math.min(i.rawLength, MIN_BODY), `seed ${seed} #${i.seq}: cut to no less than ${MIN_BODY}`);
      // It took what was left: no kept entry above its floor beside it.
      for (const j of t.items) if (j !== i) assert.is(j.allot, j.floorAllot, `seed ${seed} #${j.seq} above its floor beside a cut entry`);
    });
    // Classes get room back in EXPANSION_ORDER: one still cut means all later ones are at their floor.
    for (let a = 0; a < EXPANSION_ORDER.length; a++) {
      const cut = t.items.some((i) => i.cls === EXPANSION_ORDER[a] && i.abbreviated);
      if (!cut) continue;
      for (const later of EXPANSION_ORDER.slice(a + 1)) {
        for (const i of t.items.filter((x) => x.cls === later)) {
          assert.ok(i.allot <= i.floorAllot, `seed ${seed}: ${later} #${i.seq} above its floor while ${EXPANSION_ORDER[a]} is cut`);
        }
      }
    }
  }
  assert.ok(dropped > 10, `only ${dropped} cases dropped entries`);
  assert.ok(cutBelowFloor > 10, `only ${cutBelowFloor} cases cut an entry below its floor`);
});

p('the newest entry of the range is always shown, its header in the text', () => {
  for (const seed of SEEDS) {
    const { brief, range } = run(seed);
    if (brief.text === null) continue;
    const newest = range[range.length - 1]!;
    const kept = brief.tail!.items;
    assert.is(kept[kept.length - 1]?.seq, newest.seq, `seed ${seed}: #${newest.seq} is the last entry shown`);
    assert.is(brief.lastIncludedSeq, newest.seq, `seed ${seed}`);
    assert.ok(brief.text.includes(`\n[#${newest.seq}] `), `seed ${seed}: #${newest.seq} in the text`);
  }
});

p('uses at least 90% of the budget when its material exceeds it', () => {
  let checked = 0;
  for (const seed of SEEDS) {
    const { brief, c } = run(seed);
    if (brief.text === null) continue;
    const max = c.options.maxChars;
    const unlimited = buildBrief(c.transcript, { ...c.options, maxChars: 1e9 });
    if (unlimited.chars <= max) continue;
    checked++;
    assert.ok(brief.chars >= 0.9 * max, `seed ${seed}: ${brief.chars} of ${max} chars (${((100 * brief.chars) / max).toFixed(1)}%)`);
  }
  assert.ok(checked > 40, `only ${checked} cases exceeded their budget`);
});

p('kept, pinned and omitted entries add up to the range; kept ones appear in order, the newest last', () => {
  for (const seed of SEEDS) {
    const { brief, range } = run(seed);
    if (brief.text === null) continue;
    const t = brief.tail!;
    const kept = t.items.map((i) => i.seq);
    const expectKept = range.slice(range.length - kept.length).map((e) => e.seq);
    assert.equal(kept, expectKept, `seed ${seed}: the kept entries are the newest ones`);
    const omitted = t.omitted?.count ?? 0;
    assert.is(kept.length + omitted + (t.pinned ? 1 : 0), range.length, `seed ${seed}`);
    if (t.omitted) {
      assert.is(t.omitted.fromSeq, range[0]!.seq);
      assert.is(t.omitted.toSeq, range[range.length - kept.length - 1]!.seq);
      assert.ok(brief.text.includes(`earlier ${omitted === 1 ? 'entry' : 'entries'} omitted: #${t.omitted.fromSeq}..#${t.omitted.toSeq}`), `seed ${seed}`);
    }
    let at = 0;
    for (const s of kept) {
      const i = brief.text.indexOf(`[#${s}]`, at);
      assert.ok(i >= at, `seed ${seed}: #${s} in order`);
      at = i;
    }
  }
});

p('nothing left to redact, no control characters', () => {
  for (const seed of SEEDS) {
    const { brief } = run(seed);
    if (brief.text === null) continue;
    assert.is(redact(brief.text), brief.text, `seed ${seed}`);
    assert.not.ok(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(brief.text), `seed ${seed}`);
    assert.not.ok(brief.text.includes('ghp_xxxxxxxx'), `seed ${seed}`);
  }
});

p('one opening frame line, its first, and one closing frame line, its last: quoted frame lines are unframed', () => {
  let quoted = 0;
  for (const seed of SEEDS) {
    const { brief } = run(seed);
    if (brief.text === null) continue;
    const lines = brief.text.split('\n');
    const framing = lines.flatMap((l, i) => (/\[\s*(end\s+of\s+)?baton\s+handoff\s+brief\s*\]/i.test(l) ? [i] : []));
    assert.equal(framing, [0, lines.length - 1], `seed ${seed}: frame lines at ${framing.join(', ')}`);
    assert.is(lines[0], BRIEF_BEGIN, `seed ${seed}`);
    assert.is(lines[lines.length - 1], BRIEF_END, `seed ${seed}`);
    if (/^\((end of )?baton handoff brief\)$/m.test(brief.text)) quoted++;
  }
  assert.ok(quoted > 10, `only ${quoted} briefs quoted a frame line`);
});

p('byte-identical in a separate process with another time zone and locale', async () => {
  const seeds = SEEDS.filter((s) => s % 8 === 0);
  const here = Object.fromEntries(seeds.map((s) => [s, run(s).brief.hash]));
  const script = fileURLToPath(new URL('../helpers/brief-hash-main.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...seeds.map(String)], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TZ: 'Pacific/Chatham', LANG: 'tr_TR.UTF-8', LC_ALL: 'tr_TR.UTF-8' },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  signalGroup(child.pid!, 'SIGKILL');
  assert.is(code, 0, err);
  assert.equal(JSON.parse(out), here);
});

p.run();
