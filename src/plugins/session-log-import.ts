// Reads one whole session log of a CLI that keeps a JSONL log per session (Claude Code,
// Qwen Code: the ones session-log-follower.ts follows) for `baton transcript import`,
// through the CLI's own parser, user messages included. Finding the log and saying that
// there is none stay with the driver. It never writes the log.

import type { ImportedSession, TranscriptEvent } from './api.js';
import { readJsonlFile } from './json-lines.js';
import type { LogParser } from './session-log-follower.js';

/** A log parser that also learns, from the records, the session's model and directory. */
export interface ImportingLogParser extends LogParser {
  readonly model?: string | undefined;
  readonly cwd?: string | undefined;
}

export async function importSessionLog(path: string, session: string, parser: ImportingLogParser): Promise<ImportedSession> {
  const events: TranscriptEvent[] = [];
  let invalid = 0;
  await readJsonlFile(
    path,
    (record) => events.push(...parser.parse(record)),
    () => invalid++,
  );
  events.push(...(parser.end?.() ?? []));
  const out: ImportedSession = { agentSession: session, events, skipped: parser.skipped + invalid, logPath: path };
  if (parser.model) out.model = parser.model;
  if (parser.cwd) out.cwd = parser.cwd;
  return out;
}
