// What following a CLI's session log costs per update: a log of 10k and 100k records
// (~600 bytes each, the size of claude/codex JSONL records) gets one more turn (6 records)
// appended, and the tail picks it up. Reference, measured in the same run on the same
// file: re-reading and parsing the whole log per change, which incremental ingest avoids.
// Also the end-to-end delay from an append to the record arriving through chokidar.
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tailJsonl } from '../src/plugins/log-tail.js';

const record = (i: number) =>
  JSON.stringify({
    type: 'assistant',
    uuid: `u-${i}`,
    sessionId: 's-1',
    message: { role: 'assistant', content: [{ type: 'text', text: 'x'.repeat(480) }] },
    ts: 1_700_000_000 + i,
  }) + '\n';

const turn = (from: number) => Array.from({ length: 6 }, (_, k) => record(from + k)).join('');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function sizeRun(dir: string, n: number): Promise<void> {
  const f = join(dir, `log-${n}.jsonl`);
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(record(i));
  writeFileSync(f, lines.join(''));
  let count = 0;
  const tail = await tailJsonl(f, { watch: false, onRecord: () => count++ });
  const rounds = 30;
  const inc: number[] = [];
  const full: number[] = [];
  let next = n;
  for (let r = 0; r < rounds; r++) {
    appendFileSync(f, turn(next));
    next += 6;
    let t0 = performance.now();
    await tail.poll();
    inc.push(performance.now() - t0);
    t0 = performance.now();
    let parsed = 0;
    for (const line of readFileSync(f, 'utf8').split('\n')) {
      if (!line) continue;
      JSON.parse(line);
      parsed++;
    }
    full.push(performance.now() - t0);
    if (parsed !== next) throw new Error('reference parsed the wrong number of records');
  }
  await tail.dispose();
  if (count !== next) throw new Error(`tail delivered ${count} records, expected ${next}`);
  const a = median(inc);
  const b = median(full);
  console.log(
    `${String(n).padStart(6)} records: one more turn picked up in ${a.toFixed(3)} ms (median of ${rounds}); re-reading the whole log ${b.toFixed(2)} ms; ${(b / a).toFixed(0)}x less work`,
  );
}

async function latency(dir: string): Promise<void> {
  const f = join(dir, 'live.jsonl');
  writeFileSync(f, '');
  let arrived: (() => void) | undefined;
  const tail = await tailJsonl(f, { onRecord: () => arrived?.() });
  const delays: number[] = [];
  for (let i = 0; i < 40; i++) {
    const got = new Promise<void>((r) => (arrived = r));
    const t0 = performance.now();
    appendFileSync(f, record(i));
    await got;
    delays.push(performance.now() - t0);
    // Past chokidar's 50 ms per-path change throttle, so each append is a fresh event.
    await new Promise((r) => setTimeout(r, 60));
  }
  await tail.dispose();
  console.log(`append -> record through chokidar: median ${median(delays).toFixed(1)} ms, worst ${Math.max(...delays).toFixed(1)} ms (40 appends)`);
}

const dir = mkdtempSync(join(tmpdir(), 'baton-tail-bench-'));
try {
  await sizeRun(dir, 10_000);
  await sizeRun(dir, 100_000);
  await latency(dir);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
