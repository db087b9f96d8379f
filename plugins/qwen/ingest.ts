// Follows a Qwen Code session while it runs in a PTY: its chat logs live one JSONL file per
// session under the runtime dir's chats directory for the project (home.ts), read by
// log.ts; the following itself is the shared session-log follower.

import { followSessionLog, type IngestOptions, type Ingestor } from '../../src/plugins/kit.js';
import { chatsDir, findChatLog, qwenRuntimeDir } from './home.js';
import { QwenLogParser, qwenRecordTime } from './log.js';

export function ingestQwen(opts: IngestOptions): Promise<Ingestor> {
  const runtimeDir = qwenRuntimeDir(opts.env, opts.account);
  return followSessionLog(opts, {
    dir: (cwd) => chatsDir(runtimeDir, cwd),
    find: (session) => findChatLog(runtimeDir, opts.cwd, session),
    newParser: () => new QwenLogParser(),
    recordTime: qwenRecordTime,
  });
}
