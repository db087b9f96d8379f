// Runs one real agent CLI process to completion for a test: in its own process group
// (detached), stdin from /dev/null, output collected, and the whole group killed when
// it ends or when the deadline passes, so an npm shim never orphans the native binary
// it started (codex-acp did) and nothing outlives the test.
// It must never pass a shell string: argv only.
import { spawn } from 'node:child_process';
import type { CliEnv } from './cli-env.js';
import { signalGroup } from '../../src/proc/index.js';

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  timedOut: boolean;
}

export interface RunCliOptions {
  timeoutMs?: number;
  /** Defaults to the CliEnv's cwd. */
  cwd?: string;
  /** Extra variables over the CliEnv's env. */
  env?: Record<string, string>;
}

export function runCli(e: CliEnv, args: string[], opts: RunCliOptions = {}): Promise<CliRun> {
  const started = Date.now();
  const cwd = opts.cwd ?? e.cwd;
  const child = spawn(e.bin, args, {
    cwd,
    env: { ...e.env, PWD: cwd, ...opts.env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  let timedOut = false;
  const killGroup = () => {
    if (child.pid) signalGroup(child.pid, 'SIGKILL');
  };
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup();
  }, opts.timeoutMs ?? 180_000);
  return new Promise((resolve, reject) => {
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      // Whatever the CLI started in its group (a shell tool, a helper) ends with it.
      killGroup();
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started, timedOut });
    });
  });
}

/** Parses newline-delimited JSON, skipping lines that are not JSON (banners, warnings). */
export function jsonLines(text: string): Record<string, any>[] {
  const out: Record<string, any>[] = [];
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (!t.startsWith('{')) continue;
    try {
      out.push(JSON.parse(t) as Record<string, any>);
    } catch {}
  }
  return out;
}

/** Parses the first JSON value in text (gemini and qwen may print a warning before it). */
export function firstJson(text: string): any {
  const start = text.search(/[[{]/);
  if (start < 0) throw new Error(`no JSON in output: ${text.slice(0, 300)}`);
  return JSON.parse(text.slice(start));
}

/** A one-line description of a run, for failure messages. */
export function describeRun(r: CliRun): string {
  const tail = (s: string) => s.slice(-1500).replace(/\s+/g, ' ');
  return `exit ${r.code ?? r.signal}${r.timedOut ? ' (timed out)' : ''} after ${r.ms} ms; stdout: ${tail(r.stdout)} | stderr: ${tail(r.stderr)}`;
}
