// Gemini CLI's own chat log -> baton's normalized events. Gemini 0.61 keeps one file per
// session, `~/.gemini/tmp/<project>/chats/session-<YYYY-MM-DDTHH-MM>-<id8>.jsonl`, written as
// a change log: a header `{ sessionId, projectHash, startTime, kind }` (again at each
// resume), message records `{ id, timestamp, type: user|gemini|info|warning|error, content,
// thoughts?, tokens?, toolCalls? }` that are re-appended whole when they change (a gemini
// message gets its toolCalls once they completed), `{ $set: {...} }` metadata updates whose
// `messages` replaces the whole history (at start, at each resume, after compression) and
// `{ $rewindTo: id }`. Two readers share the message conversion here: a follower that turns
// a growing log into events as lines arrive (each message once, only what is new), and a
// replay that rebuilds a whole session the way gemini itself loads it. Pure; never throws on
// a record; shapes it does not know are counted in `skipped`.

import { addUsage, type TranscriptEvent, type Usage } from '../../src/plugins/kit.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

const TERMINAL_STATUS = new Set(['success', 'error', 'cancelled']);
const MESSAGE_TYPES = new Set(['user', 'gemini', 'info', 'warning', 'error']);

function parts(content: unknown): Obj[] {
  if (typeof content === 'string') return [{ text: content }];
  if (Array.isArray(content)) return content.map((p) => (typeof p === 'string' ? { text: p } : isObj(p) ? p : {}));
  return isObj(content) ? [content] : [];
}

/** The plain text of a message's content (thought parts left out). */
export function contentText(content: unknown): string {
  return parts(content)
    .filter((p) => typeof p.text === 'string' && !p.thought)
    .map((p) => p.text as string)
    .join('');
}

/** User content gemini itself never sends back as a prompt: its setup context, slash commands. */
export function isIgnoredUserText(text: string): boolean {
  const t = text.trim();
  return !t || t.startsWith('/') || t.startsWith('?') || t.startsWith('<session_context>') || t.startsWith('<hook_context>');
}

export function geminiUsage(tokens: unknown): Usage | undefined {
  if (!isObj(tokens)) return undefined;
  const n = (k: string) => (typeof tokens[k] === 'number' ? (tokens[k] as number) : 0);
  return { inputTokens: n('input'), outputTokens: n('output'), cachedInputTokens: n('cached'), reasoningTokens: n('thoughts') };
}

/** A function response's text: what the tool told the model. */
function responseText(resp: unknown): { output: string; isError: boolean } {
  const r = isObj(resp) ? resp : {};
  if (typeof r.output === 'string') return { output: r.output, isError: false };
  if (r.error !== undefined) return { output: typeof r.error === 'string' ? r.error : JSON.stringify(r.error), isError: true };
  return { output: JSON.stringify(r), isError: false };
}

function toolResultText(result: unknown, display: unknown): string {
  if (typeof result === 'string') return result;
  const texts: string[] = [];
  for (const p of parts(result)) {
    if (isObj(p.functionResponse)) texts.push(responseText(p.functionResponse.response).output);
    else if (typeof p.text === 'string') texts.push(p.text);
  }
  if (texts.length) return texts.join('\n');
  return typeof display === 'string' ? display : '';
}

/** Which calls and results were already turned into events (a session repeats them). */
export interface ToolMemory {
  calls: Set<string>;
  results: Set<string>;
  names: Map<string, string>;
}

export const newToolMemory = (): ToolMemory => ({ calls: new Set(), results: new Set(), names: new Map() });

function callEvent(mem: ToolMemory, id: string, name: string, input: unknown): TranscriptEvent[] {
  mem.names.set(id, name);
  if (mem.calls.has(id)) return [];
  mem.calls.add(id);
  return [{ type: 'tool_call', toolCallId: id, toolName: name, input: input ?? {} }];
}

function resultEvent(mem: ToolMemory, id: string, output: string, isError: boolean): TranscriptEvent[] {
  if (mem.results.has(id)) return [];
  mem.results.add(id);
  return [{ type: 'tool_result', toolCallId: id, toolName: mem.names.get(id) ?? 'unknown', output, isError }];
}

/** The thoughts of a gemini message as reasoning text. */
function thoughtText(t: unknown): string {
  if (!isObj(t)) return '';
  const d = str(t.description) ?? '';
  return t.subject ? `**${String(t.subject)}** ${d}` : d;
}

/**
 * Events for the parts of one message not yet emitted, given what `seen` says was emitted
 * before (nothing for a message seen for the first time). Returns the new `seen`.
 */
export interface MessageProgress {
  text: string;
  thoughts: number;
}

export function messageEvents(msg: Obj, mem: ToolMemory, seen?: MessageProgress): { events: TranscriptEvent[]; progress: MessageProgress } {
  const events: TranscriptEvent[] = [];
  const progress: MessageProgress = { text: seen?.text ?? '', thoughts: seen?.thoughts ?? 0 };
  const id = str(msg.id) ?? '';
  switch (msg.type) {
    case 'user': {
      const text = contentText(msg.content);
      if (!seen && !isIgnoredUserText(text)) events.push({ type: 'user_text', text });
      // Tool results gemini sends back as a user turn (after a resume rewrite they are the only record of them).
      for (const p of parts(msg.content)) {
        const fr = p.functionResponse;
        if (!isObj(fr)) continue;
        const callId = str(fr.id) ?? '';
        if (str(fr.name) && !mem.names.has(callId)) mem.names.set(callId, fr.name as string);
        const r = responseText(fr.response);
        events.push(...resultEvent(mem, callId, r.output, r.isError));
      }
      break;
    }
    case 'gemini': {
      const thoughts = Array.isArray(msg.thoughts) ? msg.thoughts : [];
      for (const t of thoughts.slice(progress.thoughts)) {
        const text = thoughtText(t);
        if (text) events.push({ type: 'reasoning', text, messageId: `${id}:thought` });
      }
      progress.thoughts = Math.max(progress.thoughts, thoughts.length);
      const text = contentText(msg.content);
      // A message re-appended with more text: only the new end. A rewrite: nothing.
      if (text?.startsWith(progress.text) && text.length > progress.text.length) {
        events.push({ type: 'agent_text', text: text.slice(progress.text.length), messageId: id });
        progress.text = text;
      }
      for (const p of parts(msg.content)) {
        const fc = p.functionCall;
        if (isObj(fc)) events.push(...callEvent(mem, str(fc.id) ?? `${id}:${String(fc.name)}`, str(fc.name) ?? 'unknown', fc.args));
      }
      for (const tc of Array.isArray(msg.toolCalls) ? msg.toolCalls : []) {
        if (!isObj(tc)) continue;
        const callId = str(tc.id) ?? '';
        events.push(...callEvent(mem, callId, str(tc.name) ?? 'unknown', tc.args));
        if (typeof tc.status === 'string' && TERMINAL_STATUS.has(tc.status)) {
          events.push(...resultEvent(mem, callId, toolResultText(tc.result, tc.resultDisplay), tc.status !== 'success'));
        }
      }
      break;
    }
    case 'info':
    case 'warning': {
      const text = contentText(msg.content);
      if (!seen && text) events.push({ type: 'notice', text: `gemini: ${text}` });
      break;
    }
    case 'error': {
      const text = contentText(msg.content);
      if (!seen && text) events.push({ type: 'error', text: `gemini: ${text}` });
      break;
    }
  }
  return { events, progress };
}

const isMessage = (r: Obj) => typeof r.id === 'string';
const isHeader = (r: Obj) => typeof r.sessionId === 'string' && typeof r.projectHash === 'string';

/** Does this message start a new turn (a prompt the user typed)? */
function isPrompt(msg: Obj): boolean {
  return msg.type === 'user' && !isIgnoredUserText(contentText(msg.content));
}

/** Follows a growing chat log: feed records in order; each message's events come once. */
export class GeminiLogFollower {
  skipped = 0;
  readonly unknownShapes = new Set<string>();
  sessionId: string | undefined;
  projectHash: string | undefined;
  private readonly progress = new Map<string, MessageProgress>();
  private readonly tokens = new Map<string, Usage | undefined>();
  private readonly mem = newToolMemory();
  private readonly since: number | undefined;
  /** Gemini messages of the turn in progress (for its usage). */
  private turn: string[] = [];
  private open = false;
  private endDue = false;

  constructor(opts: { since?: Date } = {}) {
    this.since = opts.since?.getTime();
  }

  /**
   * Whether the log has gone quiet on a finished-looking answer: gemini writes no turn
   * boundary, so the caller ends the turn (flushTurnEnd) when nothing follows for a while.
   */
  get turnEndDue(): boolean {
    return this.open && this.endDue;
  }

  feed(record: unknown): TranscriptEvent[] {
    if (!isObj(record)) return this.skip('(not an object)');
    if (isHeader(record)) {
      const id = record.sessionId as string;
      this.projectHash = record.projectHash as string;
      if (id === this.sessionId) return [];
      this.sessionId = id;
      return [{ type: 'session', agentSession: id }];
    }
    if (isMessage(record)) return this.message(record);
    if (isObj(record.$set)) {
      // A history rewrite (start, resume, compression): what it holds was seen already or
      // is gemini's own restatement, so it is remembered, not shown again.
      for (const m of Array.isArray(record.$set.messages) ? record.$set.messages : []) {
        if (!isObj(m) || typeof m.id !== 'string' || this.progress.has(m.id)) continue;
        this.progress.set(m.id, messageEvents(m, newToolMemory()).progress);
      }
      return [];
    }
    if (typeof record.$rewindTo === 'string') return [{ type: 'notice', text: 'gemini rewound the conversation to an earlier message' }];
    return this.skip(Object.keys(record).slice(0, 3).join(','));
  }

  /** The turn_end for a turn that looks finished; empty when none is due. */
  flushTurnEnd(): TranscriptEvent[] {
    if (!this.turnEndDue) return [];
    return [this.endTurn()];
  }

  private skip(shape: string): TranscriptEvent[] {
    this.skipped++;
    this.unknownShapes.add(shape);
    return [];
  }

  private endTurn(): TranscriptEvent {
    let usage: Usage | undefined;
    for (const id of this.turn) usage = addUsage(usage, this.tokens.get(id));
    this.turn = [];
    this.open = false;
    this.endDue = false;
    return usage ? { type: 'turn_end', usage } : { type: 'turn_end' };
  }

  private message(msg: Obj): TranscriptEvent[] {
    const id = msg.id as string;
    if (typeof msg.type !== 'string' || !MESSAGE_TYPES.has(msg.type)) return this.skip(`message/${String(msg.type)}`);
    const seen = this.progress.get(id);
    const at = Date.parse(str(msg.timestamp) ?? '');
    const old = this.since !== undefined && !Number.isNaN(at) && at < this.since;
    const { events, progress } = messageEvents(msg, this.mem, seen);
    this.progress.set(id, progress);
    if (old) return [];
    const out: TranscriptEvent[] = [];
    if (!seen && isPrompt(msg) && this.open) out.push(this.endTurn());
    if (msg.type === 'gemini') {
      this.tokens.set(id, geminiUsage(msg.tokens));
      if (!this.turn.includes(id)) this.turn.push(id);
      const calls = Array.isArray(msg.toolCalls) && msg.toolCalls.length > 0;
      this.endDue = !calls && contentText(msg.content).trim().length > 0;
    } else if (msg.type === 'error' || msg.type === 'info') {
      // An API error or a cancellation ends what the model was doing.
      this.endDue = this.open;
    } else if (!isPrompt(msg)) {
      this.endDue = false; // tool results going back: the model answers next
    }
    if (isPrompt(msg) || msg.type === 'gemini') this.open = true;
    out.push(...events);
    return out;
  }
}

export interface ReplayedSession {
  sessionId?: string;
  projectHash?: string;
  events: TranscriptEvent[];
  skipped: number;
  model?: string;
}

/**
 * A whole session as gemini would load it: which messages survive and in what order follow
 * its own rules ($set.messages replaces, $rewindTo cuts); each message is taken in its
 * richest recorded form (the original record, with its tool calls and token counts, rather
 * than a resume's restatement). Turns end before each prompt and at the end.
 */
export function replayGeminiLog(records: Iterable<unknown>): ReplayedSession {
  let order: string[] = [];
  const latest = new Map<string, Obj>();
  const original = new Map<string, Obj>();
  let skipped = 0;
  let sessionId: string | undefined;
  let projectHash: string | undefined;
  const put = (m: Obj, fromSet: boolean) => {
    const id = m.id as string;
    if (!order.includes(id)) order.push(id);
    latest.set(id, m);
    if (!fromSet) original.set(id, m);
  };
  for (const r of records) {
    if (!isObj(r)) {
      skipped++;
      continue;
    }
    if (isHeader(r)) {
      sessionId = r.sessionId as string;
      projectHash = r.projectHash as string;
      for (const m of Array.isArray(r.messages) ? r.messages : []) if (isObj(m) && isMessage(m)) put(m, false);
    } else if (isMessage(r)) {
      if (typeof r.type !== 'string' || !MESSAGE_TYPES.has(r.type)) skipped++;
      else put(r, false);
    } else if (isObj(r.$set)) {
      if (Array.isArray(r.$set.messages)) {
        order = [];
        for (const m of r.$set.messages) if (isObj(m) && isMessage(m)) put(m, true);
      }
    } else if (typeof r.$rewindTo === 'string') {
      const at = order.indexOf(r.$rewindTo);
      order = at === -1 ? [] : order.slice(0, at);
    } else skipped++;
  }
  const mem = newToolMemory();
  const events: TranscriptEvent[] = [];
  let usage: Usage | undefined;
  let open = false;
  let model: string | undefined;
  const end = () => {
    if (open) events.push(usage ? { type: 'turn_end', usage } : { type: 'turn_end' });
    usage = undefined;
    open = false;
  };
  for (const id of order) {
    const msg = original.get(id) ?? latest.get(id)!;
    if (isPrompt(msg)) end();
    events.push(...messageEvents(msg, mem).events);
    if (msg.type === 'gemini') {
      usage = addUsage(usage, geminiUsage(msg.tokens));
      if (typeof msg.model === 'string') model = msg.model;
    }
    if (isPrompt(msg) || msg.type === 'gemini') open = true;
  }
  end();
  return { ...(sessionId ? { sessionId } : {}), ...(projectHash ? { projectHash } : {}), events, skipped, ...(model ? { model } : {}) };
}
