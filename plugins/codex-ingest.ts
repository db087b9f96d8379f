// Following and reading codex's own rollouts. ingest(): find the rollout (by thread id, or
// the first one started in the cwd after `since`), then tail it incrementally through
// tailJsonl (chokidar, from the last offset; a resumed session's earlier records give no
// events). readSession(): one whole rollout, user messages included, for
// `baton transcript import`. It never writes under CODEX_HOME.

import { createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { badInput } from '../src/errors.js';
import type { ImportedSession, IngestOptions, Ingestor, ReadSessionOptions, TranscriptEvent } from '../src/plugins/api.js';
import { tailJsonl, type LogTail } from '../src/plugins/log-tail.js';
import { codexHome, findNewRollout, findRollout } from './codex-home.js';
import { CodexLogParser } from './codex-log.js';

/** How often the session folders are looked at until the rollout appears. */
const DISCOVER_MS = 200;

class CodexIngestor implements Ingestor {
  private tail: LogTail | undefined;
  private timer: NodeJS.Timeout | undefined;
  private disposed = false;
  private readonly parser: CodexLogParser;
  private readonly rejected = new Set<string>();
  private readonly home: string;

  constructor(private readonly opts: IngestOptions) {
    this.home = codexHome(opts.env, opts.account);
    this.parser = new CodexLogParser({ since: opts.since });
  }

  get agentSession(): string | undefined {
    return this.parser.sessionId ?? this.opts.agentSession;
  }

  get skipped(): number {
    return this.parser.skipped;
  }

  /** The rollout being followed, once found. */
  get logPath(): string | undefined {
    return this.tail?.path;
  }

  async start(): Promise<void> {
    await this.discover();
  }

  private async discover(): Promise<void> {
    if (this.disposed || this.tail) return;
    const { agentSession, cwd, since } = this.opts;
    const path = agentSession ? findRollout(this.home, agentSession) : findNewRollout(this.home, cwd, since, this.rejected)?.path;
    if (!path) {
      this.timer = setTimeout(() => void this.discover().catch(() => {}), DISCOVER_MS);
      this.timer.unref();
      return;
    }
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
    const emit = (events: TranscriptEvent[]) => {
      for (const e of events) this.opts.onEvent(e);
    };
    if (from > 0 && agentSession) emit([{ type: 'session', agentSession }]);
    const tail = await tailJsonl(path, {
      from,
      onRecord: (record) => emit(this.parser.feed(record)),
      onInvalid: () => {
        this.parser.skipped++;
      },
    });
    if (this.disposed) await tail.dispose();
    else this.tail = tail;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.tail?.dispose();
  }
}

export async function ingestCodex(opts: IngestOptions): Promise<Ingestor> {
  const ing = new CodexIngestor(opts);
  await ing.start();
  return ing;
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
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      parser.skipped++;
      continue;
    }
    for (const e of parser.feed(record)) if (e.type !== 'session') events.push(e);
  }
  return {
    agentSession: parser.sessionId ?? opts.session,
    ...(parser.model ? { model: parser.model } : {}),
    ...(parser.cwd ? { cwd: parser.cwd } : {}),
    events,
    skipped: parser.skipped,
    logPath: path,
  };
}
