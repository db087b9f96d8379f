// Following and reading codex's own rollouts. ingest(): find the rollout of the run's own
// thread — the one it resumes, by id; a fresh or forked run's, which codex names itself, by
// the thread lock its process holds open (bind.ts), never by which rollout appeared first —
// then tail it incrementally (found-log-tail.ts: looked for until it appears, then read from
// the last offset only; a resumed session's earlier records give no events). readSession():
// one whole rollout, user messages included, for `baton transcript import`. It never writes
// under CODEX_HOME. `/new` (or `/resume`) typed in the TUI moves the same process to another
// thread, whose lock it takes beside the first one's: the thread that newly appears among
// the locks the tab's own process holds is followed from then on (followSessionSwitches),
// after a notice, in the same transcript.

import { statSync } from 'node:fs';
import { join } from 'node:path';
import {
  badInput,
  followSessionSwitches,
  type ImportedSession,
  type IngestOptions,
  type Ingestor,
  readJsonlFile,
  type ReadSessionOptions,
  tailLogOnceFound,
  type TranscriptEvent,
  unboundIngest,
} from '../../src/plugins/kit.js';
import { heldThread, heldThreads } from './bind.js';
import { codexHome, findRollout } from './home.js';
import { CodexLogParser } from './log.js';

export async function ingestCodex(opts: IngestOptions): Promise<Ingestor> {
  const group = opts.processGroup;
  if (!group) return followThread(opts);
  const home = codexHome(opts.env, opts.account);
  /** Threads seen held by the tab's process: one appearing after them is where it moved. */
  const known = new Set<string>();
  /** The first thread's follower, which may bind it by itself (its lock taken before anything watched). */
  let first: Ingestor | undefined;
  return followSessionSwitches(opts, opts.agentSession, {
    dir: join(home, 'thread-writer-locks'),
    current: () => {
      const g = group();
      if (g === undefined) return undefined;
      if (first?.agentSession) known.add(first.agentSession);
      const fresh = heldThreads(home, g).filter((t) => !known.has(t));
      for (const t of fresh) known.add(t);
      return fresh.length === 1 ? fresh[0] : undefined;
    },
    follow: async (thread) => {
      const ing = await followThread(thread ? { ...opts, agentSession: thread } : opts);
      first ??= ing;
      return ing;
    },
    notice: (_from, to) =>
      `Codex CLI moved to another thread of its own (${to}: /new or /resume in its pane). This conversation goes on with it; what Codex remembers from now on is that thread's.`,
  });
}

/** Follows one thread: the one named, else the one the tab's process holds. */
async function followThread(opts: IngestOptions): Promise<Ingestor & { readonly logPath: string | undefined }> {
  const { agentSession, since, processGroup } = opts;
  if (!agentSession && !processGroup) {
    return {
      ...unboundIngest(
        opts,
        "codex was started where baton cannot see its process, so baton cannot tell its thread from another tab's and records nothing from it",
      ),
      logPath: undefined,
    };
  }
  const home = codexHome(opts.env, opts.account);
  const parser = new CodexLogParser({ since });
  const emit = (events: TranscriptEvent[]) => {
    for (const e of events) opts.onEvent(e);
  };
  /** The run's own thread, once its process holds one. */
  let thread = agentSession;
  const find = (): string | undefined => {
    if (!thread) {
      const group = processGroup!();
      if (group === undefined) return undefined;
      const held = heldThread(home, group);
      if (!held) return undefined;
      thread = held.thread;
      if (held.rollout) return held.rollout;
    }
    return findRollout(home, thread);
  };
  const log = await tailLogOnceFound({
    find,
    ...(opts.onUnbound ? { onUnbound: opts.onUnbound } : {}),
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
  return badInput(
    `codex has no session "${session}" under ${home}/sessions`,
    'list codex sessions with `codex resume --all` (the id is the UUID), or pass --account if it ran under a baton account',
  );
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
