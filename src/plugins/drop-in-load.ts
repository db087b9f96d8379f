// Loading the user's drop-ins under a time limit. A drop-in's top-level code runs when it is
// imported, and JavaScript cannot interrupt a module on the thread that imports it: one
// whose top-level await never settles, or that spins in a loop, would hang every command
// that loads plugins (`chat`, `agents`, `brief`, the TUI). So each drop-in is first imported
// in a worker thread, with a deadline per file. A file that overruns (or ends the worker:
// process.exit) is reported by its path and not loaded; the worker is terminated (that stops
// even a busy loop) and a fresh one goes on with the next file. Only files whose top-level
// code finished there — cleanly or with an error — are then loaded in baton's own thread
// (loader.ts: import, factory, shape check, its problems in its usual words), under the same
// deadline, since code can behave differently the second time (a load that overruns is
// abandoned, never awaited).
//
// What this costs, and what it does not promise: a drop-in's top-level code runs twice (once
// in the check; its output there is discarded), and one worker starts whenever there are
// drop-ins not yet checked under their current stamp. The worker only imports the files:
// it needs neither baton's modules nor a TypeScript loader. Built-ins are baton's own code
// and load directly, at no extra cost. This guards against mistakes, not malice (a drop-in
// runs with the user's rights anyway), and it covers top-level code only: a driver's
// functions, its factory included, run in baton's thread, where an async hang meets a
// deadline (here, `baton chat`'s turn timeout and signals, `detect()`'s limit) but a
// synchronous endless loop cannot be interrupted.

import { Worker } from 'node:worker_threads';
import { listPluginFiles, loadPluginFile, pluginUrl, type LoadedModule, type PluginProblem } from './loader.js';

export const PLUGIN_LOAD_TIMEOUT_ENV = 'BATON_PLUGIN_LOAD_TIMEOUT';
export const PLUGIN_LOAD_TIMEOUT_DEFAULT_MS = 5000;
/** A worker's own start is not the drop-in's time. */
const WORKER_START_MS = 30_000;

type CheckMessage = { i: number; phase: 'start' | 'done' };

// The worker: imports each URL in order and says when it starts and when its top-level code
// finished (an error thrown there is the in-process load's to report). Plain CommonJS, run
// with `eval`, so it has nothing to resolve: the same in the built package and from sources.
// Its timer keeps it alive, so a top-level await left with nothing to settle it meets the
// deadline like any other, and an exit before the end can only be the drop-in's own.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const alive = setInterval(() => {}, 1 << 30);
(async () => {
  for (const [i, url] of workerData.urls.entries()) {
    parentPort.postMessage({ i, phase: 'start' });
    try { await import(url); } catch {}
    parentPort.postMessage({ i, phase: 'done' });
  }
  clearInterval(alive);
})();
`;

/** URLs (path + stamp) that loaded cleanly in a check: importing them again costs nothing. */
const checkedOk = new Set<string>();

/**
 * The per-file deadline from BATON_PLUGIN_LOAD_TIMEOUT (seconds). Unset: 5 s. A value that
 * is not a positive number is a problem naming the variable, and the default is used.
 */
export function pluginLoadTimeout(env: NodeJS.ProcessEnv): { ms: number; problem?: PluginProblem } {
  const raw = env[PLUGIN_LOAD_TIMEOUT_ENV]?.trim();
  if (!raw) return { ms: PLUGIN_LOAD_TIMEOUT_DEFAULT_MS };
  const s = Number(raw);
  if (/^\d+(\.\d+)?$/.test(raw) && s > 0) return { ms: Math.round(s * 1000) };
  return {
    ms: PLUGIN_LOAD_TIMEOUT_DEFAULT_MS,
    problem: {
      path: PLUGIN_LOAD_TIMEOUT_ENV,
      message: `expected a positive number of seconds, got "${raw.slice(0, 40)}"; using ${PLUGIN_LOAD_TIMEOUT_DEFAULT_MS / 1000} s`,
    },
  };
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

function overran(path: string, ms: number, where: string): PluginProblem {
  return {
    path,
    message: `did not finish loading within ${seconds(ms)}${where} (top-level code that never finishes, or keeps running): not loaded; fix the file, or allow more time with ${PLUGIN_LOAD_TIMEOUT_ENV}=SECONDS`,
  };
}

/**
 * Load every drop-in of `dirs` (directories in the order given, files by name) under a
 * deadline of `timeoutMs` per file. Never throws; a file that did not load is a problem.
 */
export async function loadDropIns(dirs: readonly string[], opts: { timeoutMs: number }): Promise<LoadedModule[]> {
  const files = dirs.flatMap((d) => listPluginFiles(d));
  const out: LoadedModule[] = [];
  const stamped: { path: string; url: string }[] = [];
  const urls = new Map<string, string>();
  for (const path of files) {
    const url = pluginUrl(path);
    if (typeof url === 'string') urls.set(path, url);
    if (typeof url === 'string' && !checkedOk.has(url)) stamped.push({ path, url });
  }
  const problems = stamped.length ? await check(stamped, opts.timeoutMs) : new Map<string, PluginProblem>();
  for (const path of files) {
    const url = urls.get(path);
    if (url === undefined) {
      out.push(await loadPluginFile(path)); // unreadable: reported as loadPluginFile words it
      continue;
    }
    const problem = problems.get(path);
    if (problem) {
      out.push({ path, problem });
      continue;
    }
    checkedOk.add(url);
    out.push(
      await withDeadline(loadPluginFile(path, { url }), opts.timeoutMs, () => ({
        path,
        problem: overran(path, opts.timeoutMs, ' in baton (it did when checked)'),
      })),
    );
  }
  return out;
}

function withDeadline<T>(p: Promise<T>, ms: number, onTimeout: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(onTimeout()), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** Imports `files` in worker threads; the problems of those whose top-level code did not finish, by path. */
async function check(files: { path: string; url: string }[], timeoutMs: number): Promise<Map<string, PluginProblem>> {
  const problems = new Map<string, PluginProblem>();
  let next = 0;
  while (next < files.length) next = await checkFrom(files, next, timeoutMs, problems);
  return problems;
}

/**
 * One worker, loading `files` from index `from` on. Resolves with the index to go on from:
 * the end, or the file after the one that overran, crashed the worker or ended it.
 */
function checkFrom(files: { path: string; url: string }[], from: number, timeoutMs: number, problems: Map<string, PluginProblem>): Promise<number> {
  return new Promise((resolve) => {
    // Its output is discarded: the same code prints again when baton imports it.
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { urls: files.slice(from).map((f) => f.url) }, stdout: true, stderr: true });
    worker.stdout.resume();
    worker.stderr.resume();
    let current = -1;
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (nextIndex: number) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.removeAllListeners('exit');
      worker.on('error', () => {}); // late errors of a terminated worker are of no interest
      void worker.terminate();
      resolve(nextIndex);
    };
    const fail = (message: string) => {
      if (current < 0) {
        // The worker itself did not come up: nothing after this point can be checked.
        for (const f of files.slice(from)) problems.set(f.path, { path: f.path, message: `could not be checked before loading (${message}): not loaded` });
        return finish(files.length);
      }
      const f = files[current]!;
      problems.set(f.path, { path: f.path, message });
      finish(current + 1);
    };
    const arm = (ms: number, onTimeout: () => void) => {
      clearTimeout(timer);
      timer = setTimeout(onTimeout, ms);
    };
    arm(WORKER_START_MS, () => fail(`the checking thread did not start within ${seconds(WORKER_START_MS)}`));
    worker.on('message', (m: CheckMessage) => {
      if (settled) return;
      const i = from + m.i;
      if (m.phase === 'start') {
        current = i;
        arm(timeoutMs, () => fail(overran(files[i]!.path, timeoutMs, '').message));
        return;
      }
      if (i === files.length - 1) finish(files.length);
    });
    worker.on('error', (err) => fail(`failed to load: ${(err.message || String(err)).split('\n')[0]}`));
    worker.on('exit', (code) => fail(`ended the thread that loaded it (process.exit(${code})): not loaded`));
  });
}
