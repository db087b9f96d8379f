// Pane benchmarks of the program users run (dist/src/cli.js: a baton client in a 100x30 PTY
// attached to the baton server it started), each against tmux attached the same way (a
// tmux client in a 100x30 PTY on a tmux server) measured in the same run: tmux is the
// reference, and the machine is noisy, so read the ratios.
//  - throughput: `seq 1 N` in the focused tab vs in a tmux pane (N = BATON_BENCH_SEQ,
//    default 1,000,000), the client's output drained, over BATON_BENCH_ROUNDS rounds (5), with
//    a bare reader (the bench reading the PTY and dropping it) as the floor both sit on;
//  - echo latency: a key written to the client's terminal -> its echo written back, idle and
//    while another tab floods;
//  - time to first frame, RSS (server + client) with 1 and 8 tabs and with 8 tabs x 10k lines
//    of scrollback, reattaching to those 8 tabs (until the first full frame), CPU (server +
//    client) with 8 idle tabs: plain shells, and agent tabs (a conversation per tab following
//    its CLI's log; the CLI a drop-in written here that draws a prompt and waits, as an agent
//    CLI does between turns).
// BATON_BENCH_ONLY=throughput,echo,memory,idle runs only those parts.
// Everything started here is ended by pid / process group; baton's server and tmux run on
// sockets of their own.

import * as pty from 'node-pty';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readStat, residentKb } from '../src/proc/index.js';
import { buildBaton, endClientAndServer, endPty, endServer, ROOT, scratchEnv, serverPid } from './bench-env.js';

const N = Number(process.env.BATON_BENCH_SEQ ?? 1_000_000);
const ROUNDS = Number(process.env.BATON_BENCH_ROUNDS ?? 5);
const SAMPLES = Number(process.env.BATON_BENCH_SAMPLES ?? 60);
const COLS = 100;
const ROWS = 30;
const { tmp, env } = scratchEnv('baton-bench-');
const SOCK = `baton-bench-${process.pid}`;
const CLI_BUILT = buildBaton();
const BATON_ARGV = [process.execPath, CLI_BUILT];
const ONLY = process.env.BATON_BENCH_ONLY ? new Set(process.env.BATON_BENCH_ONLY.split(',')) : undefined;
const part = (name: string) => !ONLY || ONLY.has(name);
// Idle CPU is a rate, measured over 30 s: what is left in a 10 s window a few seconds after
// the tabs opened is mostly V8's own one-off memory-reducing collections (the client's run
// ~8 s after it started: Mark-Compact (reduce) in --trace-gc), and a /proc tick is 0.1% of it.
const IDLE_SECONDS = Number(process.env.BATON_BENCH_IDLE_S ?? 30);

class Client {
  readonly p: pty.IPty;
  out = '';
  bytes = 0;
  private waiters: (() => void)[] = [];
  constructor(argv: string[], extraEnv: Record<string, string> = {}) {
    this.p = pty.spawn(argv[0]!, argv.slice(1), { name: 'xterm-256color', cols: COLS, rows: ROWS, cwd: ROOT, env: { ...env, ...extraEnv } });
    this.p.onData((d) => {
      this.bytes += d.length;
      // Keep only a tail: enough to find markers, never the whole flood.
      this.out = (this.out + d).slice(-20000);
      for (const w of this.waiters.splice(0)) w();
    });
  }
  async waitFor(pred: (out: string) => boolean, what: string, ms = 30_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!pred(this.out)) {
      if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what}; output tail: ${JSON.stringify(this.out.slice(-300))}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 50);
      });
    }
  }
  write(s: string): void {
    this.p.write(s);
  }
  kill(): Promise<void> {
    return endPty(this.p);
  }
}

/** The pid of the bench's baton server, once it runs. */
const batonServerPid = () => serverPid(env.XDG_RUNTIME_DIR!);

/** Ends the client and the baton server with every tab in it. */
const endBaton = (c: Client) => endClientAndServer(c.p, env.XDG_RUNTIME_DIR!);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

/** Output with blessed's cursor-forward moves (how it skips unchanged cells) read as spaces. */
const spaced = (o: string) => o.replace(/\x1b\[\d*C/g, ' ');

/** The plain shell is the picker's last entry, after whatever agents are installed: G (its vi keys), then Enter. */
function pickShell(c: Client): void {
  c.write('G');
  c.write('\r');
}

async function startBaton(): Promise<{ c: Client; firstFrameMs: number }> {
  const t0 = performance.now();
  const c = new Client([...BATON_ARGV, tmp]);
  await c.waitFor((o) => spaced(o).includes('Plain shell'), 'the picker');
  const firstFrameMs = performance.now() - t0;
  c.out = '';
  pickShell(c);
  await c.waitFor((o) => o.includes('$'), 'the prompt');
  return { c, firstFrameMs };
}

/**
 * Tab `n` (tab 1 when `first`) from the new-tab picker: a plain shell, else the picker's first
 * entry (the one installed agent; the agents baton could install come after it), and the marker its program draws.
 */
async function batonNewTab(c: Client, n: number, marker = '$', first = false, agent = false): Promise<void> {
  c.out = '';
  if (!first) c.write('\x02c');
  await c.waitFor((o) => spaced(o).includes('Plain shell'), 'the picker');
  c.out = '';
  if (agent) c.write('\r');
  else pickShell(c);
  await c.waitFor((o) => spaced(o).includes(marker), `${marker} in tab ${n}`);
}

// An agent CLI between turns, and its drop-in driver (the TUI lists it first in the picker:
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
async function idleAgentTabs(): Promise<number[]> {
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

function timedSeq(file: string): string {
  return `s=$(date +%s%N); seq 1 ${N}; e=$(date +%s%N); echo $(( (e-s)/1000000 )) > ${file}`;
}

async function waitFile(file: string, ms = 300_000, content = true): Promise<number> {
  const deadline = Date.now() + ms;
  while (!existsSync(file) || (content && readFileSync(file, 'utf8').trim() === '')) {
    if (Date.now() > deadline) throw new Error(`bench: no result in ${file}`);
    await sleep(50);
  }
  return Number(readFileSync(file, 'utf8').trim());
}

let tmuxServerPid: number | undefined;
function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', SOCK, '-f', '/dev/null', ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
}
async function startTmux(cmd: string[]): Promise<Client> {
  const c = new Client(['tmux', '-L', SOCK, '-f', '/dev/null', 'new-session', '-x', String(COLS), '-y', String(ROWS), ...cmd]);
  await c.waitFor(() => {
    try {
      tmuxServerPid = Number(tmux('display-message', '-p', '#{pid}').trim());
      return true;
    } catch {
      return false;
    }
  }, 'tmux server');
  return c;
}

/**
 * Two floods in one pane, the second a second after the first: the first on a viewer just
 * started, the second on one that has run a flood (a baton server runs for days: V8 has
 * compiled its parse by then; tmux, in C, is the same both times).
 */
const twoFloods = (f: string) => `${timedSeq(`${f}-1`)}; sleep 1; ${timedSeq(`${f}-2`)}`;
interface Floods {
  first: number;
  second: number;
}

/** `seq` in a PTY the bench itself reads and drops (node-pty, nothing drawn): the floor both viewers sit on. */
async function bareReader(round: number): Promise<Floods> {
  const f = join(tmp, `bare-${round}`);
  const b = new Client(['sh', '-c', `${twoFloods(f)}; sleep 600`]);
  const first = await waitFile(`${f}-1`);
  const second = await waitFile(`${f}-2`);
  await b.kill();
  return { first, second };
}

async function tmuxThroughput(round: number): Promise<Floods & { cpu: number }> {
  const tf = join(tmp, `tmux-${round}`);
  const t = await startTmux(['sh', '-c', `${twoFloods(tf)}; sleep 600`]);
  const first = await waitFile(`${tf}-1`);
  // CPU the viewers spent on the first flood (ms): tmux's server since it started (its start-up is a few ms).
  const cpu = 10 * cpuTicks(tmuxServerPid!) + 10 * cpuTicks(t.p.pid);
  const second = await waitFile(`${tf}-2`);
  await t.kill();
  tmux('kill-server');
  return { first, second, cpu };
}

async function batonThroughput(round: number): Promise<Floods & { cpu: string }> {
  const bf = join(tmp, `baton-${round}`);
  const { c } = await startBaton();
  const pids = batonPids(c);
  const before = pids.map(cpuTicks);
  c.write(`${twoFloods(bf)}\r`);
  const first = await waitFile(`${bf}-1`);
  const [client = 0, server = 0] = pids.map((p, i) => 10 * (cpuTicks(p) - before[i]!));
  const second = await waitFile(`${bf}-2`);
  await endBaton(c);
  return { first, second, cpu: `${client + server} ms (server ${server}, client ${client})` };
}

/**
 * One round: tmux and baton, the one that goes first alternating from round to round (the
 * machine drifts: whichever always ran first or second would carry the drift), and the bare
 * reader before both.
 */
async function throughputRound(round: number): Promise<{ tmux: Floods; baton: Floods; bare: Floods; tmuxCpu: number; batonCpu: string }> {
  const bare = await bareReader(round);
  let t: Floods & { cpu: number };
  let b: Floods & { cpu: string };
  if (round % 2 === 0) {
    t = await tmuxThroughput(round);
    b = await batonThroughput(round);
  } else {
    b = await batonThroughput(round);
    t = await tmuxThroughput(round);
  }
  return { tmux: t, baton: b, bare, tmuxCpu: t.cpu, batonCpu: b.cpu };
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

function rssMb(pid: number): number {
  return (residentKb(pid) ?? NaN) / 1024;
}

function cpuTicks(pid: number): number {
  const s = readStat(pid);
  return s ? s.utime + s.stime : NaN;
}

/** CPU of each process over IDLE_SECONDS, % of a core. */
async function idleCpu(pids: number[]): Promise<number[]> {
  const t0 = pids.map(cpuTicks);
  await sleep(IDLE_SECONDS * 1000);
  return pids.map((p, i) => ((cpuTicks(p) - t0[i]!) / 100 / IDLE_SECONDS) * 100);
}

/** baton's idle CPU, server + client, and each (batonPids' order). */
const fmtIdle = ([client = 0, server = 0]: number[]) => `${(client + server).toFixed(2)}% (server ${server.toFixed(2)}%, client ${client.toFixed(2)}%)`;

/** baton's processes: the client (the PTY's child is node itself) and the server. */
const batonPids = (c: Client) => [c.p.pid, ...(batonServerPid() ? [batonServerPid()!] : [])];
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

async function main(): Promise<void> {
  console.log(
    `machine: ${process.platform} ${process.arch}, node ${process.version}, ${execFileSync('tmux', ['-V'], { encoding: 'utf8' }).trim()}, load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
  );
  console.log(`baton: ${BATON_ARGV.slice(1).join(' ')}`);
  if (part('throughput')) await throughput();
  if (part('echo')) await echo();
  if (part('memory') || part('idle')) await memoryAndIdle();
  if (part('idle')) {
    const cpu = await idleAgentTabs();
    console.log(`CPU with 8 idle agent tabs (dist/src/cli.js, /proc ticks): ${fmtIdle(cpu)} of a core over ${IDLE_SECONDS} s (target < 0.5%)`);
  }
}

async function throughput(): Promise<void> {
  const first: number[] = [];
  const second: number[] = [];
  const bareFirst: number[] = [];
  const bareSecond: number[] = [];
  const ms = (f: Floods) => `${f.first} / ${f.second} ms`;
  for (let r = 0; r < ROUNDS; r++) {
    const { tmux: tm, baton: bt, bare, tmuxCpu, batonCpu } = await throughputRound(r);
    first.push(bt.first / tm.first);
    second.push(bt.second / tm.second);
    bareFirst.push(bt.first / bare.first, tm.first / bare.first);
    bareSecond.push(bt.second / bare.second, tm.second / bare.second);
    console.log(
      `throughput round ${r + 1}: seq 1 ${N}, first / second flood  tmux ${ms(tm)}  baton ${ms(bt)}  ratio ${(bt.first / tm.first).toFixed(2)} / ${(bt.second / tm.second).toFixed(2)}  (a bare reader ${ms(bare)}; CPU of the first, server + client: tmux ${tmuxCpu} ms, baton ${batonCpu})`,
    );
  }
  const over = (xs: number[], i: number) => median(xs.filter((_, j) => j % 2 === i)).toFixed(2);
  console.log(
    `throughput: baton/tmux median ratio over ${ROUNDS} rounds: first flood (viewer just started) ${median(first).toFixed(2)}, second flood ${median(second).toFixed(2)} (target <= 1.0)`,
  );
  console.log(
    `throughput over a bare reader (median): first flood baton ${over(bareFirst, 0)}, tmux ${over(bareFirst, 1)}; second flood baton ${over(bareSecond, 0)}, tmux ${over(bareSecond, 1)}`,
  );
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
  const tpids = [t.p.pid, tmuxServerPid!];
  const tcpu = sum(await idleCpu(tpids));
  console.log(
    `CPU with 8 idle plain-shell tabs (server + client): baton ${fmtIdle(cpu)}  tmux ${tcpu.toFixed(2)}% of a core over ${IDLE_SECONDS} s (target < 0.5%)`,
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
  // A part that failed left its baton server (and every tab's program) running.
  await endServer(env.XDG_RUNTIME_DIR!);
  if (tmuxServerPid) {
    try {
      process.kill(tmuxServerPid, 'SIGKILL');
    } catch {}
  }
  rmSync(tmp, { recursive: true, force: true });
}
process.exit(0);
