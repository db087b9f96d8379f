// Listing conversations cheaply: metadata plus the last entry's seq, read from the tail
// of each log, never the whole log. Reads only; it takes no lock and writes nothing.

import { closeSync, fstatSync, openSync, readSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { TRANSCRIPT_FILE, compareIds, conversationsDir, isConversationId } from './store-home.js';
import { FORMAT } from './store-log.js';
import { lockHolder } from './store-lock.js';
import { openMeta } from './store-meta.js';

export interface ConversationSummary {
  id: string;
  title: string;
  created: string;
  /** The later of meta's `updated` and the log's mtime. */
  updated: string;
  cwd: string;
  /** The seq of the last entry: the entry count unless lines were lost. Read from the log's tail, not the whole log. */
  entries: number;
  /** A live baton holds the writer lock. */
  open: boolean;
  lastAgent?: { harness: string; model: string };
}

/** All conversations, most recently updated first. Reads metadata and each log's tail only. */
export async function listConversations(home: string): Promise<ConversationSummary[]> {
  let names: string[];
  try {
    names = readdirSync(conversationsDir(home));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const out: ConversationSummary[] = [];
  for (const id of names) {
    if (!isConversationId(id)) continue;
    const dir = join(conversationsDir(home), id);
    const logPath = join(dir, TRANSCRIPT_FILE);
    let mtime: Date;
    try {
      mtime = statSync(logPath).mtime;
    } catch {
      continue; // pruned while we looked, or not a conversation
    }
    const { handle } = await openMeta(dir, { id, title: '', created: mtime.toISOString(), updated: mtime.toISOString(), cwd: '' }, { write: false });
    const m = handle.data;
    const s: ConversationSummary = {
      id,
      title: m.title,
      created: m.created,
      updated: laterOf(m.updated, mtime),
      cwd: m.cwd,
      entries: lastSeqOf(logPath),
      open: lockHolder(dir)?.state === 'live',
    };
    if (m.lastAgent) s.lastAgent = m.lastAgent;
    out.push(s);
  }
  return out.sort((a, b) => (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : compareIds(b.id, a.id)));
}

export function laterOf(iso: string, d: Date): string {
  const t = Date.parse(iso);
  return Number.isFinite(t) && t > d.getTime() ? new Date(t).toISOString() : d.toISOString();
}

/** The seq of the last readable entry, reading backwards from the end in growing windows. */
export function lastSeqOf(path: string): number {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    for (let window = 64 * 1024; ; window *= 4) {
      const start = Math.max(0, size - window);
      const buf = Buffer.allocUnsafe(size - start);
      let got = 0;
      while (got < buf.length) {
        const n = readSync(fd, buf, got, buf.length - got, start + got);
        if (n === 0) break;
        got += n;
      }
      const lines = buf.toString('utf8', 0, got).split('\n');
      // The first line of a window that does not start at 0 may be cut.
      for (let i = lines.length - 1; i >= (start > 0 ? 1 : 0); i--) {
        const line = lines[i]!;
        if (!line.trim()) continue;
        try {
          const o = JSON.parse(line) as { seq?: unknown };
          if (typeof o.seq === 'number' && Number.isInteger(o.seq)) return o.seq;
          if ((o as { format?: unknown }).format === FORMAT) return 0;
        } catch {
          // a torn or corrupt line: look further back
        }
      }
      if (start === 0) return 0;
    }
  } finally {
    closeSync(fd);
  }
}
