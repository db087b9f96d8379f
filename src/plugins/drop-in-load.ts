// Loading the user's drop-ins under a time limit. A drop-in's top-level code runs when it is
// imported, and JavaScript cannot interrupt a module on the thread that imports it: one
// whose top-level await never settles, or that spins in a loop, would hang every command
// that loads plugins (`chat`, `agents`, `brief`, the TUI). So each drop-in is first loaded
// in a worker thread (drop-in-check-worker.ts) — imported, its factory called, its shape
// checked, exactly as below — with a deadline per file. A file that overruns is reported
// by its path and not loaded; the worker is terminated (that stops even a busy loop) and a
// fresh one goes on with the next file. Only the files that loaded cleanly there are then
// imported in baton's own thread, under the same deadline, since code can behave
// differently the second time (a pending import that overruns is abandoned, never awaited).
//
// What this costs, and what it does not promise: a drop-in's top-level code runs twice
// (once in the check; its output there is discarded), and one worker starts whenever there
// are drop-ins not yet checked under their current stamp. Built-ins are baton's own code and
// load directly, at no extra cost. This guards against mistakes, not malice (a drop-in runs
// with the user's rights anyway), and it covers loading only: a driver's functions run in
// baton's thread, where their callers keep their own time limits (`baton chat`'s turn
// timeout and signals, the deadline on `detect()`).

import { Worker } from 'node:worker_threads';
import { listPluginFiles, loadPluginFile, pluginUrl, type LoadedModule, type PluginProblem } from './loader.js';
import type { CheckMessage, CheckRequest } from './drop-in-check-worker.js';

export const PLUGIN_LOAD_TIMEOUT_ENV = 'BATON_PLUGIN_LOAD_TIMEOUT';
export const PLUGIN_LOAD_TIMEOUT_DEFAULT_MS = 5000;
/** A worker's own start (Node, baton's loader and the kit) is not the drop-in's time. */
const WORKER_START_MS = 30_000;

const fromSource = import.meta.url.endsWith('.ts');
const workerUrl = new URL(`./drop-in-check-worker.${fromSource ? 'ts' : 'js'}`, import.meta.url);

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
    problem: { path: PLUGIN_LOAD_TIMEOUT_ENV, message: `expected a positive number of seconds, got "${raw.slice(0, 40)}"; using ${PLUGIN_LOAD_TIMEOUT_DEFAULT_MS / 1000} s` },
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
    out.push(await withDeadline(loadPluginFile(path, { url }), opts.timeoutMs, () => ({ path, problem: overran(path, opts.timeoutMs, ' in baton (it did when checked)') })));
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

function startWorker(request: CheckRequest): Worker {
  const opts = { workerData: request, stdout: true, stderr: true };
  if (!fromSource) return new Worker(workerUrl, opts);
  // Run from the TypeScript sources (the tests, under tsx): on Node 20 a worker does not
  // inherit tsx's module hooks, so it registers them before importing the worker module.
  // Both of tsx's hooks, as `node --import tsx` has in this thread (CommonJS included:
  // without it a `.js` drop-in is read differently in the worker).
  const [cjs, esm] = [import.meta.resolve('tsx/cjs'), import.meta.resolve('tsx/esm/api')];
  const boot = `import(${JSON.stringify(cjs)}).then(() => import(${JSON.stringify(esm)})).then((m) => m.register()).then(() => import(${JSON.stringify(workerUrl.href)}))`;
  return new Worker(boot, { ...opts, eval: true });
}

/** Loads `files` in worker threads; the problems of those that did not load cleanly, by path. */
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
    const request: CheckRequest = { files: files.slice(from) };
    // Its output is discarded: the same code prints again when baton imports it.
    const worker = startWorker(request);
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
      if (m.problem) problems.set(files[i]!.path, m.problem);
      if (i === files.length - 1) finish(files.length);
    });
    worker.on('error', (err) => fail(`failed to load: ${(err.message || String(err)).split('\n')[0]}`));
    worker.on('exit', (code) =>
      // 13: the worker's module ended with a top-level await pending and nothing left to settle it.
      fail(code === 13 ? 'its top-level await can never finish (nothing is left that could settle it): not loaded' : `ended the thread that loaded it (exit code ${code}, process.exit?): not loaded`),
    );
  });
}
