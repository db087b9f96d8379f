// Follows a Qwen Code session while it runs in a PTY: its chat logs live one JSONL file per
// session under the runtime dir's chats directory for the project (qwen-home.ts), read by
// qwen-log.ts; the following itself is the shared session-log follower.

import type { IngestOptions, Ingestor } from '../src/plugins/api.js';
import { followSessionLog } from '../src/plugins/session-log-follower.js';
import { chatsDir, findChatLog, qwenRuntimeDir } from './qwen-home.js';
import { QwenLogParser, qwenRecordTime } from './qwen-log.js';

export function ingestQwen(opts: IngestOptions): Promise<Ingestor> {
  const runtimeDir = qwenRuntimeDir(opts.env, opts.account);
  return followSessionLog(opts, {
    dir: (cwd) => chatsDir(runtimeDir, cwd),
    find: (session) => findChatLog(runtimeDir, opts.cwd, session),
    newParser: () => new QwenLogParser(),
    recordTime: qwenRecordTime,
  });
}
