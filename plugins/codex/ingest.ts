// Following and reading codex's own rollouts. ingest(): find the rollout (by thread id, or
// the first one started in the cwd after `since`), then tail it incrementally
// (found-log-tail.ts: looked for until it appears, then read from the last offset; a
// resumed session's earlier records give no events). readSession(): one whole rollout,
// user messages included, for `baton transcript import`. It never writes under CODEX_HOME.

import { statSync } from 'node:fs';
import { badInput, type ImportedSession, type IngestOptions, type Ingestor, readJsonlFile, type ReadSessionOptions, tailLogOnceFound, type TranscriptEvent } from '../../src/plugins/kit.js';
import { codexHome, findNewRollout, findRollout } from './home.js';
import { CodexLogParser } from './log.js';

export async function ingestCodex(opts: IngestOptions): Promise<Ingestor & { readonly logPath: string | undefined }> {
  const { agentSession, cwd, since } = opts;
  const home = codexHome(opts.env, opts.account);
  const parser = new CodexLogParser({ since });
  const rejected = new Set<string>();
  const emit = (events: TranscriptEvent[]) => {
    for (const e of events) opts.onEvent(e);
  };
  const log = await tailLogOnceFound({
    find: () => (agentSession ? findRollout(home, agentSession) : findNewRollout(home, cwd, since, rejected)?.path),
    onFound: (path) => {
      // A known session whose log has not changed since `since` has nothing new in it yet:
      // start at its end rather than reading (and discarding) its whole history.
      let from = 0;
      if (agentSession) {
        try {
          const st = statSync(path);
          if (st.mtimeMs < since.getTime()) from = st.size;
        } catch {
          // gone again: read from the top when it comes back
        }
      }
      // No record from the top will name the session then.
      if (from > 0 && agentSession) emit([{ type: 'session', agentSession }]);
      return from;
    },
    onRecord: (record) => emit(parser.feed(record)),
    onInvalid: () => {
      parser.skipped++;
    },
  });
  return {
    get agentSession() {
      return parser.sessionId ?? agentSession;
    },
    get skipped() {
      return parser.skipped;
    },
    /** The rollout being followed, once found. */
    get logPath() {
      return log.path;
    },
    dispose: () => log.dispose(),
  };
}

function unknownSession(session: string, home: string): Error {
  return badInput(`codex has no session "${session}" under ${home}/sessions`, 'list codex sessions with `codex resume --all` (the id is the UUID), or pass --account if it ran under a baton account');
}

export async function codexSessionLogPath(opts: ReadSessionOptions): Promise<string | undefined> {
  return findRollout(codexHome(opts.env, opts.account), opts.session);
}

export async function readCodexSession(opts: ReadSessionOptions): Promise<ImportedSession> {
  const home = codexHome(opts.env, opts.account);
  if (!/^[0-9a-fA-F-]{8,}$/.test(opts.session)) throw unknownSession(opts.session, home);
  const path = findRollout(home, opts.session);
  if (!path) throw unknownSession(opts.session, home);
  const parser = new CodexLogParser();
  const events: TranscriptEvent[] = [];
  await readJsonlFile(
    path,
    (record) => {
      for (const e of parser.feed(record)) if (e.type !== 'session') events.push(e);
    },
    () => parser.skipped++,
  );
  return {
    agentSession: parser.sessionId ?? opts.session,
    ...(parser.model ? { model: parser.model } : {}),
    ...(parser.cwd ? { cwd: parser.cwd } : {}),
    events,
    skipped: parser.skipped,
    logPath: path,
  };
}
