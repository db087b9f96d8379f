// When a tab "needs you": the moments the user is to be told, from the agent's status as it
// changes. Two of them: the agent starts waiting at a dialog, a permission prompt or a
// question (approval), and a turn the agent was working on is over (done: idle after
// working). Not a CLI coming up (working while it starts, then idle, with no turn open), not
// idle again after idle, not an exit, and not a turn that ends while messages are queued for
// the tab: baton sends the next one at once, so nobody needs to come. Pure: fed the status,
// it says what to tell; who is told, and how, is the caller's.

import type { AgentStatus } from '../plugins/api.js';

export type NeedsYou = 'approval' | 'done';

export interface StatusReading {
  status: AgentStatus;
  /** The log (or a submit of baton's) has a turn open. */
  turnOpen: boolean;
  /** Messages waiting in the tab's queue. */
  queued: number;
}

export class NeedsYouRule {
  private last: AgentStatus | undefined;
  /** The agent worked on a turn since it was last idle. */
  private worked = false;

  /** The status as it is now; what to tell the user, if this moment is one to tell. */
  observe(r: StatusReading): NeedsYou | undefined {
    const prev = this.last;
    this.last = r.status;
    if (r.turnOpen && (r.status === 'working' || r.status === 'approval')) this.worked = true;
    if (r.status === 'approval') return prev === 'approval' ? undefined : 'approval';
    if (r.status === 'idle') {
      const done = prev !== 'idle' && this.worked && r.queued === 0;
      this.worked = false;
      return done ? 'done' : undefined;
    }
    if (r.status === 'exited') this.worked = false;
    return undefined;
  }
}
