// The rig the pane benches share: a scratch environment, a program in a 100x30 PTY whose
// output the bench reads (a baton client, a tmux client, or a bare program), starting baton
// (its server started by its first client) and tmux on sockets of their own, and reading each
// process's CPU and RSS from /proc. Everything started here is ended by pid / process group:
// finish() ends what a failed part left running.

import * as pty from 'node-pty';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { readStat, residentKb } from '../src/proc/index.js';
import { buildBaton, endClientAndServer, endPty, endServer, ROOT, scratchEnv, serverPid } from './bench-env.js';

export const COLS = 100;
export const ROWS = 30;
export const { tmp, env } = scratchEnv('baton-bench-');
export const SOCK = `baton-bench-${process.pid}`;
export const CLI_BUILT = buildBaton();
export const BATON_ARGV = [process.execPath, CLI_BUILT];
// Idle CPU is a rate, measured over 30 s once the processes have settled: after the tabs
// open, V8 runs its own one-off memory-reducing collections (8 s or more after the last
// allocation, up to three of them: Mark-Compact (reduce) in --trace-gc), and nothing runs
// after them (8 idle shell tabs, or 8 idle agent tabs: 0 ticks in each 15 s window from 15 or
// 18 to 75 s, where the first took 17-18; in one bench run the agent tabs' came after 18 s).
// The settling window is printed too; a /proc tick is 0.1% of 30 s.
export const IDLE_SECONDS = Number(process.env.BATON_BENCH_IDLE_S ?? 30);
export const SETTLE_SECONDS = Number(process.env.BATON_BENCH_SETTLE_S ?? 30);

export class Client {
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
export const batonServerPid = () => serverPid(env.XDG_RUNTIME_DIR!);

/** Ends the client and the baton server with every tab in it. */
export const endBaton = (c: Client) => endClientAndServer(c.p, env.XDG_RUNTIME_DIR!);

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
export const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

/** Output with blessed's cursor-forward moves (how it skips unchanged cells) read as spaces. */
export const spaced = (o: string) => o.replace(/\x1b\[\d*C/g, ' ');

/** The plain shell is the picker's last entry, after whatever agents are installed: G (its vi keys), then Enter. */
export function pickShell(c: Client): void {
  c.write('G');
  c.write('\r');
}

export async function startBaton(): Promise<{ c: Client; firstFrameMs: number }> {
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
export async function batonNewTab(c: Client, n: number, marker = '$', first = false, agent = false): Promise<void> {
  c.out = '';
  if (!first) c.write('\x02c');
  await c.waitFor((o) => spaced(o).includes('Plain shell'), 'the picker');
  c.out = '';
  if (agent) c.write('\r');
  else pickShell(c);
  await c.waitFor((o) => spaced(o).includes(marker), `${marker} in tab ${n}`);
}

// An agent CLI between turns, and its drop-in driver (the TUI lists it first in the picker:

export function timedSeq(n: number, file: string): string {
  return `s=$(date +%s%N); seq 1 ${n}; e=$(date +%s%N); echo $(( (e-s)/1000000 )) > ${file}`;
}

export async function waitFile(file: string, ms = 300_000, content = true): Promise<number> {
  const deadline = Date.now() + ms;
  while (!existsSync(file) || (content && readFileSync(file, 'utf8').trim() === '')) {
    if (Date.now() > deadline) throw new Error(`bench: no result in ${file}`);
    await sleep(50);
  }
  return Number(readFileSync(file, 'utf8').trim());
}

let tmuxServerPid: number | undefined;
/** The pid of the tmux server started last. */
export const tmuxServer = (): number | undefined => tmuxServerPid;
export function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', SOCK, '-f', '/dev/null', ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
}
export async function startTmux(cmd: string[]): Promise<Client> {
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

export function rssMb(pid: number): number {
  return (residentKb(pid) ?? NaN) / 1024;
}

export function cpuTicks(pid: number): number {
  const s = readStat(pid);
  return s ? s.utime + s.stime : NaN;
}

/** CPU of each process, % of a core: over the SETTLE_SECONDS from now, then over the IDLE_SECONDS after them. */
export async function idleCpu(pids: number[]): Promise<{ settling: number[]; idle: number[] }> {
  const rate = async (seconds: number) => {
    const t0 = pids.map(cpuTicks);
    await sleep(seconds * 1000);
    return pids.map((p, i) => ((cpuTicks(p) - t0[i]!) / 100 / seconds) * 100);
  };
  const settling = await rate(SETTLE_SECONDS);
  return { settling, idle: await rate(IDLE_SECONDS) };
}

/** baton's idle CPU, server + client, and each (batonPids' order). */
export const fmtIdle = ([client = 0, server = 0]: number[]) => `${(client + server).toFixed(2)}% (server ${server.toFixed(2)}%, client ${client.toFixed(2)}%)`;

/** baton's processes: the client (the PTY's child is node itself) and the server. */
export const batonPids = (c: Client) => [c.p.pid, ...(batonServerPid() ? [batonServerPid()!] : [])];
export const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** The line every pane bench starts with: the machine, node, tmux and the load. */
export function machineLine(): string {
  return `machine: ${process.platform} ${process.arch}, node ${process.version}, ${execFileSync('tmux', ['-V'], { encoding: 'utf8' }).trim()}, load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`;
}

/** Ends what a part that failed left running (its baton server with every tab, tmux's server) and the scratch dir. */
export async function finish(): Promise<void> {
  await endServer(env.XDG_RUNTIME_DIR!);
  if (tmuxServerPid) {
    try {
      process.kill(tmuxServerPid, 'SIGKILL');
    } catch {}
  }
  rmSync(tmp, { recursive: true, force: true });
}
