// A conversation's small metadata (title, created, updated, cwd, base branch, last agent)
// in `meta.json`, through lowdb's JSONFile adapter, kept 0600. Metadata is a convenience
// for listings: the transcript log is the record, so nothing here may be the only copy
// of something that matters after a restart (that belongs in an entry).
// It is the one door of redaction for titles: a title is redacted whenever it is written
// and whenever it is read (a meta.json from before a rule existed), so listings, `show`,
// exports and handoff entries never carry a credential from a first prompt.

import { chmodSync, closeSync, renameSync, rmSync, statSync } from 'node:fs';
import { notePath } from '../fs-failure.js';
import { join } from 'node:path';
import { Low } from 'lowdb';
import type { Adapter } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { FILE_MODE, META_FILE, openPrivate } from './store-home.js';
import { redact } from './redact.js';
import type { LoadProblem } from './store-log.js';
import type { AgentRef, Entry } from './types.js';

export interface ConversationMeta {
  id: string;
  title: string;
  /** ISO-8601. */
  created: string;
  /** ISO-8601: the last time anything was written to the conversation. */
  updated: string;
  /** The directory the conversation was started in. */
  cwd: string;
  baseBranch?: string;
  lastAgent?: AgentRef;
  /** Set by importJsonl: where the entries came from. */
  importedFrom?: { file: string; conversation?: string };
  /** Set for a fork: the conversation and entry it was forked at. */
  forkedFrom?: { conversation: string; seq: number };
  /** A fork into its own git worktree: the branch baton made for it. */
  worktreeBranch?: string;
}

const TITLE_MAX = 60;

/**
 * A conversation's title from its first message: its first line, bounded. Redacted before
 * it is cut, so a key cut in half by the bound is still found whole.
 */
export function titleFrom(prompt: string): string {
  const line = redact(prompt.trim().split('\n')[0]!).replace(/\s+/g, ' ');
  return line.length > TITLE_MAX ? `${line.slice(0, TITLE_MAX - 1)}…` : line;
}

/** The metadata with its title redacted (the same object when there was nothing to hide). */
function redactMeta<T extends { title?: unknown }>(m: T): T {
  if (typeof m.title !== 'string') return m;
  const title = redact(m.title);
  return title === m.title ? m : { ...m, title };
}

/** What callers may change; id and created are fixed at creation. */
export type MetaPatch = Partial<Omit<ConversationMeta, 'id' | 'created'>>;

export interface MetaHandle {
  /** A snapshot; change it through update(). */
  readonly data: Readonly<ConversationMeta>;
  /** Merges `patch`, stamps `updated` (unless the patch sets it) and writes meta.json. */
  update(patch: MetaPatch): Promise<void>;
}

/**
 * lowdb's JSONFile writes through steno: a temp file `.meta.json.tmp` renamed over the
 * target. The temp file is created with the process umask, so it is created first as 0600
 * (writeFile keeps an existing file's mode) and writes are serialized so no second write
 * can create it behind our back. The mode is checked again after each write in case
 * steno ever names its temp file differently.
 */
class PrivateJSONFile<T> implements Adapter<T> {
  private readonly inner: JSONFile<T>;
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly file: string) {
    this.inner = new JSONFile<T>(file);
  }

  read(): Promise<T | null> {
    return this.inner.read();
  }

  write(data: T): Promise<void> {
    const run = this.chain.then(async () => {
      const dir = this.file.slice(0, this.file.lastIndexOf('/'));
      const base = this.file.slice(this.file.lastIndexOf('/') + 1);
      const tmp = join(dir, `.${base}.tmp`);
      closeSync(openPrivate(tmp, 'w'));
      try {
        await this.inner.write(data);
      } catch (e) {
        // A full disk: steno's temp file is left half-written; meta.json itself is untouched.
        rmSync(tmp, { force: true });
        throw notePath(e, tmp);
      }
      if ((statSync(this.file).mode & 0o777) !== FILE_MODE) chmodSync(this.file, FILE_MODE);
    });
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Resolves when every write issued so far has finished. */
  settled(): Promise<void> {
    return this.chain;
  }
}

export interface OpenedMeta {
  handle: MetaHandle;
  /** Waits for outstanding writes. */
  settled(): Promise<void>;
  problems: LoadProblem[];
}

/**
 * Reads meta.json of a conversation directory. A missing or unreadable file gives the
 * defaults and a problem; when `write` is set an unreadable file is moved aside to
 * `meta.json.corrupt-<time>` (kept, never deleted) before anything is written over it.
 */
export async function openMeta(dir: string, defaults: ConversationMeta, opts: { write: boolean; now?: () => Date }): Promise<OpenedMeta> {
  const file = join(dir, META_FILE);
  const adapter = new PrivateJSONFile<ConversationMeta>(file);
  const db = new Low<ConversationMeta>(adapter, { ...defaults });
  const problems: LoadProblem[] = [];
  const now = opts.now ?? (() => new Date());
  try {
    const read = await adapter.read();
    if (read === null) problems.push({ line: 0, kind: 'meta', detail: `${META_FILE} is missing; using defaults` });
    else if (typeof read !== 'object' || Array.isArray(read)) throw new Error('not an object');
    else db.data = redactMeta({ ...defaults, ...read, id: defaults.id });
  } catch {
    let detail = `${META_FILE} is unreadable; using defaults`;
    if (opts.write) {
      const aside = `${file}.corrupt-${now().toISOString().replace(/[:.]/g, '-')}`;
      renameSync(file, aside);
      detail += ` (the old file was kept as ${aside.slice(dir.length + 1)})`;
    }
    problems.push({ line: 0, kind: 'meta', detail });
  }
  const handle: MetaHandle = {
    get data() {
      return db.data;
    },
    async update(patch) {
      if (!opts.write) throw new Error('conversation was opened read-only');
      await db.update((d) => {
        Object.assign(d, redactMeta(patch));
        if (patch.updated === undefined) d.updated = now().toISOString();
      });
    },
  };
  return { handle, settled: () => adapter.settled(), problems };
}

/** Writes a new conversation's meta.json (used inside the not-yet-visible directory). */
export async function writeMeta(dir: string, meta: ConversationMeta): Promise<void> {
  const adapter = new PrivateJSONFile<ConversationMeta>(join(dir, META_FILE));
  await new Low<ConversationMeta>(adapter, redactMeta(meta)).write();
}

/** Metadata writes at sync points are coalesced to at most one per this interval. */
const META_TOUCH_MS = 1000;

/**
 * Keeps meta.json current as entries are stored: the last agent at each handoff, and
 * `updated` at sync points, coalesced to one write per META_TOUCH_MS. A metadata write that
 * fails is kept for the conversation's close() to throw, not thrown at whoever stored the entry.
 */
export class MetaToucher {
  private lastTouch = 0;
  /** The first metadata write that failed, if any. */
  failure: unknown;
  constructor(private readonly meta: MetaHandle) {}

  touch(patch: Partial<ConversationMeta> = {}): void {
    this.lastTouch = Date.now();
    this.meta.update(patch).catch((e: unknown) => (this.failure ??= e));
  }

  stored(entries: readonly Entry[], sync: boolean): void {
    let handoff: Entry | undefined;
    for (const e of entries) if (e.kind === 'handoff') handoff = e;
    if (handoff?.kind === 'handoff') this.touch({ lastAgent: { harness: handoff.to.harness, model: handoff.to.model } });
    else if (sync && Date.now() - this.lastTouch >= META_TOUCH_MS) this.touch();
  }
}
