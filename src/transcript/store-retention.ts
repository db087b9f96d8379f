// Retention: conversations untouched for longer than a setting (BATON_RETENTION_DAYS,
// default 90) are deleted, at start-up (pruneAtStartup) or on request (prune). Each one
// is deleted only while holding its writer lock, so a conversation open in a live baton
// is never pruned. What was pruned is returned (with its cwd, so the caller can remove
// the conversation's checkpoint refs from that repository) and appended to
// `$BATON_HOME/prune.log`. It must never delete anything but whole conversation
// directories and its own leftovers.

import { randomBytes } from 'node:crypto';
import { closeSync, readdirSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { BatonError, badInput } from '../errors.js';
import {
  META_FILE,
  PRUNE_LOG,
  TRANSCRIPT_FILE,
  compareIds,
  conversationsDir,
  ensurePrivateDir,
  isConversationId,
  openPrivate,
  printable,
} from './store-home.js';
import { acquireLock, lockHolder } from './store-lock.js';
import type { Lock } from './store-lock.js';
import { openMeta } from './store-meta.js';

export const DEFAULT_RETENTION_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Leftovers of an interrupted create or prune are removed once they are this old. */
const LEFTOVER_MS = DAY_MS;

export interface PrunedConversation {
  id: string;
  title: string;
  /** Where the conversation ran: its repository holds the checkpoint refs to remove. */
  cwd: string;
  /** When it was last written to. */
  updated: string;
}

export interface PruneResult {
  olderThanDays: number;
  /** Deleted (or, with dryRun, that would be). */
  pruned: PrunedConversation[];
  /** Old enough, but open in a live baton: kept. */
  skippedOpen: string[];
}

export interface PruneOptions {
  olderThanDays: number;
  now?: Date;
  /** Report what would be pruned without deleting or logging anything. */
  dryRun?: boolean;
}

/**
 * BATON_RETENTION_DAYS: unset or empty -> 90; "never" or "off" -> undefined (no pruning);
 * otherwise a whole number of days >= 1. Anything else is exit 2 rather than a guess, since
 * a misread value deletes conversations.
 */
export function retentionDays(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env.BATON_RETENTION_DAYS?.trim();
  if (raw === undefined || raw === '') return DEFAULT_RETENTION_DAYS;
  if (/^(never|off)$/i.test(raw)) return undefined;
  if (/^\d+$/.test(raw)) {
    const n = Number(raw);
    if (n >= 1 && n <= 1_000_000) return n;
  }
  throw badInput(
    `BATON_RETENTION_DAYS must be a whole number of days (at least 1) or "never" (got "${printable(raw)}")`,
    `unset it to keep conversations ${DEFAULT_RETENTION_DAYS} days`,
  );
}

/** What the CLI calls at start-up: prunes by BATON_RETENTION_DAYS; undefined when retention is off. */
export async function pruneAtStartup(home: string, env: NodeJS.ProcessEnv = process.env, now = new Date()): Promise<PruneResult | undefined> {
  const days = retentionDays(env);
  if (days === undefined) return undefined;
  return prune(home, { olderThanDays: days, now });
}

async function lastTouched(dir: string, id: string): Promise<{ updated: Date; title: string; cwd: string } | undefined> {
  let t: number;
  try {
    t = statSync(join(dir, TRANSCRIPT_FILE)).mtimeMs;
  } catch {
    return undefined;
  }
  try {
    t = Math.max(t, statSync(join(dir, META_FILE)).mtimeMs);
  } catch {
    // no meta: the log's time is enough
  }
  const { handle } = await openMeta(dir, { id, title: '', created: '', updated: '', cwd: '' }, { write: false });
  const m = handle.data;
  const metaUpdated = Date.parse(m.updated);
  if (Number.isFinite(metaUpdated)) t = Math.max(t, metaUpdated);
  return { updated: new Date(t), title: m.title, cwd: m.cwd };
}

/** Deletes conversations untouched for more than `olderThanDays` days, never one that is open. */
export async function prune(home: string, opts: PruneOptions): Promise<PruneResult> {
  const days = opts.olderThanDays;
  if (!Number.isFinite(days) || days <= 0) throw badInput(`prune age must be a positive number of days (got ${String(days)})`);
  const now = opts.now ?? new Date();
  const cutoff = now.getTime() - days * DAY_MS;
  const result: PruneResult = { olderThanDays: days, pruned: [], skippedOpen: [] };
  const root = conversationsDir(home);
  let names: string[];
  try {
    names = readdirSync(root);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return result;
    throw e;
  }
  for (const name of names.sort(compareIds)) {
    const dir = join(root, name);
    if (!isConversationId(name)) {
      if (!opts.dryRun) removeLeftover(dir, name, now);
      continue;
    }
    const seen = await lastTouched(dir, name);
    if (!seen || seen.updated.getTime() > cutoff) continue;
    if (lockHolder(dir)?.state === 'live') {
      result.skippedOpen.push(name);
      continue;
    }
    if (opts.dryRun) {
      result.pruned.push({ id: name, title: seen.title, cwd: seen.cwd, updated: seen.updated.toISOString() });
      continue;
    }
    let lock: Lock;
    try {
      lock = acquireLock(dir, name);
    } catch (e) {
      if (e instanceof BatonError) {
        result.skippedOpen.push(name);
        continue;
      }
      throw e;
    }
    try {
      // Whoever held it last may have written since we looked.
      const again = await lastTouched(dir, name);
      if (!again || again.updated.getTime() > cutoff) continue;
      // Renamed out of the list first, so an interrupted delete never leaves half a conversation.
      const trash = join(root, `.trash-${name}-${randomBytes(4).toString('hex')}`);
      renameSync(dir, trash);
      rmSync(trash, { recursive: true, force: true });
      const p: PrunedConversation = { id: name, title: again.title, cwd: again.cwd, updated: again.updated.toISOString() };
      result.pruned.push(p);
      logPruned(home, now, p, days);
    } finally {
      lock.release();
    }
  }
  return result;
}

function logPruned(home: string, now: Date, p: PrunedConversation, days: number) {
  ensurePrivateDir(home);
  const fd = openPrivate(join(home, PRUNE_LOG), 'a');
  try {
    writeSync(
      fd,
      JSON.stringify({ at: now.toISOString(), pruned: p.id, title: p.title, cwd: p.cwd, updated: p.updated, reason: `untouched for more than ${days} days` }) +
        '\n',
    );
  } finally {
    closeSync(fd);
  }
}

function removeLeftover(dir: string, name: string, now: Date) {
  if (!name.startsWith('.new-') && !name.startsWith('.trash-')) return;
  try {
    if (now.getTime() - statSync(dir).mtimeMs > LEFTOVER_MS || name.startsWith('.trash-')) rmSync(dir, { recursive: true, force: true });
  } catch {
    // someone else cleaned it up
  }
}
