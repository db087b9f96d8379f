// Follows a Qwen Code session while it runs in a PTY: the session the launch named
// (`--session-id`, `--resume`), whose chat log is one JSONL file under the runtime dir's
// chats directory for the project (home.ts), read by log.ts; the following itself is the
// shared session-log follower. Without a session named it follows nothing and says so.

import { followSessionLog, type IngestOptions, type Ingestor, unboundIngest } from '../../src/plugins/kit.js';
import { chatsDir, findChatLog, qwenRuntimeDir } from './home.js';
import { QwenLogParser, qwenRecordTime } from './log.js';

export function ingestQwen(opts: IngestOptions): Promise<Ingestor> {
  if (!opts.agentSession)
    return Promise.resolve(
      unboundIngest(
        opts,
        "Qwen Code was started without a session id baton chose, so baton cannot tell its log from another tab's and records nothing from it",
      ),
    );
  const runtimeDir = qwenRuntimeDir(opts.env, opts.account);
  return followSessionLog(opts, {
    dir: (cwd) => chatsDir(runtimeDir, cwd),
    find: (session) => findChatLog(runtimeDir, opts.cwd, session),
    newParser: () => new QwenLogParser(),
    recordTime: qwenRecordTime,
  });
}
