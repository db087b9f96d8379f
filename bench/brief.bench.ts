// The handoff brief's cost against transcript length: a brief at the default budget (120000
// characters) over seeded random transcripts of 1k, 10k and 100k entries (tool outputs up to
// 50k characters). The brief walks back from the newest entry and reads whole-slice facts
// from an append-only index, so its cost should follow the budget, not the length: the
// line to read is the ratio 100k/1k of the repeated brief (target: within 2x). The first
// brief on a transcript also builds the index, printed apart, next to JSON.stringify of all
// entries as a reference for "touching everything once".
import { buildBrief } from '../src/transcript/brief.js';
import { randomTranscript } from '../test/helpers/brief-transcripts.js';

const SIZES = [1_000, 10_000, 100_000];
const RUNS = 31;
const options = { target: { harness: 'codex', model: 'gpt-5', title: 'Codex' }, mode: 'fresh' as const, maxChars: 120_000 };

const ms = (x: number) => `${x.toFixed(2)} ms`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

// Warm the JIT on another transcript first, so the first size measured is not the cold one.
{
  const warm = randomTranscript(7, { entries: 2000 });
  for (let i = 0; i < 30; i++) buildBrief(warm, options);
}

const results: { n: number; first: number; repeat: number; min: number; stringify: number; chars: number; kept: number }[] = [];
for (const n of SIZES) {
  const tr = randomTranscript(n, { entries: n });
  let t0 = performance.now();
  const first = buildBrief(tr, options);
  const firstMs = performance.now() - t0;
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    t0 = performance.now();
    buildBrief(tr, options);
    times.push(performance.now() - t0);
  }
  t0 = performance.now();
  JSON.stringify(tr.entries);
  const stringify = performance.now() - t0;
  results.push({ n, first: firstMs, repeat: median(times), min: Math.min(...times), stringify, chars: first.chars, kept: first.tail?.items.length ?? 0 });
}

for (const r of results) {
  console.log(
    `brief over ${String(r.n).padStart(6)} entries: ${ms(r.repeat)} median of ${RUNS} (min ${ms(r.min)}), first ${ms(r.first)} (builds the index); ` +
      `${r.chars} chars, ${r.kept} entries kept; JSON.stringify of all entries ${ms(r.stringify)}`,
  );
}
const a = results[0]!;
const z = results[results.length - 1]!;
console.log(`ratio 100k/1k: ${(z.repeat / a.repeat).toFixed(2)}x repeated (target within 2x), ${(z.first / a.first).toFixed(2)}x first brief`);
