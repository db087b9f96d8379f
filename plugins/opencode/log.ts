// opencode's own session records -> baton's normalized transcript events. opencode 1.18
// keeps sessions in a SQLite database whose `event` table is an append-only log per
// session: `session.created.1`, `message.updated.1`, `message.part.updated.1`, ... each
// carrying the full current state of one session, message or part. A part is written
// again as it grows (a text part empty, then whole; a tool part pending, running,
// completed), so the parser remembers what it already said and emits only what is new.
// The same parser reads a whole session from the message/part tables (readSession),
// fed as the same record shapes. Pure: records in, events out; it never touches the
// database. Record shapes it does not know are skipped and counted, never fatal.

import type { TranscriptEvent, Usage } from '../../src/plugins/kit.js';

/** One row of opencode's `event` table (or a message/part row in the same shape). */
export interface OpencodeRecord {
  seq?: number;
  /** `message.part.updated.1`: the event name and its schema version. */
  type: string;
  /** The parsed `data` column. */
  data: unknown;
}

export interface OpencodeParserOptions {
  /** Messages created before this belong to earlier turns: their parts give no events. */
  since?: Date;
}

type Obj = Record<string, unknown>;

interface MessageState {
  role: 'user' | 'assistant';
  old: boolean;
  /** The user message this assistant message answers: the turn it belongs to. */
  parentID?: string;
  completed: boolean;
  /** A tool call in it was refused (permission or question rejected): opencode stops the turn there. */
  refused: boolean;
}

interface TurnState {
  usage: Required<Usage>;
  cost: number;
  ended: boolean;
}

interface PartState {
  /** Characters of text already emitted. */
  said: number;
  called: boolean;
  resulted: boolean;
}

/** The event names (without version) this parser knows; any other is skipped and counted. */
const KNOWN = new Set([
  'session.created',
  'session.updated',
  'session.deleted',
  'message.updated',
  'message.removed',
  'message.part.updated',
  'message.part.removed',
]);

/** Part types that carry nothing for the transcript (steps, snapshots, patches, agents, retries). */
const QUIET_PARTS = new Set(['step-start', 'step-finish', 'snapshot', 'patch', 'agent', 'subtask', 'retry', 'file']);

/**
 * opencode's messages for a refused permission or dismissed question (RejectedError), after
 * which it ends the turn instead of going back to the model. A tool that merely failed, or
 * a "deny" rule, goes back to the model with the error.
 */
const REFUSED = /^The user (rejected permission to use this specific tool call|dismissed this question)/;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

export class OpencodeLogParser {
  skipped = 0;
  sessionId: string | undefined;
  model: string | undefined;
  cwd: string | undefined;
  /** The highest `seq` fed: where a follower resumes. */
  lastSeq = -1;
  private readonly since: number;
  private readonly messages = new Map<string, MessageState>();
  private readonly parts = new Map<string, PartState>();
  private readonly turns = new Map<string, TurnState>();
  /** Parts seen before their message (never in opencode's own order, but cheap to allow). */
  private readonly waiting = new Map<string, Obj[]>();

  constructor(opts: OpencodeParserOptions = {}) {
    this.since = opts.since?.getTime() ?? -Infinity;
  }

  feed(record: OpencodeRecord): TranscriptEvent[] {
    if (typeof record.seq === 'number' && record.seq > this.lastSeq) this.lastSeq = record.seq;
    const m = /^([a-z.]+?)(?:\.(\d+))?$/.exec(record.type ?? '');
    const name = m?.[1];
    if (!name || !KNOWN.has(name) || !isObj(record.data)) return this.skip();
    const data = record.data;
    switch (name) {
      case 'session.created':
      case 'session.updated':
        return this.session(data.info);
      case 'message.updated':
        return this.message(data.info);
      case 'message.part.updated':
        return this.part(data.part);
      default:
        // Deletions and removals (a revert): the transcript keeps what was said.
        return [];
    }
  }

  private skip(): TranscriptEvent[] {
    this.skipped++;
    return [];
  }

  private session(info: unknown): TranscriptEvent[] {
    if (!isObj(info) || !str(info.id)) return this.skip();
    this.cwd ??= str(info.directory);
    if (isObj(info.model) && str(info.model.id)) this.model ??= modelName(str(info.model.providerID), str(info.model.id)!);
    if (this.sessionId) return [];
    this.sessionId = str(info.id)!;
    return [{ type: 'session', agentSession: this.sessionId }];
  }

  private message(info: unknown): TranscriptEvent[] {
    if (!isObj(info) || !str(info.id) || (info.role !== 'user' && info.role !== 'assistant')) return this.skip();
    const out: TranscriptEvent[] = [];
    const id = str(info.id)!;
    const sid = str(info.sessionID);
    if (sid && !this.sessionId) {
      this.sessionId = sid;
      out.push({ type: 'session', agentSession: sid });
    }
    const time = isObj(info.time) ? info.time : {};
    let msg = this.messages.get(id);
    if (!msg) {
      msg = { role: info.role, old: num(time.created) < this.since, completed: false, refused: false };
      const parent = str(info.parentID);
      if (parent) msg.parentID = parent;
      this.messages.set(id, msg);
    }
    if (info.role === 'assistant') {
      if (str(info.modelID)) this.model = modelName(str(info.providerID), str(info.modelID)!);
      if (isObj(info.path) && str(info.path.cwd)) this.cwd ??= str(info.path.cwd);
    }
    const waiting = this.waiting.get(id);
    if (waiting) {
      this.waiting.delete(id);
      for (const p of waiting) out.push(...this.part(p));
    }
    if (info.role === 'assistant' && !msg.completed && time.completed !== undefined) {
      msg.completed = true;
      if (!msg.old) out.push(...this.assistantDone(msg, info));
    }
    return out;
  }

  /** An assistant message is complete: add its usage to its turn; end the turn unless it only called tools. */
  private assistantDone(msg: MessageState, info: Obj): TranscriptEvent[] {
    const out: TranscriptEvent[] = [];
    const key = msg.parentID ?? str(info.id)!;
    let turn = this.turns.get(key);
    if (!turn) {
      turn = { usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 }, cost: 0, ended: false };
      this.turns.set(key, turn);
    }
    const t = isObj(info.tokens) ? info.tokens : {};
    const cache = isObj(t.cache) ? t.cache : {};
    turn.usage.inputTokens += num(t.input);
    turn.usage.outputTokens += num(t.output);
    turn.usage.reasoningTokens += num(t.reasoning);
    turn.usage.cachedInputTokens += num(cache.read);
    turn.cost += num(info.cost);
    const error = isObj(info.error) ? info.error : undefined;
    if (error) {
      const name = str(error.name) ?? 'error';
      const detail = isObj(error.data) ? str(error.data.message) : undefined;
      if (name === 'MessageAbortedError') out.push({ type: 'notice', text: 'the turn was interrupted' });
      else out.push({ type: 'error', text: detail ? `${name}: ${detail}` : name, code: name });
    }
    // After tool calls opencode goes on with the next step, unless one was refused.
    if ((info.finish !== 'tool-calls' || error || msg.refused) && !turn.ended) {
      turn.ended = true;
      const usage: Usage = {};
      for (const [k, v] of Object.entries(turn.usage) as [keyof Usage, number][]) if (v) usage[k] = v;
      out.push({ type: 'turn_end', ...(Object.keys(usage).length ? { usage } : {}), costUsd: turn.cost });
    }
    return out;
  }

  private part(part: unknown): TranscriptEvent[] {
    if (!isObj(part) || !str(part.id) || !str(part.messageID) || !str(part.type)) return this.skip();
    const msg = this.messages.get(str(part.messageID)!);
    if (!msg) {
      const list = this.waiting.get(str(part.messageID)!) ?? [];
      list.push(part);
      this.waiting.set(str(part.messageID)!, list);
      return [];
    }
    const type = str(part.type)!;
    if (QUIET_PARTS.has(type)) return [];
    if (msg.old) return type === 'text' || type === 'reasoning' || type === 'tool' || type === 'compaction' ? [] : this.skip();
    const id = str(part.id)!;
    let state = this.parts.get(id);
    if (!state) {
      state = { said: 0, called: false, resulted: false };
      this.parts.set(id, state);
    }
    switch (type) {
      case 'text':
        return this.text(part, msg, state);
      case 'reasoning':
        return this.reasoning(part, state);
      case 'tool':
        return this.tool(part, msg, state);
      case 'compaction':
        if (state.called) return [];
        state.called = true;
        return [{ type: 'notice', text: 'opencode compacted the conversation' }];
      default:
        return this.skip();
    }
  }

  private text(part: Obj, msg: MessageState, state: PartState): TranscriptEvent[] {
    const text = str(part.text);
    if (text === undefined) return this.skip();
    // Synthetic parts are context opencode added itself (file contents, reminders), not said by anyone.
    if (part.synthetic === true || part.ignored === true) return [];
    if (msg.role === 'user') {
      if (state.said || !text) return [];
      state.said = text.length;
      return [{ type: 'user_text', text }];
    }
    return this.grow(text, state, (chunk) => ({ type: 'agent_text', text: chunk, messageId: str(part.id)! }));
  }

  private reasoning(part: Obj, state: PartState): TranscriptEvent[] {
    const text = str(part.text);
    if (text === undefined) return this.skip();
    return this.grow(text, state, (chunk) => ({ type: 'reasoning', text: chunk, messageId: str(part.id)! }));
  }

  /** What a part's text gained since it was last seen; a rewritten text is said again in full. */
  private grow(text: string, state: PartState, make: (chunk: string) => TranscriptEvent): TranscriptEvent[] {
    if (text.length <= state.said) return [];
    const chunk = text.slice(state.said);
    state.said = text.length;
    return chunk ? [make(chunk)] : [];
  }

  private tool(part: Obj, msg: MessageState, state: PartState): TranscriptEvent[] {
    const st = isObj(part.state) ? part.state : undefined;
    const toolName = str(part.tool);
    if (!st || !toolName) return this.skip();
    const toolCallId = str(part.callID) ?? str(part.id)!;
    const status = str(st.status);
    const out: TranscriptEvent[] = [];
    if (status === 'pending') return out;
    if (status !== 'running' && status !== 'completed' && status !== 'error') return this.skip();
    if (!state.called) {
      state.called = true;
      out.push({ type: 'tool_call', toolCallId, toolName, input: st.input ?? {} });
    }
    if (!state.resulted && status === 'completed') {
      state.resulted = true;
      out.push({ type: 'tool_result', toolCallId, toolName, output: str(st.output) ?? JSON.stringify(st.output ?? ''), isError: false });
    } else if (!state.resulted && status === 'error') {
      state.resulted = true;
      const error = str(st.error) ?? 'the tool failed';
      if (REFUSED.test(error)) msg.refused = true;
      out.push({ type: 'tool_result', toolCallId, toolName, output: error, isError: true });
    }
    return out;
  }
}

function modelName(provider: string | undefined, model: string): string {
  return provider ? `${provider}/${model}` : model;
}
