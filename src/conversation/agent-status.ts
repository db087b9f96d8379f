// A hosted agent's status, from two witnesses that must agree before baton calls it idle
// (idle is when baton may type into the CLI): the driver's ingested log events (a user
// message or agent activity opens a turn, a turn end closes it) and the driver's reading of
// the screen. A dialog, a permission prompt or a question on the screen is `approval`
// whatever the log says: the user is needed, and nothing baton types may answer it. An
// idle-looking screen while the log says a turn is open is working (a CLI between a submit
// and its spinner, or finishing a tool call after an approval); a turn the log closed while
// the screen still says working is working. Time settles only what one witness can no longer
// say: a turn the log never closed (an interrupt some CLIs do not log) is over once the log
// has been silent for long under an idle screen, and a working screen that has not changed
// for that long after the log's turn end is words left in the CLI's history, not a spinner.
// Pure state: the caller feeds it and reads it; it never looks at a terminal itself, and
// keeps no clock running: nextChangeAt() says when time alone would change the verdict, so
// the caller arms one timer for that moment instead of polling.

import type { AgentStatus, TranscriptEvent } from '../plugins/api.js';

/** How long the screen must have read idle, with the log silent, before a turn the log never closed counts as over. */
export const STALE_TURN_MS = 10_000;
/** How long a freshly launched CLI may show nothing its driver recognises before baton stops waiting for it to. */
export const STARTUP_MS = 60_000;

export class AgentStatusTracker {
  private status: AgentStatus = 'idle';
  /** The log showed a turn begin (or baton submitted one) and no turn end since. */
  private turnOpen = false;
  private lastEventAt = 0;
  /** The screen's last verdict (a reading the driver could not place leaves it as it was), and since when. */
  private screenSays: AgentStatus | undefined;
  private screenSince = 0;
  /** When the screen last changed at all, if the caller says (a live spinner changes it all the time). */
  private drawnAt = 0;
  /** Launched, and the screen has given no verdict yet: not ready to be typed at. */
  private startingSince: number | undefined;
  private gone = false;

  constructor(private readonly now: () => number = Date.now) {}

  get current(): AgentStatus {
    return this.status;
  }

  /** Whether the log (or a submit of baton's) has a turn open. */
  get turnIsOpen(): boolean {
    return this.turnOpen;
  }

  /** Returns true when the status changed. */
  event(e: TranscriptEvent): boolean {
    if (this.gone) return false;
    this.lastEventAt = this.now();
    switch (e.type) {
      case 'user_text':
      case 'agent_text':
      case 'reasoning':
      case 'tool_call':
      case 'tool_result':
      case 'approval':
        this.turnOpen = true;
        this.startingSince = undefined;
        break;
      case 'turn_end':
        this.turnOpen = false;
        this.startingSince = undefined;
        break;
      default:
        break;
    }
    return this.settle();
  }

  /** A reading of the screen by the driver's heuristics (undefined: nothing it recognises). Also the clock's tick (see nextChangeAt). */
  screen(s: AgentStatus | undefined, drawnAt?: number): boolean {
    if (this.gone) return false;
    if (drawnAt !== undefined) this.drawnAt = drawnAt;
    if (s && s !== 'exited' && s !== this.screenSays) {
      this.screenSays = s;
      this.screenSince = this.now();
    }
    if (s) this.startingSince = undefined;
    return this.settle();
  }

  exited(): boolean {
    this.gone = true;
    return this.set('exited');
  }

  /**
   * A program was just launched in the tab: nothing is known of it yet, and it is not ready
   * for input (working) until its screen says so, or STARTUP_MS pass with the screen saying
   * nothing its driver recognises. (A driver that reads no screen is told idle by its session
   * once the program has been quiet a moment.)
   */
  launched(): boolean {
    this.reset();
    this.startingSince = this.now();
    return this.settle();
  }

  private reset(): void {
    this.gone = false;
    this.turnOpen = false;
    this.lastEventAt = 0;
    this.screenSays = undefined;
  }

  /** We just submitted a message: a turn is open until the log ends it. */
  submitted(): boolean {
    if (this.gone) return false;
    this.turnOpen = true;
    this.lastEventAt = this.now();
    return this.settle();
  }

  /** A submit of ours the log never showed: the turn it opened was never the CLI's. */
  withdrawn(): boolean {
    if (this.gone) return false;
    this.turnOpen = false;
    return this.settle();
  }

  /**
   * The moment the status would change with nothing new heard (time alone settling it), if
   * such a moment is ahead: a start-up that waited long enough, a turn the log never closed
   * under an idle screen, a working screen left standing after the turn end. The caller
   * feeds the status again then (screen() is its tick); later input moves the moment.
   */
  nextChangeAt(): number | undefined {
    if (this.gone || this.screenSays === 'approval') return undefined;
    const now = this.now();
    let at: number | undefined;
    if (this.startingSince !== undefined) at = this.startingSince + STARTUP_MS;
    else if (this.turnOpen) {
      if (this.screenSays === 'idle') at = Math.max(this.lastEventAt, this.screenSince) + STALE_TURN_MS;
    } else if (this.screenSays === 'working') {
      at = Math.max(this.lastEventAt, this.drawnAt, this.screenSince) + STALE_TURN_MS;
    }
    return at !== undefined && at > now ? at : undefined;
  }

  private settle(): boolean {
    if (this.gone) return this.set('exited');
    if (this.screenSays === 'approval') return this.set('approval');
    const now = this.now();
    if (this.startingSince !== undefined) {
      if (now - this.startingSince < STARTUP_MS) return this.set('working');
      this.startingSince = undefined;
    }
    if (this.turnOpen) {
      const quietSince = Math.max(this.lastEventAt, this.screenSince);
      if (this.screenSays !== 'idle' || now - quietSince < STALE_TURN_MS) return this.set('working');
      // The log never closed this turn, and has said nothing for a long while under an idle screen.
      this.turnOpen = false;
    }
    // A working screen that has not moved for long after the log ended the turn is a leftover
    // (words a driver reads as working, left standing in the CLI's history), not a spinner.
    const stale = now - Math.max(this.lastEventAt, this.drawnAt, this.screenSince) >= STALE_TURN_MS;
    return this.set(this.screenSays === 'working' && !stale ? 'working' : 'idle');
  }

  private set(s: AgentStatus): boolean {
    if (this.status === s) return false;
    this.status = s;
    return true;
  }
}
