// One tab = one conversation: the transcript (kept current by the driver's ingest while the
// CLI runs in the tab's terminal), the agent's status, the queue of messages written while
// it works, and the armed switch. The TUI sends commands in (start, arm, send, queue edits)
// and reads snapshots out (onChange), plus two events for the compose bar: onDraft (text
// handed back to it) and onTaken (a message the CLI took late, whose copy there is to go);
// no TUI type crosses this boundary. This file holds its commands (start, switch, send,
// the stop after a reset, dispose); its state and snapshot are in tab-session-state.ts, the
// delivery of messages and the ingest of the log in tab-session-delivery.ts. Its other parts
// live beside it: the switch transaction (switch-transaction.ts), the screen reading and status clock (screen-watch.ts: an idle tab
// costs nothing), the queue (message-queue.ts), the log's order behind a checkpoint
// (ordered-ingest.ts). dispose() ends the agent, its log's ingest, and every timer and listener.
// What it must never do: type while the CLI is not idle by both its log and its screen (a
// dialog would be answered), or type a message again that may still be in the CLI's input
// box (a failed delivery goes back to the compose bar, never into the queue).

import { DisposableStore, toDisposable } from '../lifecycle/index.js';
import { DEFAULT_ACCOUNT } from '../plugins/account-dir.js';
import type { Ingestor, PermissionMode } from '../plugins/api.js';
import type { LocalEndpointRef, UserAuthor } from '../transcript/types.js';
import { briefAndMessage, removeLaunchFiles } from '../plugins/handoff-file.js';
import { launchAgent, type SwitchOutcome, runSwitch } from './switch-transaction.js';
import { TabSessionDelivery } from './tab-session-delivery.js';
import { isBusy, type SendResult } from './tab-session-state.js';

export {
  isBusy,
  type ArmedSwitch,
  type PendingBrief,
  type QueuedMessage,
  type SendResult,
  type TabSessionDeps,
  type TabSnapshot,
} from './tab-session-state.js';

export class TabSession extends TabSessionDelivery {
  /** The permission mode this tab's agent starts in, each time it is launched (absent: the CLI's own default). */
  launchMode: PermissionMode | undefined;

  /** Starts (or restores) an agent in the tab with whatever context the conversation has. */
  async start(agent: string, model?: string, account?: string, local?: LocalEndpointRef): Promise<SwitchOutcome> {
    this.unresolvedSwitch = false;
    if (this.armed && this.armed.agent !== agent) this.dropArmedSwitch(`the tab now runs another agent.`);
    // Starting again the agent whose brief never went (it did not come up, or exited first)
    // retries that switch: its message is recorded with the same switch id.
    const retry = this.pendingBrief && this.driver?.name === agent ? this.pendingBrief.switchId : undefined;
    const outcome = await launchAgent(this, agent, model, undefined, retry, undefined, account, local);
    this.sayOutcome(outcome.message);
    return outcome;
  }

  /**
   * Another agent takes the tab at once, with nothing to carry (nothing said yet, so no
   * message to switch with): the current one is stopped, then `agent` starts. The conversation
   * layer's own stop-then-start; a tab never runs one beside it.
   */
  async startInstead(agent: string, model?: string, account?: string, local?: LocalEndpointRef): Promise<SwitchOutcome> {
    // (Stopping the CLI would lose what the user left in its input box.)
    const held = this.draftHold();
    if (held) {
      const outcome: SwitchOutcome = { kind: 'not-sent', message: `${held} Nothing changed.` };
      this.sayOutcome(outcome.message);
      return outcome;
    }
    this.switching = true;
    try {
      await this.stopAgent(3000);
    } finally {
      this.switching = false;
    }
    if (this.deps.terminal.isRunning()) {
      const outcome: SwitchOutcome = { kind: 'not-sent', message: `${this.driver?.title ?? 'The agent'} did not stop. Nothing changed.` };
      this.sayOutcome(outcome.message);
      return outcome;
    }
    await this.follow(undefined);
    return this.start(agent, model, account, local);
  }

  /**
   * Arms a switch to another agent (or another account of it); choosing the current agent and
   * account disarms. `summary`: the outgoing agent writes a summary first (tab-summary-turn.ts).
   */
  arm(agent: string, model?: string, account?: string, local?: LocalEndpointRef, summary?: boolean): { armed: boolean; noContext: boolean } {
    const d = this.deps.registry.get(agent);
    const noContext = this.noContext;
    const current = this.conversation.transcript.currentSegment;
    const sameAccount = account === undefined || (current?.account ?? DEFAULT_ACCOUNT) === account;
    const sameLocal = local === undefined || (current?.local?.endpoint === local.endpoint && current.local.api === local.api);
    // The same agent disarms, unless it is not running (stopped by a reset): then arming it
    // is how it starts again, afresh.
    if (this.driver && d.name === this.driver.name && (!model || model === this.model) && sameAccount && sameLocal && this.deps.terminal.isRunning()) {
      this.disarm();
      return { armed: false, noContext };
    }
    const other =
      account !== undefined && account !== DEFAULT_ACCOUNT ? ` (account ${account})` : account === DEFAULT_ACCOUNT && !sameAccount ? ' (its own account)' : '';
    const chosen = model ?? this.deps.registry.settings(d.name).model ?? d.defaultModel ?? 'default';
    // A model named is said: "Continue with Claude Code · haiku" (the same agent on another
    // model); a local one with its server's words: "Qwen Code (local model qwen3-coder)".
    const onModel = local ? ` (local model ${chosen})` : model ? ` · ${model}` : '';
    this.armedSwitch = {
      agent: d.name,
      title: `${d.title}${other}${onModel}`,
      ...(model ? { model } : {}),
      ...(account !== undefined ? { account } : {}),
      ...(local ? { local } : {}),
      ...(summary ? { summary } : {}),
      ...(this.driver ? { from: this.driver.name } : {}),
    };
    this.changed();
    return { armed: true, noContext };
  }

  disarm(): void {
    if (!this.armedSwitch) return;
    this.armedSwitch = undefined;
    this.changed();
  }

  /**
   * The compose bar's Enter. Never loses the text: a refusal or failure hands it back.
   * `author`: who wrote it (the attached client that pressed Enter), recorded with it;
   * undefined is the conversation's own user.
   */
  async send(text: string, author?: UserAuthor): Promise<SendResult> {
    if (!text.trim()) return { kind: 'refused', message: 'Nothing to send.' };
    if (this.unresolved) {
      return this.refuse(
        'The last switch did not finish cleanly. Nothing was sent — check the pane; once the agent answers there (or you start it again), sending works again.',
      );
    }
    const armed = this.armedSwitch;
    if (armed) {
      const title = this.driver?.title ?? 'The agent';
      if (isBusy(this.status.current)) {
        return this.refuse(`${title} is still working. Nothing was sent — wait for it to finish and retry.`);
      }
      // Messages queued before go first, to the agent they were written to: the switch's
      // message after them, as written (it went first, to the new agent, before).
      if (this.draining || this.delivering || this.queued.length) {
        const n = this.queued.length + (this.draining || this.delivering ? 1 : 0);
        return this.refuse(
          `${title} has ${n === 1 ? 'a queued message' : `${n} queued messages`} to take first. Nothing was sent; the switch stays armed — send again once ${n === 1 ? 'it has' : 'they have'} gone.`,
        );
      }
      // Stopping the CLI would lose the draft the user left in its input box, and a `/model …`
      // typed there would join it: the switch waits, armed, with the message back in the
      // compose bar. (A copy of a recorded message there does not hold it: model-in-place.ts.)
      const held = this.draftHold();
      if (held) return this.refuse(`${held} Nothing was sent; the switch stays armed.`);
      this.switching = true;
      let outcome: SwitchOutcome;
      try {
        outcome = await runSwitch(this, armed, text, author);
      } finally {
        this.switching = false;
      }
      this.sayOutcome(outcome.message);
      return { kind: 'switch', outcome };
    }
    if (!this.driver) return this.refuse('No agent runs in this tab. Nothing was sent — pick one first.');
    if (this.unbound) return this.refuse(`${this.unboundNotice()} Nothing was sent — start the agent again (C-b a) to send.`);
    if (this.draining || this.queued.length || !this.mayType()) return this.enqueue(text, author);
    return this.deliver(text, author ? { author } : {});
  }

  /**
   * The conversation was just reset: the agent's own session still remembers what the reset
   * hid, so the agent is stopped and the next message starts it afresh with a replay — armed
   * like a switch to the same agent (prepareBrief never resumes across a reset). A switch to
   * another agent armed before stays armed: it is a replay as well.
   */
  async stopAfterReset(): Promise<void> {
    const driver = this.driver;
    this.switching = true;
    try {
      await this.follow(undefined);
      this.delivery.cancel();
      await this.stopAgent(3000);
    } finally {
      this.switching = false;
    }
    this.unresolvedSwitch = false;
    if (driver && !this.armedSwitch) this.armedSwitch = { agent: driver.name, title: driver.title, model: this.runningModel ?? 'default' };
    this.changed();
  }

  /**
   * baton's own request typed into the running CLI as its next turn (the summary before a
   * switch: tab-summary-turn.ts), with the pending brief before it when one waits. The user
   * sees the turn in the pane; nothing of it is recorded (the log's events of it go to the
   * sink, not the transcript) and its text is given back once the turn is over. Failing,
   * it says why in a few words.
   */
  async ownTurn(text: string, timeoutMs: number): Promise<{ text: string } | { failed: string }> {
    const title = this.driver?.title ?? 'the agent';
    if (!this.ingestor) return { failed: `baton does not read ${title}'s log in a tab, so its answer could not be kept` };
    if (!this.mayType())
      return { failed: this.boxText() ? `${title}'s input box has text in it (send or clear it there first)` : `${title} was not ready for input` };
    let answer = '';
    let ended = false;
    this.ownTurnSink = (e) => {
      // Streamed chunks of one message; separate messages are separate paragraphs (as summary-turn.ts takes them).
      if (e.type === 'agent_text') answer += e.text;
      else if (e.type === 'turn_end') ended = true;
    };
    try {
      this.delivering = true;
      const brief = this.pendingBrief;
      const pasted = brief ? briefAndMessage(this.conversation.meta.data.cwd, brief.text, text, brief.switchId) : { text };
      if (pasted.file) this.runFiles.push(pasted.file);
      this.status.submitted();
      this.changed();
      // Seen in the log, it is claimed and recorded as no user message (record: false).
      const taken = await this.delivery.submit(pasted.text, { record: false }, text);
      this.delivering = false;
      if (!taken) {
        this.status.withdrawn();
        return { failed: `${title} did not take the request (its log never showed it)` };
      }
      if (brief && this.pendingBrief === brief) this.pendingBrief = undefined;
      const over = await this.turnOver(() => ended, timeoutMs);
      if (over === 'exited') return { failed: `${title} exited before it finished` };
      if (over === 'timeout') return { failed: `${title} did not finish within ${Math.round(timeoutMs / 1000)} s` };
      answer = answer.trim();
      return answer ? { text: answer } : { failed: `${title} answered with no text` };
    } finally {
      this.delivering = false;
      this.ownTurnSink = undefined;
      this.changed();
    }
  }

  /** Resolves once the turn is over (its log ended it, or the status reads idle again), the CLI is gone, or `timeoutMs` passed. */
  private turnOver(ended: () => boolean, timeoutMs: number): Promise<'ended' | 'exited' | 'timeout'> {
    return new Promise((resolve) => {
      const wait = this.owned.add(new DisposableStore());
      // A session disposed meanwhile ends the wait: its agent is gone.
      wait.add(toDisposable(() => resolve('exited')));
      const finish = (how: 'ended' | 'exited' | 'timeout') => {
        resolve(how);
        this.owned.delete(wait);
      };
      const check = () => {
        if (ended() || this.status.current === 'idle') finish('ended');
        else if (this.disposed || this.status.current === 'exited' || !this.deps.terminal.isRunning()) finish('exited');
      };
      const timer = setTimeout(() => finish('timeout'), timeoutMs);
      wait.add(toDisposable(() => clearTimeout(timer)));
      wait.add(this.onChange(check));
      wait.add(this.deps.terminal.onExit(() => finish('exited')));
      check();
    });
  }

  /** Replaces the ingestor following the CLI's log (the switch transaction calls this). */
  async follow(ingestor: Ingestor | undefined): Promise<void> {
    const old = this.ingestor;
    this.ingestor = ingestor;
    // Messages the previous CLI was given and never took are not this one's to claim.
    if (ingestor && ingestor !== old) this.delivery.forgetGivenUp();
    await old?.dispose();
  }

  get following(): boolean {
    return this.ingestor !== undefined;
  }

  /** The tab's agent changed underneath an armed switch: drop it, and say so. */
  dropArmedSwitch(reason: string): void {
    if (!this.armedSwitch) return;
    const title = this.armedSwitch.title;
    this.armedSwitch = undefined;
    this.say(`The switch to ${title} was dropped: ${reason}`);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.owned.dispose();
    this.delivery.cancel();
    await this.follow(undefined);
    await this.ingested();
    await this.stopAgent(2000);
    await this.conversation.close();
  }

  /** Ends the running CLI (its process group, then anything it left behind, by pid). */
  async stopAgent(graceMs: number): Promise<void> {
    await this.deps.terminal.stop(graceMs);
    removeLaunchFiles(this.runFiles.splice(0));
    this.dropPendingBrief();
    if (this.driver?.endLeftovers && this.startedAt) {
      const account = this.conversation.transcript.currentSegment?.account;
      await this.driver.endLeftovers({ env: this.deps.env, since: this.startedAt, ...(account ? { account } : {}) }).catch(() => []);
    }
  }
}
