// Pane benchmarks of the program users run (dist/src/cli.js: a baton client in a 100x30 PTY
// attached to the baton server it started), each against tmux attached the same way (a
// tmux client in a 100x30 PTY on a tmux server) measured in the same run: tmux is the
// reference, and the machine is noisy, so read the ratios.
//  - echo latency: a key written to the client's terminal -> its echo written back, idle and
//    while another tab floods;
//  - time to first frame, RSS (server + client) with 1 and 8 tabs and with 8 tabs x 10k lines
//    of scrollback, reattaching to those 8 tabs (until the first full frame), CPU (server +
//    client) with 8 idle tabs: plain shells, and agent tabs (a conversation per tab following
//    its CLI's log; the CLI a drop-in written here that draws a prompt and waits, as an agent
//    CLI does between turns).
// BATON_BENCH_ONLY=echo,memory,idle runs only those parts. Pane throughput is
// throughput.bench.ts; both run on pane-rig.ts, which ends everything they start.

import { join } from 'node:path';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import {
  BATON_ARGV,
  batonNewTab,
  batonPids,
  CLI_BUILT,
  Client,
  endBaton,
  finish,
  fmtIdle,
  idleCpu,
  IDLE_SECONDS,
  SETTLE_SECONDS,
  machineLine,
  median,
  pct,
  rssMb,
  sleep,
  spaced,
  startBaton,
  startTmux,
  sum,
  tmp,
  env,
  tmux,
  SOCK,
  tmuxServer,
  waitFile,
} from './pane-rig.js';

/**
 * Keys per echo measurement. A p95 of 60 keys is their 4th slowest, one scheduler hiccup more or
 * less on a 2-core machine: runs of the same build gave 4.4 to 6.8 ms. 200 keys put it on 10.
 */
const SAMPLES = Number(process.env.BATON_BENCH_SAMPLES ?? 200);
const ONLY = process.env.BATON_BENCH_ONLY ? new Set(process.env.BATON_BENCH_ONLY.split(',')) : undefined;
const part = (name: string) => !ONLY || ONLY.has(name);

// no real CLI is on the bench's PATH, so it is the one installed agent; the plain shell comes last).
const IDLE_CLI = `process.stdout.write('idle-cli ready\\n> ');
process.stdin.resume();
`;
const idleDropIn = (cli: string) => `export default (kit) => ({
  name: 'idle',
  title: 'Idle CLI',
  families: [],
  capabilities: { resume: false, fork: false },
  async detect() { return { installed: true, installHint: 'written by bench/pane.bench.ts' }; },
  launch(opts) { return { command: process.execPath, args: [${JSON.stringify(cli)}], env: {}, cwd: opts.cwd }; },
  async ingest(opts) {
    const tail = await kit.tailJsonl(opts.env.IDLE_CLI_LOG, { onRecord: (r) => opts.onEvent(r) });
    return { agentSession: undefined, skipped: 0, dispose: () => tail.dispose() };
  },
  statusFromScreen(lines) { return lines.some((l) => l.startsWith('> ')) ? 'idle' : undefined; },
});
`;

/** CPU of the full program (dist/src/cli.js) with 8 idle agent tabs, % of a core: client, server. */
async function idleAgentTabs(): Promise<{ settling: number[]; idle: number[] }> {
  const plugins = join(env.XDG_CONFIG_HOME!, 'baton', 'plugins');
  mkdirSync(plugins, { recursive: true });
  const cli = join(tmp, 'idle-cli.mjs');
  writeFileSync(cli, IDLE_CLI);
  writeFileSync(join(plugins, 'idle.mjs'), idleDropIn(cli));
  const log = join(tmp, 'idle-cli-log.jsonl');
  writeFileSync(log, '');
  const work = join(tmp, 'agents');
  mkdirSync(work, { recursive: true });
  const c = new Client([process.execPath, CLI_BUILT, 'open', work], { IDLE_CLI_LOG: log });
  try {
    for (let n = 1; n <= 8; n++) await batonNewTab(c, n, 'idle-cli ready', n === 1, true);
    // Each tab reads idle once its screen has been quiet a moment; let that and start-up settle.
    await sleep(3000);
    return await idleCpu(batonPids(c));
  } finally {
    await endBaton(c);
    rmSync(plugins, { recursive: true, force: true });
  }
}

/** Write a marker key into the focused program (cat) and time until it comes back. */
async function echoLatency(c: Client, samples: number): Promise<number[]> {
  const out: number[] = [];
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  for (let i = 0; i < samples; i++) {
    const ch = letters[i % letters.length]!;
    c.out = '';
    const t0 = performance.now();
    c.write(ch);
    await c.waitFor((o) => o.includes(ch), `echo of ${ch}`, 10_000);
    out.push(performance.now() - t0);
    if (i % 20 === 19) c.write('\r');
    await sleep(15 + Math.random() * 15);
  }
  return out;
}

async function main(): Promise<void> {
  console.log(machineLine());
  console.log(`baton: ${BATON_ARGV.slice(1).join(' ')}`);
  if (part('echo')) await echo();
  if (part('memory') || part('idle')) await memoryAndIdle();
  if (part('idle')) {
    const cpu = await idleAgentTabs();
    console.log(
      `CPU with 8 idle agent tabs (dist/src/cli.js, /proc ticks): ${fmtIdle(cpu.idle)} of a core over ${IDLE_SECONDS} s after ${SETTLE_SECONDS} s settling (target < 0.5%); while settling ${fmtIdle(cpu.settling)}`,
    );
  }
}

async function echo(): Promise<void> {
  // tmux reference: a window with cat, and a second one flooding.
  const t = await startTmux(['cat']);
  await sleep(300);
  const tmuxIdle = await echoLatency(t, SAMPLES);
  tmux('new-window', '-d', 'sh', '-c', 'while :; do seq 1 100000; done');
  const tmuxFlood = await echoLatency(t, SAMPLES);
  await t.kill();
  try {
    tmux('kill-server');
  } catch {}

  const { c, firstFrameMs } = await startBaton();
  const rss1 = sum(batonPids(c).map(rssMb));
  c.out = '';
  c.write('cat\r');
  await c.waitFor((o) => o.includes('t'), 'cat');
  await sleep(300);
  const batonIdle = await echoLatency(c, SAMPLES);
  // A flooding neighbour tab (tab 1 floods, tab 2 has cat and the focus).
  c.write('\x03');
  c.write('\r');
  c.write('while :; do seq 1 100000; done\r');
  await batonNewTab(c, 2);
  c.out = '';
  c.write('cat\r');
  await c.waitFor((o) => o.includes('t'), 'cat in tab 2');
  await sleep(300);
  const batonFlood = await echoLatency(c, SAMPLES);
  const fmt = (xs: number[]) => `p50 ${median(xs).toFixed(1)} ms  p95 ${pct(xs, 0.95).toFixed(1)} ms`;
  console.log(`echo latency idle:     baton ${fmt(batonIdle)}  |  tmux ${fmt(tmuxIdle)}  |  p50 ratio ${(median(batonIdle) / median(tmuxIdle)).toFixed(2)}`);
  console.log(
    `echo latency flooding: baton ${fmt(batonFlood)}  |  tmux ${fmt(tmuxFlood)}  |  p50 ratio ${(median(batonFlood) / median(tmuxFlood)).toFixed(2)}  (target p95 <= 5 ms)`,
  );
  console.log(`time to first frame (client start, server started by it -> picker drawn): ${firstFrameMs.toFixed(0)} ms`);
  console.log(`RSS (server + client): 1 tab ${rss1.toFixed(0)} MB`);
  await endBaton(c);
}

/** Memory, reattach and idle CPU with 8 plain-shell tabs, baton's and tmux's. */
async function memoryAndIdle(): Promise<void> {
  const b = await startBaton();
  for (let n = 2; n <= 8; n++) await batonNewTab(b.c, n);
  await sleep(1000);
  const rss8 = sum(batonPids(b.c).map(rssMb));
  const cpu = await idleCpu(batonPids(b.c));
  const t = await tmuxWithWindows(8);
  const tpids = [t.p.pid, tmuxServer()!];
  const tcpu = await idleCpu(tpids);
  console.log(
    `CPU with 8 idle plain-shell tabs (server + client): baton ${fmtIdle(cpu.idle)}  tmux ${sum(tcpu.idle).toFixed(2)}% of a core over ${IDLE_SECONDS} s after ${SETTLE_SECONDS} s settling (target < 0.5%); while settling baton ${fmtIdle(cpu.settling)}, tmux ${sum(tcpu.settling).toFixed(2)}%`,
  );
  if (!part('memory')) {
    await t.kill();
    tmux('kill-server');
    return endBaton(b.c);
  }
  // Fill each tab's scrollback with 10k lines that look like program output (colour, ~85 columns).
  const fill = `awk 'BEGIN{for(i=1;i<=10000;i++) printf "\\033[32m%06d\\033[0m lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor\\n", i}'`;
  for (let n = 1; n <= 8; n++) {
    b.c.write(`\x02${n}`);
    b.c.write(`${fill}; touch ${join(tmp, `filled-${n}`)}\r`);
    await waitFile(join(tmp, `filled-${n}`), 120_000, false);
    tmux('send-keys', '-t', `:${n - 1}`, `${fill}; touch ${join(tmp, `tfilled-${n}`)}`, 'Enter');
    await waitFile(join(tmp, `tfilled-${n}`), 120_000, false);
  }
  await sleep(1000);
  const [clientFull = NaN, serverFull = NaN] = batonPids(b.c).map(rssMb);
  const rssFull = clientFull + serverFull;
  const trssFull = sum(tpids.map(rssMb));
  console.log(
    `RSS (server + client): baton 8 tabs ${rss8.toFixed(0)} MB, 8 tabs x 10k lines of 85-column output ${rssFull.toFixed(0)} MB (server ${serverFull.toFixed(0)}, client ${clientFull.toFixed(0)})  |  tmux ${trssFull.toFixed(0)} MB  (target <= 150 MB)`,
  );
  // Reattach: detach, then time a new client until its first full frame (tab bar and status line drawn).
  b.c.write('\x02d');
  await b.c.waitFor((o) => o.includes('detached from baton'), 'the detach');
  await b.c.kill();
  const r0 = performance.now();
  const again = new Client([process.execPath, CLI_BUILT, 'attach']);
  await again.waitFor((o) => spaced(o).includes('8:sh') && spaced(o).includes('C-b q quit'), 'the reattached frame');
  const reattachMs = performance.now() - r0;
  await t.kill();
  const tr0 = performance.now();
  const tagain = new Client(['tmux', '-L', SOCK, '-f', '/dev/null', 'attach']);
  await tagain.waitFor((o) => o.includes('7:sh'), 'tmux reattached');
  const treattachMs = performance.now() - tr0;
  console.log(
    `reattach to 8 tabs x 10k lines (client start -> first full frame): baton ${reattachMs.toFixed(0)} ms  tmux ${treattachMs.toFixed(0)} ms  ratio ${(reattachMs / treattachMs).toFixed(2)}  (target <= 300 ms)`,
  );
  await tagain.kill();
  tmux('kill-server');
  await endBaton(again);
}

/** A tmux server with `n` shell windows, and a client attached in a 100x30 PTY. */
async function tmuxWithWindows(n: number): Promise<Client> {
  const t = await startTmux(['sh']);
  for (let i = 1; i < n; i++) tmux('new-window', '-d', 'sh');
  await sleep(500);
  return t;
}

try {
  await main();
} finally {
  await finish();
}
process.exit(0);
