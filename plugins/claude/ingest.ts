// Follows a Claude Code session while it runs in a PTY: the session the launch named
// (`--session-id`, `--resume`, a fork's new id), whose log lives under the config dir's
// projects/<cwd slug>/<id>.jsonl (home.ts), read by log.ts; the following itself is the
// shared session-log follower. Without a session named it follows nothing and says so:
// two claude tabs in one directory cannot be told apart by which log appeared first.

import { followSessionLog, type IngestOptions, type Ingestor, unboundIngest } from '../../src/plugins/kit.js';
import { claudeConfigDir, findSessionLog, projectDir } from './home.js';
import { ClaudeLogParser, recordTime } from './log.js';

export function ingestClaude(opts: IngestOptions): Promise<Ingestor> {
  if (!opts.agentSession) return Promise.resolve(unboundIngest(opts, 'Claude Code was started without a session id baton chose, so baton cannot tell its log from another tab\'s and records nothing from it'));
  const configDir = claudeConfigDir(opts.env, opts.account);
  return followSessionLog(opts, {
    dir: (cwd) => projectDir(configDir, cwd),
    find: (session) => findSessionLog(configDir, opts.cwd, session),
    newParser: () => new ClaudeLogParser(),
    recordTime,
  });
}
