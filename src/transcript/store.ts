// The durable store of canonical transcripts: one directory per conversation under
// `$BATON_HOME/conversations/`, holding `transcript.jsonl` (the record), `meta.json`
// (listing conveniences) and, while a writer has it open, `lock`. This module opens
// and creates conversations and re-exports the rest of the store's API; the format, the
// lock, the metadata, listing, retention, building a new directory and importing live in
// the store-*.ts modules next to it. See docs/transcript-format.md.
// It must never rewrite a transcript log, and never write one without holding its lock.

import { chmodSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { badInput } from '../errors.js';
import { Transcript } from './transcript.js';
import type { Entry, UserAuthor } from './types.js';
import {
  DIR_MODE,
  TRANSCRIPT_FILE,
  compareIds,
  conversationDir,
  conversationsDir,
  fsyncDir,
  isConversationId,
  noConversation,
  printable,
} from './store-home.js';
import { FORMAT, FORMAT_VERSION, readLog } from './store-log.js';
import { LogWriter, appendHeader } from './store-log-writer.js';
import type { LoadProblem, LogRead } from './store-log.js';
import { acquireLock } from './store-lock.js';
import type { Lock } from './store-lock.js';
import { MetaToucher, openMeta } from './store-meta.js';
import type { ConversationMeta, MetaHandle, OpenedMeta } from './store-meta.js';
import { buildConversation } from './store-build.js';

export { resolveHome, isConversationId, newConversationId, ensurePrivateDir, makeDirs } from './store-home.js';
export { formatProblem, FORMAT, FORMAT_VERSION } from './store-log.js';
export type { LoadProblem, ProblemKind, LogHeader } from './store-log.js';
export type { ConversationMeta, MetaHandle, MetaPatch } from './store-meta.js';
export { titleFrom } from './store-meta.js';
export { prune, pruneAtStartup, retentionDays } from './store-retention.js';
export type { PruneResult, PrunedConversation } from './store-retention.js';
export { listConversations, lastSeqOf } from './store-list.js';
export { importJsonl } from './store-import.js';
export type { ImportOptions, ImportResult } from './store-import.js';
export type { ConversationSummary } from './store-list.js';

export interface OpenOptions {
  /** Take the writer lock and attach the store's sink to the transcript. */
  write: boolean;
  /** Author of user messages that arrive without one; defaults to the last user author in the log. */
  user?: UserAuthor;
  now?: () => Date;
}

export interface CreateOptions {
  cwd: string;
  title?: string;
  user: UserAuthor;
  baseBranch?: string;
  now?: () => Date;
  /** Entries the new conversation starts with, seqs kept (a fork of another conversation). */
  entries?: readonly Entry[];
  /** Where a fork came from, kept in its metadata. */
  forkedFrom?: { conversation: string; seq: number };
}

export interface OpenConversation {
  readonly id: string;
  readonly dir: string;
  readonly writable: boolean;
  /** With `write`, every committed entry is appended to transcript.jsonl; sync points are fsynced. */
  readonly transcript: Transcript;
  readonly meta: MetaHandle;
  /** What loading found wrong, for the CLI to print (formatProblem). */
  readonly problems: readonly LoadProblem[];
  /** Writes and fsyncs everything committed so far (entries are otherwise fsynced at sync points). */
  sync(): void;
  /** Flushes, fsyncs, waits for metadata writes, releases the lock. Safe to call twice. */
  close(): Promise<void>;
  /**
   * For a conversation this process created (createConversation): when no user message
   * reached its log (the command failed before anything of the user's was recorded: an
   * agent not installed, a full disk), removes it, lock and all, so no empty
   * conversation is left behind; returns whether it did. Otherwise only closes it.
   */
  discardIfUnused(): Promise<boolean>;
}

// Writers still open when the process exits get their buffered lines written and their
// lock removed, so an ordinary exit without close() neither loses entries nor leaves a lock.
const openWriters = new Set<{ closeSync(): void }>();
let exitHookInstalled = false;
function registerWriter(w: { closeSync(): void }) {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const o of openWriters) {
        try {
          o.closeSync();
        } catch {
          // Exiting anyway; the next open reports whatever was left.
        }
      }
    });
  }
  openWriters.add(w);
}

/** Finds the directory for a user-given id or unique id prefix; throws exit 2 otherwise. */
export function findConversation(home: string, idOrPrefix: string): { id: string; dir: string } {
  const dir = conversationDir(home, idOrPrefix);
  if (existsSync(dir)) return { id: idOrPrefix, dir };
  let names: string[];
  try {
    names = readdirSync(conversationsDir(home));
  } catch (e) {
    // Missing: nothing was ever stored. Anything else (permission denied, ...) says so itself.
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw noConversation(idOrPrefix);
    throw e;
  }
  const hits = names.filter((n) => isConversationId(n) && n.startsWith(idOrPrefix));
  if (hits.length === 1) return { id: hits[0]!, dir: join(conversationsDir(home), hits[0]!) };
  if (hits.length > 1) {
    hits.sort(compareIds);
    throw badInput(
      `conversation id ${printable(idOrPrefix)} is ambiguous: ${hits.slice(0, 5).join(', ')}${hits.length > 5 ? ', ...' : ''}`,
      'give more of the id',
    );
  }
  throw noConversation(idOrPrefix);
}

/** Opens a conversation by id (or unique prefix). With `write`, takes its lock: exit 5 if another baton has it. */
export async function openConversation(home: string, idOrPrefix: string, opts: OpenOptions): Promise<OpenConversation> {
  const { id, dir } = findConversation(home, idOrPrefix);
  let lock: Lock | undefined;
  if (opts.write) {
    // A directory copied in with loose modes is tightened before anything is written to it.
    if ((statSync(dir).mode & 0o777) !== DIR_MODE) chmodSync(dir, DIR_MODE);
    lock = acquireLock(dir, id);
  }
  try {
    return await openDir(dir, id, opts, lock);
  } catch (e) {
    lock?.release();
    throw e;
  }
}

/** The same as openConversation(..., { write: false }): no lock, no sink. */
export function readConversation(home: string, idOrPrefix: string, opts: Omit<OpenOptions, 'write'> = {}): Promise<OpenConversation> {
  return openConversation(home, idOrPrefix, { ...opts, write: false });
}

async function openDir(dir: string, id: string, opts: OpenOptions & { created?: boolean }, lock: Lock | undefined): Promise<OpenConversation> {
  const now = opts.now ?? (() => new Date());
  const { logPath, log, meta, problems, endsWithNewline } = await loadDir(dir, id, opts.write, now);
  const user = opts.user ?? lastUser(log.entries);
  let writer: LogWriter | undefined;
  const toucher = new MetaToucher(meta.handle);
  const sink = (entries: readonly Entry[], o: { sync: boolean }) => {
    writer!.append(entries, o.sync);
    toucher.stored(entries, o.sync);
  };
  if (opts.write) writer = new LogWriter(logPath, { endsWithNewline });
  const transcript = new Transcript({ id, entries: log.entries, sink: opts.write ? sink : undefined, now, ...(user ? { user } : {}) });

  let closed = false;
  const appendedSinceOpen = () => transcript.lastSeq !== (log.entries.at(-1)?.seq ?? 0);
  const closeNow = () => {
    if (closed) return;
    closed = true;
    openWriters.delete(handle);
    try {
      writer?.close();
    } finally {
      lock?.release();
    }
  };
  const handle = { closeSync: closeNow };
  if (opts.write) registerWriter(handle);

  const conv: OpenConversation = {
    id,
    dir,
    writable: opts.write,
    transcript,
    meta: {
      get data() {
        return meta.handle.data;
      },
      update: (patch) => (closed ? Promise.reject(new Error(`conversation ${id} is closed`)) : meta.handle.update(patch)),
    },
    problems,
    sync() {
      writer?.sync();
    },
    async close() {
      if (closed) return;
      try {
        transcript.flush();
        writer?.sync();
        if (opts.write && appendedSinceOpen()) toucher.touch();
        await meta.settled();
      } finally {
        closeNow();
      }
      if (toucher.failure !== undefined) throw toucher.failure;
    },
    async discardIfUnused() {
      if (!opts.created || closed || userMessageOnDisk(logPath, id, transcript, writer)) {
        await conv.close();
        return false;
      }
      await meta.settled().catch(() => undefined);
      closed = true;
      openWriters.delete(handle);
      try {
        writer?.close();
      } catch {
        // The write that failed is what made the command fail; the directory goes anyway.
      }
      // Still holding the lock: nobody can have opened it meanwhile. The lock goes with the directory.
      rmSync(dir, { recursive: true, force: true });
      fsyncDir(dirname(dir));
      return true;
    },
  };
  return conv;
}

/**
 * What a conversation directory holds: its log (read, and checked to be this conversation's)
 * and its metadata, with what was found wrong with either. Opened for writing, a log left
 * without even its header gets one before the first entry, so that it does not read as
 * headerless on every load from now on (the load still reports it, this once).
 */
async function loadDir(
  dir: string,
  id: string,
  write: boolean,
  now: () => Date,
): Promise<{ logPath: string; log: LogRead; meta: OpenedMeta; problems: LoadProblem[]; endsWithNewline: boolean }> {
  const logPath = join(dir, TRANSCRIPT_FILE);
  if (!existsSync(logPath)) throw badInput(`conversation ${id} has no transcript (${logPath} is missing)`, `restore the file, or remove ${dir}`);
  const log = readLog(logPath, `conversation ${id}`);
  const problems: LoadProblem[] = [...log.problems];
  if (log.header && log.header.conversation !== id) {
    problems.unshift({ line: 1, kind: 'header', detail: `header names conversation ${printable(String(log.header.conversation))}, not ${id}` });
  }
  const created = typeof log.header?.created === 'string' ? log.header.created : statSync(logPath).mtime.toISOString();
  const defaults: ConversationMeta = { id, title: '', created, updated: created, cwd: '' };
  const meta = await openMeta(dir, defaults, { write, now });
  problems.push(...meta.problems);

  let endsWithNewline = log.endsWithNewline;
  if (write && log.empty) {
    appendHeader(logPath, { format: FORMAT, version: FORMAT_VERSION, conversation: id, created: meta.handle.data.created }, { endsWithNewline });
    endsWithNewline = true;
  }
  return { logPath, log, meta, problems, endsWithNewline };
}

/**
 * Whether a user message of this conversation reached its log. What is on disk decides, not
 * what is in memory: a message that did not reach the file (a full disk) is not kept anywhere.
 */
function userMessageOnDisk(logPath: string, id: string, transcript: Transcript, writer: LogWriter | undefined): boolean {
  try {
    transcript.flush();
    writer?.sync();
  } catch {
    // The write that failed is what made the command fail; the file says what is kept.
  }
  try {
    return readLog(logPath, `conversation ${id}`).entries.some((e) => e.kind === 'user_message');
  } catch {
    // Unreadable: keep it, whatever it holds.
    return true;
  }
}

function lastUser(entries: readonly Entry[]): UserAuthor | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const a = entries[i]!.author;
    if (entries[i]!.kind === 'user_message' && a.type === 'user') return a;
  }
  return undefined;
}

/** Creates a new, empty conversation and opens it for writing (lock held). */
export async function createConversation(home: string, opts: CreateOptions): Promise<OpenConversation> {
  const nowFn = opts.now ?? (() => new Date());
  const at = nowFn();
  const iso = at.toISOString();
  const { id, dir } = await buildConversation(
    home,
    at,
    (id) => {
      const m: ConversationMeta = { id, title: opts.title ?? '', created: iso, updated: iso, cwd: opts.cwd };
      if (opts.baseBranch) m.baseBranch = opts.baseBranch;
      if (opts.forkedFrom) m.forkedFrom = opts.forkedFrom;
      return m;
    },
    (id) => ({ format: FORMAT, version: FORMAT_VERSION, conversation: id, created: iso }),
    opts.entries ?? [],
  );
  let lock: Lock;
  try {
    lock = acquireLock(dir, id);
  } catch (e) {
    // Made a moment ago and known to no one yet (a full disk refused the lock file).
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  try {
    return await openDir(dir, id, { write: true, user: opts.user, now: nowFn, created: true }, lock);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}
