// Follows a Claude Code session while it runs in a PTY: its logs live one JSONL file per
// session under the config dir's projects/<cwd slug>/ (claude-home.ts), read by
// claude-log.ts; the following itself is the shared session-log follower.

import type { IngestOptions, Ingestor } from '../src/plugins/api.js';
import { followSessionLog } from '../src/plugins/session-log-follower.js';
import { claudeConfigDir, findSessionLog, projectDir } from './claude-home.js';
import { ClaudeLogParser, recordTime } from './claude-log.js';

export function ingestClaude(opts: IngestOptions): Promise<Ingestor> {
  const configDir = claudeConfigDir(opts.env, opts.account);
  return followSessionLog(opts, {
    dir: (cwd) => projectDir(configDir, cwd),
    find: (session) => findSessionLog(configDir, opts.cwd, session),
    newParser: () => new ClaudeLogParser(),
    recordTime,
  });
}
