// Following and reading gemini's own chat logs. ingest(): find the log of the session the
// launch named (`--session-id`, `--resume`: by the first 8 characters of its id in the file
// name, then the id in its header), then tail it incrementally (found-log-tail.ts: looked for
// until it appears, then read from the last offset). Without a session named it follows
// nothing and says so: two gemini tabs in one directory cannot be told apart by timing.
// Gemini's log marks no turn boundary, so a turn ends when the next prompt arrives or when
// the log stays quiet for QUIET_MS after an answer without tool calls (or when the ingest is
// disposed). readSession(): a whole session as gemini would load it. It never writes under ~/.gemini.

import {
  badInput,
  type FoundLogTail,
  type ImportedSession,
  type IngestOptions,
  type Ingestor,
  readJsonlFile,
  type ReadSessionOptions,
  tailLogOnceFound,
  type TranscriptEvent,
  unboundIngest,
} from '../../src/plugins/kit.js';
import { findChat, geminiDir, projectDirOf } from './home.js';
import { GeminiLogFollower, replayGeminiLog } from './log.js';

/** Quiet time after an answer without tool calls before its turn counts as ended. */
export const QUIET_MS = 1500;

class GeminiIngestor implements Ingestor {
  private log: FoundLogTail | undefined;
  private quiet: NodeJS.Timeout | undefined;
  private disposed = false;
  private readonly follower: GeminiLogFollower;
  private readonly root: string;

  constructor(private readonly opts: IngestOptions) {
    this.root = geminiDir(opts.env, opts.account);
    this.follower = new GeminiLogFollower({ since: opts.since });
  }

  get agentSession(): string | undefined {
    return this.follower.sessionId ?? this.opts.agentSession;
  }

  get skipped(): number {
    return this.follower.skipped;
  }

  get logPath(): string | undefined {
    return this.log?.path;
  }

  async start(session: string): Promise<void> {
    // From the top even for a known session: gemini re-stamps history when it resumes, so
    // message ids (seen once, from the original records) are what tell old from new.
    this.log = await tailLogOnceFound({
      find: () => findChat(this.root, session),
      onRecord: (record) => this.emit(this.follower.feed(record)),
      onInvalid: () => {
        this.follower.skipped++;
      },
    });
  }

  private emit(events: TranscriptEvent[]): void {
    for (const e of events) this.opts.onEvent(e);
    if (this.quiet) clearTimeout(this.quiet);
    this.quiet = undefined;
    if (this.follower.turnEndDue && !this.disposed) {
      this.quiet = setTimeout(() => {
        this.quiet = undefined;
        for (const e of this.follower.flushTurnEnd()) this.opts.onEvent(e);
      }, QUIET_MS);
      this.quiet.unref();
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    if (this.quiet) clearTimeout(this.quiet);
    await this.log?.dispose();
    // The CLI is done with this log: an answer still waiting for its quiet time has ended.
    for (const e of this.follower.flushTurnEnd()) this.opts.onEvent(e);
  }
}

export async function ingestGemini(opts: IngestOptions): Promise<Ingestor> {
  if (!opts.agentSession)
    return unboundIngest(
      opts,
      "Gemini CLI was started without a session id baton chose, so baton cannot tell its log from another tab's and records nothing from it",
    );
  const ing = new GeminiIngestor(opts);
  await ing.start(opts.agentSession);
  return ing;
}

function unknownSession(session: string, root: string): Error {
  return badInput(
    `gemini has no session "${session}" under ${root}/tmp`,
    'list sessions with `gemini --list-sessions` in the project directory (use the full session UUID), or pass --account if it ran under a baton account',
  );
}

export async function geminiSessionLogPath(opts: ReadSessionOptions): Promise<string | undefined> {
  return findChat(geminiDir(opts.env, opts.account), opts.session);
}

export async function readGeminiSession(opts: ReadSessionOptions): Promise<ImportedSession> {
  const root = geminiDir(opts.env, opts.account);
  if (!/^[0-9a-fA-F-]{8,}$/.test(opts.session)) throw unknownSession(opts.session, root);
  const path = findChat(root, opts.session);
  if (!path) throw unknownSession(opts.session, root);
  let invalid = 0;
  const records: unknown[] = [];
  await readJsonlFile(
    path,
    (record) => records.push(record),
    () => invalid++,
  );
  const replay = replayGeminiLog(records);
  const cwd = replay.projectHash ? projectDirOf(root, replay.projectHash) : undefined;
  return {
    agentSession: replay.sessionId ?? opts.session,
    ...(replay.model ? { model: replay.model } : {}),
    ...(cwd ? { cwd } : {}),
    events: replay.events,
    skipped: replay.skipped + invalid,
    logPath: path,
  };
}
