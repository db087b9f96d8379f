// The worker thread of drop-in-load.ts: loads each drop-in it is given, in order, exactly
// as baton will (import, factory, shape check), and posts what came of each. It exists so
// that a drop-in whose top-level code never finishes, or spins, does so here, where the
// parent can terminate the thread, and not in baton's own. It never hands a driver back
// (functions cannot cross threads): only whether the file loaded, or its problem.

import { parentPort, workerData } from 'node:worker_threads';
import { loadPluginFile } from './loader.js';

export interface CheckRequest {
  files: { path: string; url: string }[];
}

export type CheckMessage = { i: number; phase: 'start' } | { i: number; phase: 'done'; problem?: { path: string; message: string } };

const { files } = workerData as CheckRequest;
const post = (m: CheckMessage) => parentPort!.postMessage(m);
for (const [i, f] of files.entries()) {
  post({ i, phase: 'start' });
  const m = await loadPluginFile(f.path, { url: f.url });
  post(m.problem ? { i, phase: 'done', problem: { path: m.problem.path, message: m.problem.message } } : { i, phase: 'done' });
}
