// Follows a CLI run whose native session can change under it while the same process goes on:
// /clear typed into Claude Code's pane starts a new session (a new log) in the same process,
// and a tab bound to the launch's session would record nothing from then on. The driver says
// where that process's current session can be read with certainty (a file the CLI keeps per
// process, by pid) and which directory changes when it does; on each change there it is read
// again, and once it names another session than the one followed, the old session's follower
// is ended, a notice and the new session id are emitted (the transcript records an
// agent_session entry) and the new session's log is followed from its top: the conversation
// goes on in the same transcript, and a message written meanwhile is read all the same. A
// reading that cannot tell (no file, one left by another process) changes nothing. A run
// whose first session is not known at launch (codex names its own) is followed by the
// driver's own ingest until then, and the first session read is adopted without a switch.
// It never writes anything, and dispose() ends its watch, its timer and the follower.

import { OneShotTimer } from '../lifecycle/index.js';
import type { IngestOptions, Ingestor } from './api.js';
import { watchPath, type PathWatcher } from './watch-path.js';

export interface SessionSwitches {
  /** The directory whose entries change when the run's current session does. */
  dir: string;
  /** The session the run's own process says it is in now; undefined when that cannot be told now. */
  current(): string | undefined;
  /** Starts following `session`'s log (undefined: the run's first, found by the driver itself), its events through the run's onEvent. */
  follow(session: string | undefined): Promise<Ingestor>;
  /** What the transcript says when the run moved from session `from` to `to`. */
  notice(from: string, to: string): string;
}

/**
 * A change can come as two writes within chokidar's 50 ms (the second dropped): the current
 * session is read again this long after each event.
 */
const LOOK_AGAIN_MS = 150;

class SwitchingIngestor implements Ingestor {
  private watcher: PathWatcher | undefined;
  private readonly lookAgain = new OneShotTimer(() => void this.check(), { unref: true });
  /** One reading at a time; an event during one asks for another after it. */
  private checking: Promise<void> | undefined;
  private again = false;
  private disposed = false;

  constructor(
    private readonly opts: IngestOptions,
    private readonly place: SessionSwitches,
    private session: string | undefined,
    private inner: Ingestor,
  ) {}

  get agentSession(): string | undefined {
    return this.inner.agentSession ?? this.session;
  }

  get skipped(): number {
    return this.inner.skipped;
  }

  async start(): Promise<void> {
    this.watcher = watchPath(this.place.dir, { dir: true }, () => {
      void this.check();
      this.lookAgain.soon(LOOK_AGAIN_MS);
    });
    await this.watcher.ready;
    await this.check();
  }

  private check(): Promise<void> {
    if (this.checking) {
      this.again = true;
      return this.checking;
    }
    this.checking = this.recheck().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  private async recheck(): Promise<void> {
    do {
      this.again = false;
      if (this.disposed) return;
      let now: string | undefined;
      try {
        now = this.place.current();
      } catch {
        now = undefined;
      }
      // (A first session the driver's own ingest found by itself is the one followed.)
      const following = this.session ?? this.inner.agentSession;
      if (now && !following) this.session = now;
      else if (now && following && now !== following) await this.switchTo(following, now);
    } while (this.again);
  }

  private async switchTo(from: string, session: string): Promise<void> {
    this.session = session;
    await this.inner.dispose();
    if (this.disposed) return;
    this.opts.onEvent({ type: 'notice', text: this.place.notice(from, session) });
    this.opts.onEvent({ type: 'session', agentSession: session });
    const next = await this.place.follow(session);
    if (this.disposed) await next.dispose();
    else this.inner = next;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.lookAgain.dispose();
    await this.watcher?.close();
    await this.checking;
    await this.inner.dispose();
  }
}

/**
 * Follows `session` with `place.follow`, and whichever session the run's process moves to
 * after it (see the top of this file).
 */
export async function followSessionSwitches(opts: IngestOptions, session: string | undefined, place: SessionSwitches): Promise<Ingestor> {
  const ing = new SwitchingIngestor(opts, place, session, await place.follow(session));
  await ing.start();
  return ing;
}
