// A hosted agent's status, from the best source available: the driver's ingested events
// first (a user message or agent activity means working, a turn end means idle), the
// driver's screen heuristics when events have been quiet for a while, and the process
// exit last of all. Pure state: the caller feeds it and reads it.

import type { AgentStatus, TranscriptEvent } from '../plugins/api.js';

/** Events this recent outrank what the screen seems to say. */
const EVENTS_TRUSTED_MS = 3000;

export class AgentStatusTracker {
  private status: AgentStatus = 'idle';
  private lastEventAt = 0;

  constructor(private readonly now: () => number = Date.now) {}

  get current(): AgentStatus {
    return this.status;
  }

  /** Returns true when the status changed. */
  event(e: TranscriptEvent): boolean {
    if (this.status === 'exited') return false;
    this.lastEventAt = this.now();
    switch (e.type) {
      case 'user_text':
      case 'agent_text':
      case 'reasoning':
      case 'tool_call':
      case 'tool_result':
        return this.set('working');
      case 'approval':
        return this.set('working');
      case 'turn_end':
        return this.set('idle');
      default:
        return false;
    }
  }

  /** A reading of the screen by the driver's heuristics; ignored while events are fresh. */
  screen(s: AgentStatus | undefined): boolean {
    if (!s || this.status === 'exited') return false;
    if (this.now() - this.lastEventAt < EVENTS_TRUSTED_MS && s !== 'approval') return false;
    return this.set(s);
  }

  exited(): boolean {
    return this.set('exited');
  }

  /** A program was just launched: working (not taking input) until its screen reads idle. */
  launched(): boolean {
    this.lastEventAt = 0;
    return this.set('working');
  }

  /** A new program started in the tab. */
  restarted(): boolean {
    this.lastEventAt = 0;
    return this.set('idle');
  }

  /** We just submitted a message: it is working until a turn end says otherwise. */
  submitted(): boolean {
    this.lastEventAt = this.now();
    return this.set('working');
  }

  private set(s: AgentStatus): boolean {
    if (this.status === s) return false;
    this.status = s;
    return true;
  }
}
