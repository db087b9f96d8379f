// How a new conversation directory comes to exist: built out of sight under
// `conversations/.new-*` (log header, any copied entries redacted, meta.json) and renamed into
// place, so a crash never leaves a half-made conversation in the list. Shared by creating,
// importing and forking (copied entries).

import { chmodSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { redactEntry } from './redact.js';
import type { Entry } from './types.js';
import { DIR_MODE, TRANSCRIPT_FILE, conversationsDir, ensurePrivateDir, fsyncDir, newConversationId } from './store-home.js';
import type { LogHeader } from './store-log.js';
import { LogWriter, createLog } from './store-log-writer.js';
import { writeMeta, type ConversationMeta } from './store-meta.js';

/**
 * Builds a conversation directory out of sight (`conversations/.new-*`) and renames it
 * into place, so a crash never leaves a half-made conversation in the list.
 */
export async function buildConversation(
  home: string,
  now: Date,
  makeMeta: (id: string) => ConversationMeta,
  makeHeader: (id: string) => LogHeader,
  entries: readonly Entry[],
): Promise<{ id: string; dir: string }> {
  ensurePrivateDir(home);
  const root = conversationsDir(home);
  ensurePrivateDir(root);
  for (let attempt = 0; ; attempt++) {
    const id = newConversationId(now);
    const final = join(root, id);
    if (existsSync(final)) {
      if (attempt > 20) throw new Error(`could not find a free conversation id in ${root}`);
      continue;
    }
    const tmp = join(root, `.new-${id}-${randomBytes(4).toString('hex')}`);
    mkdirSync(tmp, { mode: DIR_MODE });
    chmodSync(tmp, DIR_MODE);
    try {
      const logPath = join(tmp, TRANSCRIPT_FILE);
      createLog(logPath, makeHeader(id));
      if (entries.length) {
        const w = new LogWriter(logPath, { endsWithNewline: true });
        // Copied entries (an import, a fork of a log an older baton wrote) are redacted as
        // committed ones are: a new log never holds a secret.
        w.append(entries.map(redactEntry), false);
        w.close();
      }
      await writeMeta(tmp, makeMeta(id));
      if (existsSync(final)) {
        rmSync(tmp, { recursive: true, force: true });
        continue;
      }
      renameSync(tmp, final);
    } catch (e) {
      rmSync(tmp, { recursive: true, force: true });
      throw e;
    }
    fsyncDir(root);
    return { id, dir: final };
  }
}
