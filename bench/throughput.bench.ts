// Pane throughput of the program users run (dist/src/cli.js: a baton client in a 100x30 PTY
// attached to the baton server it started) against tmux attached the same way (a tmux client
// in a 100x30 PTY on a tmux server), measured in the same run: `seq 1 N` in the focused tab
// (N = BATON_BENCH_SEQ, default 1,000,000), the client's output drained, over
// BATON_BENCH_ROUNDS rounds (5), with a bare reader (the bench reading the PTY and dropping it)
// as the floor both sit on. The machine is noisy: read the ratios.

import { join } from 'node:path';
import {
  batonPids,
  BATON_ARGV,
  Client,
  cpuTicks,
  endBaton,
  finish,
  machineLine,
  median,
  startBaton,
  startTmux,
  timedSeq,
  tmp,
  tmux,
  tmuxServer,
  waitFile,
} from './pane-rig.js';

const N = Number(process.env.BATON_BENCH_SEQ ?? 1_000_000);
const ROUNDS = Number(process.env.BATON_BENCH_ROUNDS ?? 5);

/**
 * Two floods in one pane, the second a second after the first: the first on a viewer just
 * started, the second on one that has run a flood (a baton server runs for days: V8 has
 * compiled its parse by then; tmux, in C, is the same both times).
 */
const twoFloods = (f: string) => `${timedSeq(N, `${f}-1`)}; sleep 1; ${timedSeq(N, `${f}-2`)}`;
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
  const cpu = 10 * cpuTicks(tmuxServer()!) + 10 * cpuTicks(t.p.pid);
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

try {
  console.log(machineLine());
  console.log(`baton: ${BATON_ARGV.slice(1).join(' ')}`);
  await throughput();
} finally {
  await finish();
}
process.exit(0);
