// ACP `session/update` notifications -> baton's normalized TranscriptEvents, for one turn.
// Pure: no I/O, no connection. Agents announce a tool call before its input is final
// (claude-code-acp sends the input in a later update), so a pending call is held until it
// starts running, is asked about, or something else is said; every call gets a result
// before the turn ends (a rejected one at its rejection), so the neutral transcript stays
// pairable in any wire format.
// A turn's usage is the prompt response's; an agent that sends none there but reports each
// model call's usage as a message chunk's `_meta.usage` in ACP's own Usage shape (Qwen
// Code 0.15) gets the sum of those. Never invents content: what is not in an update is
// not in an event.

import type { TranscriptEvent, Usage } from './api.js';
import type { AcpUsage, ContentBlock, SessionUpdate, ToolCallContent } from './acp-sdk.js';
import { addUsage } from './usage.js';

interface ToolState {
  id: string;
  name?: string;
  title?: string;
  /**
   * The first title the agent gave. Agents retitle a call with its input once it is known
   * (opencode: `bash` becomes the command line), so the first one is the tool's name.
   */
  firstTitle?: string;
  kind?: string;
  input?: unknown;
  locations?: unknown;
  status?: string;
  content?: ToolCallContent[];
  rawOutput?: unknown;
  called: boolean;
  answered: boolean;
}

export interface AcpEventMapperOptions {
  /** Output of a client terminal, for tool results that show one. */
  terminalOutput?(terminalId: string): string | undefined;
}

const DONE = new Set(['completed', 'failed']);

function blockText(b: ContentBlock): string {
  switch (b.type) {
    case 'text':
      return b.text;
    case 'resource_link':
      return `[${b.name ?? 'resource'}: ${b.uri}]`;
    case 'resource':
      return 'text' in b.resource ? b.resource.text : `[resource: ${b.resource.uri}]`;
    case 'image':
      return '[image]';
    case 'audio':
      return '[audio]';
    default:
      return '';
  }
}

export function acpUsage(u: AcpUsage | null | undefined): Usage | undefined {
  if (!u) return undefined;
  const out: Usage = {};
  if (typeof u.inputTokens === 'number') out.inputTokens = u.inputTokens;
  if (typeof u.outputTokens === 'number') out.outputTokens = u.outputTokens;
  if (typeof u.cachedReadTokens === 'number') out.cachedInputTokens = u.cachedReadTokens;
  if (typeof u.thoughtTokens === 'number') out.reasoningTokens = u.thoughtTokens;
  return Object.keys(out).length ? out : undefined;
}

export class AcpEventMapper {
  private readonly tools = new Map<string, ToolState>();
  private readonly order: string[] = [];
  private readonly emit: (e: TranscriptEvent) => void;
  private readonly opts: AcpEventMapperOptions;
  private costBaseline: number | undefined;
  private costLatest: number | undefined;
  /** The sum of the usage the agent reported in chunks' `_meta` during the turn. */
  private metaUsage: Usage | undefined;
  private lastPlan = '';

  constructor(emit: (e: TranscriptEvent) => void, opts: AcpEventMapperOptions = {}) {
    this.emit = emit;
    this.opts = opts;
  }

  /**
   * An update seen outside the turn (a `session/load` replay): nothing is emitted, but the
   * session's running cost is noted so the turn's own cost can be told apart.
   */
  observe(update: SessionUpdate): void {
    if (update.sessionUpdate === 'usage_update' && update.cost?.currency === 'USD') this.costBaseline = update.cost.amount;
  }

  update(update: SessionUpdate): void {
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
      case 'agent_thought_chunk': {
        const meta = update._meta as { usage?: AcpUsage } | null | undefined;
        if (meta && typeof meta.usage === 'object') this.metaUsage = addUsage(this.metaUsage, acpUsage(meta.usage));
        const text = blockText(update.content);
        if (!text) return;
        this.flushCalls();
        const type = update.sessionUpdate === 'agent_message_chunk' ? 'agent_text' : 'reasoning';
        this.emit(update.messageId ? { type, text, messageId: update.messageId } : { type, text });
        return;
      }
      case 'tool_call':
      case 'tool_call_update':
        this.toolUpdate(update);
        return;
      case 'plan': {
        const text = update.entries.map((e) => `${e.status === 'completed' ? '[x]' : '[ ]'} ${e.content}`).join('\n');
        if (!text || text === this.lastPlan) return;
        this.lastPlan = text;
        this.flushCalls();
        this.emit({ type: 'notice', text: `Plan:\n${text}` });
        return;
      }
      case 'usage_update':
        if (update.cost?.currency === 'USD') this.costLatest = update.cost.amount;
        return;
      case 'notice': {
        const text = update.description ? `${update.title}: ${update.description}` : update.title;
        if (text) {
          this.flushCalls();
          this.emit({ type: 'notice', text });
        }
        return;
      }
      default:
        // user_message_chunk echoes our own prompt; mode, command and config updates are
        // the agent's UI state, not conversation.
        return;
    }
  }

  /** The agent asks permission for this call: it must appear before the approval does. */
  beforeApproval(toolCallId: string, fields?: { title?: string | null; name?: string | null; kind?: string | null; rawInput?: unknown }): void {
    const t = this.state(toolCallId);
    if (fields) this.merge(t, fields);
    this.call(t);
  }

  /**
   * The permission for this call was rejected: it will not run, so its result is known now and
   * is written at once, before anything the agent says next. Gemini CLI never reports a
   * rejected call as failed, so without this its result came only at the turn's end, after
   * the agent's reply, and said the tool had not finished. An agent that does report it later
   * (status failed) adds nothing: the call has its result.
   */
  rejected(toolCallId: string, how: string): void {
    const t = this.state(toolCallId);
    if (!t.answered) this.result(t, `(rejected: ${how}; the tool did not run)`, true);
  }

  /** End of turn: everything pending is written out, then the turn end with its usage. */
  finish(usage?: AcpUsage | null): void {
    this.flushCalls();
    for (const id of this.order) {
      const t = this.tools.get(id)!;
      if (!t.answered) this.result(t, '(no result: the turn ended before the tool finished)', true);
    }
    const end: TranscriptEvent = { type: 'turn_end' };
    const u = acpUsage(usage) ?? this.metaUsage;
    if (u) end.usage = u;
    if (this.costLatest !== undefined) {
      const cost = this.costLatest - (this.costBaseline ?? 0);
      if (cost >= 0) end.costUsd = Math.round(cost * 1e6) / 1e6;
    }
    this.emit(end);
  }

  private state(id: string): ToolState {
    let t = this.tools.get(id);
    if (!t) {
      t = { id, called: false, answered: false };
      this.tools.set(id, t);
      this.order.push(id);
    }
    return t;
  }

  private merge(t: ToolState, u: Record<string, unknown>): void {
    if (typeof u.name === 'string' && u.name) t.name = u.name;
    if (typeof u.title === 'string' && u.title) {
      t.title = u.title;
      t.firstTitle ??= u.title;
    }
    if (typeof u.kind === 'string') t.kind = u.kind;
    if (u.rawInput !== undefined && u.rawInput !== null) t.input = u.rawInput;
    if (Array.isArray(u.locations) && u.locations.length) t.locations = u.locations;
    if (typeof u.status === 'string') t.status = u.status;
    if (Array.isArray(u.content)) t.content = u.content as ToolCallContent[];
    if (u.rawOutput !== undefined && u.rawOutput !== null) t.rawOutput = u.rawOutput;
  }

  private toolUpdate(u: Extract<SessionUpdate, { sessionUpdate: 'tool_call' | 'tool_call_update' }>): void {
    const t = this.state(u.toolCallId);
    this.merge(t, u as unknown as Record<string, unknown>);
    if (t.status === 'in_progress' || (t.status && DONE.has(t.status))) this.call(t);
    if (t.status && DONE.has(t.status) && !t.answered) this.result(t, this.output(t), t.status === 'failed');
  }

  private toolName(t: ToolState): string {
    return t.name ?? t.firstTitle ?? t.kind ?? 'tool';
  }

  private call(t: ToolState): void {
    if (t.called) return;
    t.called = true;
    const input = t.input ?? (t.locations ? { locations: t.locations } : t.title ? { title: t.title } : {});
    this.emit({ type: 'tool_call', toolCallId: t.id, toolName: this.toolName(t), input });
  }

  private result(t: ToolState, output: string, isError: boolean): void {
    this.call(t);
    t.answered = true;
    this.emit({ type: 'tool_result', toolCallId: t.id, toolName: this.toolName(t), output, isError });
  }

  private flushCalls(): void {
    for (const id of this.order) this.call(this.tools.get(id)!);
  }

  private output(t: ToolState): string {
    const parts: string[] = [];
    for (const c of t.content ?? []) {
      if (c.type === 'content') parts.push(blockText(c.content));
      else if (c.type === 'diff') parts.push(`${c.oldText == null ? 'created' : 'edited'} ${c.path}`);
      else if (c.type === 'terminal') {
        const out = this.opts.terminalOutput?.(c.terminalId);
        if (out !== undefined) parts.push(out);
      }
    }
    const text = parts.filter(Boolean).join('\n');
    if (text) return text;
    if (typeof t.rawOutput === 'string') return t.rawOutput;
    if (t.rawOutput !== undefined) return JSON.stringify(t.rawOutput);
    return '';
  }
}
