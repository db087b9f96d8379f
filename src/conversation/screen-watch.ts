// Reads a tab's screen for its agent's status, at the moments that matter and no others:
// once the CLI's output settles (a frame drawn in several writes is read whole, a spinner
// that never pauses at most every SCREEN_READ_MAX_MS), and when time alone would change the
// status (the status clock, one timer for the tracker's next change). An idle tab costs
// nothing. It feeds the tracker and says when a reading is due; what follows from a reading
// (a snapshot, the queue) is the tab session's. It never types into the terminal.

import { DisposableStore, OneShotTimer, type Disposable } from '../lifecycle/index.js';
import type { AgentStatus } from '../plugins/api.js';
import type { AgentTerminal } from './agent-terminal.js';
import type { AgentStatusTracker } from './agent-status.js';

/**
 * The screen is read once the CLI's output has paused this long (a frame drawn in several
 * writes is read whole)...
 */
const SCREEN_SETTLE_MS = 50;
/** ...but no later than this after the first output not read yet (a spinner never pauses). */
const SCREEN_READ_MAX_MS = 250;

export interface ScreenWatchDeps {
  terminal: AgentTerminal;
  status: AgentStatusTracker;
  /** The running driver's screen heuristics (undefined: it reads none). */
  reader: () => ((lines: string[]) => AgentStatus | undefined) | undefined;
  /** A reading is due (output settled, or the status clock struck): the session reads now. */
  due: () => void;
}

export class ScreenWatch implements Disposable {
  private readonly owned = new DisposableStore();
  /** The screen as last read, and when it last changed. */
  private lastDrawn = '';
  private drawnAt = 0;
  /** Output not read yet: when the screen is to be read, and since when output waits. */
  private readDue = 0;
  private unreadSince: number | undefined;
  private readonly screenRead = this.owned.add(new OneShotTimer(() => this.screenReadDue(), { unref: true }));
  /** Armed for the moment time alone would change the status (a turn the log never closed...). */
  private readonly statusClock = this.owned.add(new OneShotTimer(() => this.deps.due(), { unref: true }));
  private disposed = false;

  constructor(private readonly deps: ScreenWatchDeps) {
    this.owned.add(deps.terminal.onOutput(() => this.outputSeen()));
  }

  /** Output came that was not read yet. */
  get unread(): boolean {
    return this.unreadSince !== undefined;
  }

  /** The CLI wrote to its screen: read it once the output settles (at most SCREEN_READ_MAX_MS on). */
  private outputSeen(): void {
    const now = Date.now();
    this.unreadSince ??= now;
    this.readDue = Math.min(now + SCREEN_SETTLE_MS, this.unreadSince + SCREEN_READ_MAX_MS);
    // The timer is armed once per burst; a later due time is checked when it fires.
    if (!this.screenRead.armed) this.screenRead.at(this.readDue);
  }

  private screenReadDue(): void {
    if (Date.now() < this.readDue) return this.screenRead.at(this.readDue);
    this.deps.due();
  }

  /** What the driver reads on the screen now (undefined: nothing it recognises, or it reads none). */
  reading(): AgentStatus | undefined {
    const lines = this.deps.terminal.screenLines();
    const drawn = lines.join('\n');
    if (drawn !== this.lastDrawn) {
      this.lastDrawn = drawn;
      this.drawnAt = Date.now();
    }
    return this.deps.reader()?.(lines);
  }

  /** Feeds the status a fresh reading of the screen (output waiting to be read included); true when the status changed. */
  lookNow(): boolean {
    this.unreadSince = undefined;
    this.screenRead.cancel();
    const reading = this.reading();
    const changed = this.deps.status.screen(reading, this.drawnAt);
    this.armClock();
    return changed;
  }

  /** One timer, for the moment time alone would change the status (none when nothing would). */
  armClock(): void {
    if (!this.disposed) this.statusClock.at(this.deps.status.nextChangeAt());
  }

  dispose(): void {
    this.disposed = true;
    this.owned.dispose();
  }
}
