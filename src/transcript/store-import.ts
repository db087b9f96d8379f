// Importing a conversation: a new conversation from a baton-format JSONL file (an export,
// or another machine's transcript.jsonl), its entries keeping their seqs.

import { existsSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { badInput } from '../errors.js';
import { buildConversation } from './store-build.js';
import { printable } from './store-home.js';
import { FORMAT, FORMAT_VERSION, readLog, type LoadProblem } from './store-log.js';

export interface ImportOptions {
  cwd: string;
  title?: string;
  now?: () => Date;
}

export interface ImportResult {
  id: string;
  /** Entries written to the new conversation (unknown kinds included, verbatim). */
  entries: number;
  /** What was wrong in the source file; damaged lines were not copied. */
  problems: LoadProblem[];
}

/**
 * Starts a new conversation from a baton-format JSONL file (an export, or another
 * machine's transcript.jsonl). Entries keep their seqs, so handoffs, cursors and resets
 * still point at the right entries; damaged lines are reported and left out.
 */
export async function importJsonl(home: string, file: string, opts: ImportOptions): Promise<ImportResult> {
  if (!existsSync(file) || !statSync(file).isFile())
    throw badInput(`no such file ${printable(file)}`, 'give the path of a file written by baton transcript export --format jsonl');
  const src = readLog(file, file);
  if (!src.header && !src.entries.length) {
    throw badInput(`${printable(file)} is not a baton transcript (no header line and no entries)`, 'export one with baton transcript export ID --format jsonl');
  }
  const at = (opts.now ?? (() => new Date()))();
  const iso = at.toISOString();
  const from: { file: string; conversation?: string } = { file };
  if (typeof src.header?.conversation === 'string') from.conversation = src.header.conversation;
  const srcTitle = typeof src.header?.title === 'string' ? src.header.title : undefined;
  const { id } = await buildConversation(
    home,
    at,
    (id) => ({ id, title: opts.title ?? srcTitle ?? `imported from ${basename(file)}`, created: iso, updated: iso, cwd: opts.cwd, importedFrom: from }),
    (id) => ({ format: FORMAT, version: FORMAT_VERSION, conversation: id, created: iso, importedFrom: from }),
    src.entries,
  );
  return { id, entries: src.entries.length, problems: src.problems };
}
