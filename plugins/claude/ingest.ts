// Follows a Claude Code session while it runs in a PTY: the session the launch named
// (`--session-id`, `--resume`, a fork's new id), whose log lives under the config dir's
// projects/<cwd slug>/<id>.jsonl (home.ts), read by log.ts; the following itself is the
// shared session-log follower. Without a session named it follows nothing and says so:
// two claude tabs in one directory cannot be told apart by which log appeared first.
// /clear (or /resume) typed in the pane moves the same process to another session: Claude
// Code keeps the current session of each of its processes in sessions/<pid>.json, so the
// session the tab's own process is in is read there (current-session.ts) and followed when
// it changes, never guessed from which log appeared.

import { followSessionLog, followSessionSwitches, type IngestOptions, type Ingestor, unboundIngest } from '../../src/plugins/kit.js';
import { currentClaudeSession } from './current-session.js';
import { claudeConfigDir, findSessionLog, projectDir } from './home.js';
import { ClaudeLogParser, recordTime } from './log.js';

export function ingestClaude(opts: IngestOptions): Promise<Ingestor> {
  const named = opts.agentSession;
  if (!named)
    return Promise.resolve(
      unboundIngest(
        opts,
        "Claude Code was started without a session id baton chose, so baton cannot tell its log from another tab's and records nothing from it",
      ),
    );
  const configDir = claudeConfigDir(opts.env, opts.account);
  const follow = (session: string = named) =>
    followSessionLog(
      { ...opts, agentSession: session },
      {
        dir: (cwd) => projectDir(configDir, cwd),
        find: (id) => findSessionLog(configDir, opts.cwd, id),
        newParser: () => new ClaudeLogParser(),
        recordTime,
      },
    );
  const group = opts.processGroup;
  if (!group) return follow(named);
  return followSessionSwitches(opts, named, {
    dir: currentClaudeSession.dir(configDir),
    current: () => {
      const g = group();
      return g === undefined ? undefined : currentClaudeSession(configDir, g);
    },
    follow,
    notice: (_from, to) =>
      `Claude Code moved to another session of its own (${to}: /clear or /resume in its pane). This conversation goes on with it; what Claude Code remembers from now on is that session's.`,
  });
}
