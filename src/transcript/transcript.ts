// The in-memory canonical transcript of one conversation: append-only entries, the
// segments derived from them, native cursors, and `apply()`, the single door through
// which normalized harness events become entries. Pure: no disk, no git, no clock
// unless one is injected. Persistence is a sink the store plugs in. Every entry it commits
// is redacted first (redact.ts), so what is kept in memory and in the log holds no secret.

import type { GitFacts } from './git-facts-types.js';
import { lastIndexAtOrBelow } from './brief-index.js';
import { redactEntry } from './redact.js';
import { checkEvent, type EventRefusal } from './validate-event.js';
import type { AgentRef, Author, Entry, EntryBody, LocalEndpointRef, NativeCursor, Segment, TranscriptEvent, UserAuthor } from './types.js';

/** Receives committed entries in order; `sync` marks a turn boundary or a handoff. */
export type EntrySink = (entries: readonly Entry[], opts: { sync: boolean }) => void;

export interface TranscriptOptions {
  id: string;
  entries?: readonly Entry[];
  sink?: EntrySink;
  now?: () => Date;
  /** Author of user messages that arrive without one. */
  user?: UserAuthor;
}

export interface StartSegment {
  harness: string;
  model: string;
  account?: string;
  local?: LocalEndpointRef;
  switchId: string;
  mode?: 'fresh' | 'resume';
  briefChars?: number;
  briefHash?: string;
  budget?: number;
  uptoSeq?: number;
  sinceSeq?: number;
  briefTitle?: string;
  git?: GitFacts;
}

type Pending = { kind: 'agent_text' | 'reasoning'; text: string; messageId?: string };

const SYSTEM: Author = { type: 'system' };

export class Transcript {
  readonly id: string;
  private readonly list: Entry[] = [];
  private readonly segs: Segment[] = [];
  private readonly cursorMap = new Map<string, NativeCursor>();
  private pending: Pending | undefined;
  /** Refusals already told in a notice, by segment, event type and field (see refuse()). */
  private readonly refusalsTold = new Set<string>();
  private readonly sink: EntrySink | undefined;
  private readonly now: () => Date;
  user: UserAuthor;

  constructor(opts: TranscriptOptions) {
    this.id = opts.id;
    this.sink = opts.sink;
    this.now = opts.now ?? (() => new Date());
    this.user = opts.user ?? { type: 'user', name: 'user', device: 'unknown' };
    for (const e of opts.entries ?? []) this.index(e);
  }

  get entries(): readonly Entry[] {
    return this.list;
  }

  get segments(): readonly Segment[] {
    return this.segs;
  }

  get currentSegment(): Segment | undefined {
    return this.segs[this.segs.length - 1];
  }

  get lastSeq(): number {
    return this.list.length ? this.list[this.list.length - 1]!.seq : 0;
  }

  /** User turns: tool traffic, notices and agent chatter do not count. */
  get turnCount(): number {
    return this.visible().filter((e) => e.kind === 'user_message').length;
  }

  /**
   * Normalizes one harness event into entries. Returns the entries it committed. An event
   * that does not match the transcript's types (validate-event.ts) is not recorded; a
   * notice naming the driver and the field is, instead.
   */
  apply(given: TranscriptEvent): Entry[] {
    const checked = checkEvent(given);
    if (!checked.ok) return this.refuse(checked.refusal);
    const event = checked.event;
    if (event.type === 'agent_text' || event.type === 'reasoning') {
      const p = this.pending;
      const sameMessage = p && p.kind === event.type && (event.messageId === undefined || p.messageId === undefined || p.messageId === event.messageId);
      if (sameMessage) {
        p.text += event.text;
        if (event.messageId) p.messageId = event.messageId;
        return [];
      }
      const flushed = this.flushPending();
      this.pending = { kind: event.type, text: event.text, messageId: event.messageId };
      return flushed;
    }
    const out = this.flushPending();
    switch (event.type) {
      case 'user_text': {
        const body: EntryBody = { kind: 'user_message', text: event.text };
        if (event.switchId) body.switchId = event.switchId;
        out.push(this.commit(body, event.author ?? this.user, { checkpoint: event.checkpoint }));
        break;
      }
      case 'tool_call':
        out.push(this.commit({ kind: 'tool_call', toolCallId: event.toolCallId, toolName: event.toolName, input: event.input }));
        break;
      case 'tool_result': {
        const call = this.findCall(event.toolCallId, event.toolName);
        out.push(
          this.commit({
            kind: 'tool_result',
            toolCallId: event.toolCallId ?? call?.toolCallId ?? '',
            toolName: event.toolName ?? call?.toolName ?? 'unknown',
            output: event.output,
            isError: event.isError ?? false,
          }),
        );
        break;
      }
      case 'approval': {
        const body: EntryBody = { kind: 'approval', decision: event.decision };
        if (event.toolCallId) body.toolCallId = event.toolCallId;
        if (event.detail) body.detail = event.detail;
        out.push(this.commit(body, SYSTEM));
        break;
      }
      case 'turn_end': {
        const body: EntryBody = { kind: 'turn_end' };
        if (event.usage) body.usage = event.usage;
        if (event.costUsd !== undefined) body.costUsd = event.costUsd;
        out.push(this.commit(body));
        break;
      }
      case 'notice':
        out.push(this.commit({ kind: 'notice', text: event.text }, SYSTEM));
        break;
      case 'error': {
        const body: EntryBody = { kind: 'error', text: event.text };
        if (event.code) body.code = event.code;
        out.push(this.commit(body, SYSTEM));
        break;
      }
      case 'session': {
        const seg = this.currentSegment;
        if (seg && seg.agentSession !== event.agentSession) {
          out.push(this.commit({ kind: 'agent_session', harness: seg.harness, agentSession: event.agentSession }, SYSTEM));
        }
        break;
      }
    }
    this.emit(out, event.type === 'turn_end');
    return out;
  }

  /**
   * Records a notice for a refused event. One per segment, event type and field: a driver
   * that gets one field wrong on every streamed chunk must not flood the log; the notice
   * says that later ones are refused without another.
   */
  private refuse(r: EventRefusal): Entry[] {
    const seg = this.currentSegment;
    const known = r.field !== 'type' && r.field !== 'event';
    const key = `${seg?.id ?? ''}\0${known ? r.type : '?'}\0${r.field}`;
    if (this.refusalsTold.has(key)) return [];
    this.refusalsTold.add(key);
    const driver = seg ? `driver ${seg.harness}` : 'a driver';
    const what =
      r.field === 'event'
        ? 'an event that'
        : r.field === 'type'
          ? `an event whose type${r.type === '?' ? '' : ` "${r.type}"`}`
          : `${/^[aeiou]/i.test(r.type) ? 'an' : 'a'} ${r.type} event whose ${r.field}`;
    const text = `baton refused ${what} ${r.problem} (from ${driver}); it was not recorded. Later events with the same fault from this driver are refused without another notice.`;
    const out = [...this.flushPending(), this.commit({ kind: 'notice', text }, SYSTEM)];
    this.emit(out, r.type === 'turn_end');
    return out;
  }

  /** Commits any streamed text still open. Call at turn ends and before reading a slice. */
  flush(): Entry[] {
    const out = this.flushPending();
    this.emit(out, false);
    return out;
  }

  /** Closes the current segment and opens one for another harness/model, recording the handoff. */
  startSegment(s: StartSegment): Entry {
    const flushed = this.flushPending();
    const cur = this.currentSegment;
    const from: AgentRef | null = cur ? { harness: cur.harness, model: cur.model } : null;
    const newSegment = `s${this.segs.length + 1}`;
    const body: EntryBody = {
      kind: 'handoff',
      from,
      to: { harness: s.harness, model: s.model },
      newSegment,
      switchId: s.switchId,
      mode: s.mode ?? 'fresh',
      briefChars: s.briefChars ?? 0,
      uptoSeq: s.uptoSeq ?? this.lastSeq,
    };
    if (s.account) body.account = s.account;
    if (cur?.account) body.fromAccount = cur.account;
    if (s.local) body.local = { endpoint: s.local.endpoint, api: s.local.api };
    if (cur?.local) body.fromLocal = { endpoint: cur.local.endpoint, api: cur.local.api };
    if (s.briefHash) body.briefHash = s.briefHash;
    if (s.budget !== undefined) body.budget = s.budget;
    if (s.sinceSeq !== undefined) body.sinceSeq = s.sinceSeq;
    if (s.briefTitle !== undefined) body.briefTitle = s.briefTitle;
    if (s.git) {
      const { contextFiles, ...rest } = s.git;
      body.git = contextFiles ? { ...rest, contextFiles: contextFiles.map((f) => ({ path: f.path, text: f.text })) } : rest;
    }
    const entry = this.commit(body, SYSTEM, { segment: newSegment });
    this.emit([...flushed, entry], true);
    return entry;
  }

  /**
   * Records that `harness`'s own session has now seen everything up to `deliveredSeq`.
   * `fork`: the session is another conversation's, to be forked rather than continued.
   * `account`: the account the session lives in; by default the current segment's, when
   * that segment is `harness`'s (the session is the one it ran).
   */
  confirmCursor(harness: string, agentSession: string, deliveredSeq: number, opts: { fork?: boolean; account?: string } = {}): Entry {
    const body: EntryBody = { kind: 'cursor', harness, agentSession, deliveredSeq };
    if (opts.fork) body.fork = true;
    const cur = this.currentSegment;
    const account = 'account' in opts ? opts.account : cur?.harness === harness ? cur.account : undefined;
    if (account) body.account = account;
    const out = [...this.flushPending(), this.commit(body, SYSTEM)];
    this.emit(out, true);
    return out[out.length - 1]!;
  }

  /** A native resume failed: forget the harness's session so the next start is a fresh replay. */
  invalidateCursor(harness: string): Entry {
    const out = [...this.flushPending(), this.commit({ kind: 'cursor', harness, agentSession: null, deliveredSeq: 0 }, SYSTEM)];
    this.emit(out, true);
    return out[out.length - 1]!;
  }

  cursor(harness: string): NativeCursor | undefined {
    return this.cursorMap.get(harness);
  }

  /**
   * Records the current segment's agent's summary of entries fromSeq..toSeq (asked for in an
   * extra turn before a switch); its author is that agent, as for its replies.
   */
  summary(text: string, fromSeq: number, toSeq: number): Entry {
    const out = [...this.flushPending(), this.commit({ kind: 'summary', text, fromSeq, toSeq })];
    this.emit(out, true);
    return out[out.length - 1]!;
  }

  /** Records a reset: entries after `toSeq` are hidden from now on, not deleted. */
  reset(toSeq: number, opts: { restored?: boolean; undoes?: number } = {}): Entry {
    const body: EntryBody = { kind: 'reset', toSeq };
    if (opts.restored) body.restored = true;
    if (opts.undoes !== undefined) body.undoes = opts.undoes;
    const out = [...this.flushPending(), this.commit(body, SYSTEM)];
    this.emit(out, true);
    return out[out.length - 1]!;
  }

  // The list is in seq order (commit() numbers and pushes; the store skips out-of-order lines),
  // so a handoff at 100k entries searches it rather than filtering it whole.

  /** Entries with seq <= `seq`. */
  upto(seq: number): Entry[] {
    return this.list.slice(0, lastIndexAtOrBelow(this.list, seq) + 1);
  }

  /** Entries with seq > `seq`. */
  since(seq: number): Entry[] {
    return this.list.slice(lastIndexAtOrBelow(this.list, seq) + 1);
  }

  entry(seq: number): Entry | undefined {
    // seqs are dense from 1 in a store-loaded log, but a corrupt line may leave a gap.
    const guess = this.list[seq - 1];
    if (guess?.seq === seq) return guess;
    return this.list.find((e) => e.seq === seq);
  }

  /** The entries a reader sees: those hidden by a (not undone) reset are left out. */
  visible(): Entry[] {
    const undone = new Set<number>();
    for (const e of this.list) if (e.kind === 'reset' && e.undoes !== undefined) undone.add(e.undoes);
    const hidden = new Set<number>();
    for (const e of this.list) {
      if (e.kind !== 'reset' || e.undoes !== undefined || undone.has(e.seq)) continue;
      for (const h of this.list) if (h.seq > e.toSeq && h.seq < e.seq) hidden.add(h.seq);
    }
    return hidden.size ? this.list.filter((e) => !hidden.has(e.seq)) : [...this.list];
  }

  /** The segment an entry belongs to. */
  segmentOf(entry: Entry): Segment | undefined {
    return this.segs.find((s) => s.id === entry.segment);
  }

  private findCall(toolCallId: string | undefined, toolName: string | undefined) {
    for (let i = this.list.length - 1; i >= 0; i--) {
      const e = this.list[i]!;
      if (e.kind !== 'tool_call') continue;
      if (toolCallId ? e.toolCallId === toolCallId : e.toolName === toolName) return e;
    }
    return undefined;
  }

  private flushPending(): Entry[] {
    const p = this.pending;
    this.pending = undefined;
    if (!p || p.text === '') return [];
    return [this.commit({ kind: p.kind, text: p.text })];
  }

  private commit(body: EntryBody, author?: Author, extra: { checkpoint?: string; segment?: string } = {}): Entry {
    const seg = this.currentSegment;
    const entry = {
      ...body,
      seq: this.lastSeq + 1,
      at: this.now().toISOString(),
      author: author ?? (seg ? { type: 'agent', harness: seg.harness, model: seg.model } : SYSTEM),
      segment: extra.segment ?? seg?.id ?? 's0',
    } as Entry;
    if (extra.checkpoint) entry.checkpoint = extra.checkpoint;
    // Credentials never reach the log: what is kept in memory is what is stored.
    const clean = redactEntry(entry);
    this.index(clean);
    return clean;
  }

  private emit(entries: Entry[], sync: boolean) {
    if (entries.length && this.sink) this.sink(entries, { sync });
  }

  /** Adds an entry (new or loaded) and updates the derived state. */
  private index(e: Entry) {
    this.list.push(e);
    switch (e.kind) {
      case 'handoff': {
        const seg: Segment = { id: e.newSegment, harness: e.to.harness, model: e.to.model, firstSeq: e.seq };
        if (e.account) seg.account = e.account;
        if (e.local) seg.local = { endpoint: e.local.endpoint, api: e.local.api };
        this.segs.push(seg);
        break;
      }
      case 'agent_session': {
        const seg = this.segs.find((s) => s.id === e.segment) ?? this.currentSegment;
        if (seg) seg.agentSession = e.agentSession;
        break;
      }
      case 'cursor':
        if (e.agentSession === null) this.cursorMap.delete(e.harness);
        else
          this.cursorMap.set(e.harness, {
            harness: e.harness,
            agentSession: e.agentSession,
            deliveredSeq: e.deliveredSeq,
            ...(e.fork === true ? { fork: true as const } : {}),
            ...(typeof e.account === 'string' ? { account: e.account } : {}),
          });
        break;
    }
  }
}
