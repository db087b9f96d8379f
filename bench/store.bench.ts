// The transcript store's speed: append throughput through the Transcript sink (buffered,
// fsync at each turn end), and loading 10k and 100k entries of realistic sizes (agent
// text of a few hundred characters, tool results up to tens of KB). Each figure is
// printed with a reference measured in the same run on the same bytes: for appends, one
// write + one fsync of the whole log; for loads, readFileSync + split + JSON.parse.
// Loads and the small-entry appends also print CPU time (user + system, GC threads
// included), which a busy machine disturbs less than wall time.
import { closeSync, fsyncSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConversation, readConversation } from '../src/transcript/store.js';
import { LogWriter, createLog } from '../src/transcript/store-log-writer.js';
import type { OpenConversation } from '../src/transcript/store.js';

const user = { type: 'user' as const, name: 'bench', device: 'bench' };

// Deterministic pseudo-random sizes so runs compare.
let seed = 42;
const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
const words = 'the quick brown fox jumps over a lazy dog while reading src/transcript/store.ts and running npm test'.split(' ');
const text = (chars: number) => {
  let s = '';
  while (s.length < chars) s += words[Math.floor(rand() * words.length)] + ' ';
  return s.slice(0, chars);
};
const toolOutput = () => (rand() < 0.05 ? text(20_000 + Math.floor(rand() * 30_000)) : text(200 + Math.floor(rand() * 1800)));

/** One turn of six entries: user, agent text, tool call, tool result, agent text, turn end (sync). */
function turn(c: OpenConversation, n: number) {
  const t = c.transcript;
  t.apply({ type: 'user_text', text: text(80 + Math.floor(rand() * 400)) });
  t.apply({ type: 'agent_text', text: text(100 + Math.floor(rand() * 1400)) });
  t.apply({ type: 'tool_call', toolCallId: `call_${n}`, toolName: 'Bash', input: { command: 'npm test', description: text(40) } });
  t.apply({ type: 'tool_result', toolCallId: `call_${n}`, output: toolOutput(), isError: rand() < 0.1 });
  t.apply({ type: 'agent_text', text: text(100 + Math.floor(rand() * 600)) });
  t.apply({ type: 'turn_end', usage: { inputTokens: 1000 + n, outputTokens: 200 } });
}

async function build(home: string, entries: number) {
  const c = await createConversation(home, { cwd: '/work/repo', title: 'bench', user });
  c.transcript.startSegment({ harness: 'claude', model: 'opus', switchId: 'sw1' });
  const t0 = performance.now();
  let n = 0;
  while (c.transcript.lastSeq < entries - 6) turn(c, ++n);
  while (c.transcript.lastSeq < entries) c.transcript.apply({ type: 'notice', text: 'pad' });
  await c.close();
  const ms = performance.now() - t0;
  return { id: c.id, dir: c.dir, ms, turns: n };
}

function referenceWrite(file: string, bytes: Buffer) {
  const t0 = performance.now();
  const fd = openSync(file, 'w', 0o600);
  writeSync(fd, bytes);
  fsyncSync(fd);
  closeSync(fd);
  return performance.now() - t0;
}

function referenceLoad(file: string) {
  const t0 = performance.now();
  const lines = readFileSync(file, 'utf8').split('\n');
  let n = 0;
  for (const l of lines) {
    if (!l) continue;
    JSON.parse(l);
    n++;
  }
  return { ms: performance.now() - t0, n };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

const home = mkdtempSync(join(tmpdir(), 'baton-bench-store-'));
try {
  for (const size of [10_000, 100_000]) {
    const b = await build(home, size);
    const log = join(b.dir, 'transcript.jsonl');
    const bytes = statSync(log).size;
    const refWrite = referenceWrite(join(home, `ref-${size}.jsonl`), readFileSync(log));
    console.log(
      `append ${size} entries (${b.turns} turns, fsync at each turn end, ${mb(bytes)} MB): ` +
        `${Math.round(size / (b.ms / 1000)).toLocaleString('en-US')} entries/s, ${(b.ms / 1000).toFixed(2)} s ` +
        `(one write + one fsync of the same bytes: ${refWrite.toFixed(0)} ms; ratio ${(b.ms / refWrite).toFixed(1)}x)`,
    );

    const loads: number[] = [];
    const cpus: number[] = [];
    const refs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const r = await readConversation(home, b.id);
      loads.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpus.push((c.user + c.system) / 1000);
      if (r.transcript.entries.length !== size || r.problems.length)
        throw new Error(`load of ${size} came back with ${r.transcript.entries.length} entries, ${r.problems.length} problems`);
      refs.push(referenceLoad(log).ms);
    }
    const load = median(loads);
    const ref = median(refs);
    console.log(
      `load ${size} entries (${mb(bytes)} MB): ${load.toFixed(0)} ms median of 3, ${median(cpus).toFixed(0)} ms CPU ` +
        `(readFileSync + split + JSON.parse: ${ref.toFixed(0)} ms; ratio ${(load / ref).toFixed(2)}x)`,
    );
  }

  // Streaming without sync points: the buffered path alone.
  const c = await createConversation(home, { cwd: '/work/repo', title: 'stream', user });
  c.transcript.startSegment({ harness: 'claude', model: 'opus', switchId: 'sw1' });
  const N = 100_000;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < N; i++) c.transcript.apply({ type: 'tool_call', toolCallId: `c${i}`, toolName: 'Read', input: { path: `src/file-${i}.ts` } });
  await c.close();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  console.log(
    `append ${N.toLocaleString('en-US')} small entries through the Transcript without sync points (one fsync at close): ` +
      `${Math.round(N / (ms / 1000)).toLocaleString('en-US')} entries/s, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU`,
  );

  // The same entries straight into the log writer: the store's own share of the above.
  const entries = c.transcript.entries.slice(1);
  const file = join(home, 'writer-only.jsonl');
  createLog(file, { format: 'baton-transcript', version: 1, conversation: 'bench', created: new Date().toISOString() });
  const w = new LogWriter(file, { endsWithNewline: true });
  const t1 = performance.now();
  for (const e of entries) w.append([e], false);
  w.close();
  const wms = performance.now() - t1;
  console.log(
    `  the same entries into the log writer alone (serialize, buffer, write): ${Math.round(entries.length / (wms / 1000)).toLocaleString('en-US')} entries/s (${((wms / ms) * 100).toFixed(0)}% of the time through the Transcript)`,
  );
} finally {
  rmSync(home, { recursive: true, force: true });
}
