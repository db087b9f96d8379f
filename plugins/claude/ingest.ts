// Follows a Claude Code session while it runs in a PTY: its logs live one JSONL file per
// session under the config dir's projects/<cwd slug>/ (home.ts), read by
// log.ts; the following itself is the shared session-log follower.

import { followSessionLog, type IngestOptions, type Ingestor } from '../../src/plugins/kit.js';
import { claudeConfigDir, findSessionLog, projectDir } from './home.js';
import { ClaudeLogParser, recordTime } from './log.js';

export function ingestClaude(opts: IngestOptions): Promise<Ingestor> {
  const configDir = claudeConfigDir(opts.env, opts.account);
  return followSessionLog(opts, {
    dir: (cwd) => projectDir(configDir, cwd),
    find: (session) => findSessionLog(configDir, opts.cwd, session),
    newParser: () => new ClaudeLogParser(),
    recordTime,
  });
}
