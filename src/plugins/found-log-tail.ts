// Following a CLI's session log that has to be looked for before it can be tailed (codex's
// rollouts filed by day, gemini's chat logs filed by project hash): the driver's `find()`
// is asked now and every DISCOVER_MS after until it names a file, which is then tailed as
// JSONL (log-tail.ts, from the last offset only) from where `onFound` says. Looking, not
// watching: the folder the log will land in may not exist yet, and which file is the one
// only its first record tells (firstNewLog picks it by that record). It never writes;
// dispose() ends the looking and the tail.

import { statSync } from 'node:fs';
import { tailJsonl, type LogTail } from './log-tail.js';

/** How often the driver's `find()` is asked until the log appears. */
const DISCOVER_MS = 200;

export interface LogSearch {
  /** The log, once there is one to follow. */
  find(): string | undefined;
  /** Called once, when the log is found; returns the offset to start reading at (default: its top). */
  onFound?(path: string): number | undefined;
  onRecord(record: unknown): void;
  /** A line that is not JSON. */
  onInvalid(): void;
}

export interface FoundLogTail {
  /** The log being followed, once found. */
  readonly path: string | undefined;
  dispose(): Promise<void>;
}

class Search implements FoundLogTail {
  private tail: LogTail | undefined;
  private timer: NodeJS.Timeout | undefined;
  private disposed = false;

  constructor(private readonly search: LogSearch) {}

  get path(): string | undefined {
    return this.tail?.path;
  }

  async look(): Promise<void> {
    if (this.disposed || this.tail) return;
    const path = this.search.find();
    if (!path) {
      this.timer = setTimeout(() => void this.look().catch(() => {}), DISCOVER_MS);
      this.timer.unref();
      return;
    }
    const from = this.search.onFound?.(path) ?? 0;
    const tail = await tailJsonl(path, {
      from,
      onRecord: (record) => this.search.onRecord(record),
      onInvalid: () => this.search.onInvalid(),
    });
    if (this.disposed) await tail.dispose();
    else this.tail = tail;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.tail?.dispose();
  }
}

/** Looks for the log now (and keeps looking), and follows it once found. */
export async function tailLogOnceFound(search: LogSearch): Promise<FoundLogTail> {
  const s = new Search(search);
  await s.look();
  return s;
}

/** What choosing among new logs needs of a log's first record: when its session started. */
export interface LogHeader {
  started: number;
}

/**
 * The log started first at or after `since` among `paths` whose header `belongs` accepts. A
 * log whose header is not complete yet is passed over this time; one that can never be the
 * one (last written before `since`, started before it, or not belonging) is added to
 * `rejected`, so a caller that looks again and again reads each header once.
 */
export function firstNewLog<H extends LogHeader>(
  paths: Iterable<string>,
  since: Date,
  rejected: Set<string>,
  header: (path: string) => H | undefined,
  belongs: (header: H) => boolean,
): { path: string; header: H } | undefined {
  const found: { path: string; header: H }[] = [];
  for (const path of paths) {
    if (rejected.has(path)) continue;
    try {
      if (statSync(path).mtimeMs < since.getTime() - 1000) {
        rejected.add(path);
        continue;
      }
    } catch {
      continue;
    }
    const h = header(path);
    if (!h) continue; // its first line is still being written
    if (h.started < since.getTime() || !belongs(h)) {
      rejected.add(path);
      continue;
    }
    found.push({ path, header: h });
  }
  found.sort((a, b) => a.header.started - b.header.started);
  return found[0];
}
