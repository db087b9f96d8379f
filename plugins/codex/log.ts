// Codex CLI's own session log -> baton's normalized events. Codex 0.171 writes one rollout
// per thread, `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<local time>-<thread id>.jsonl`: each
// line `{ timestamp, type, payload }` with type session_meta, turn_context, world_state,
// response_item (what went to and came from the model), event_msg (turn lifecycle and UI
// items) or token_usage_record. This parser is pure: a record in, events out, keeping only
// what a rollout needs across lines (the session id, tool names by call id, the turn's usage).
// It never reads files and never throws on a record: shapes it does not know are counted
// in `skipped` and left out.

import type { TranscriptEvent, Usage } from '../../src/plugins/kit.js';

/** Records before this are history (a resumed session's earlier turns): state only, no events. */
export interface CodexLogOptions {
  since?: Date;
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

// Record and payload types seen in codex 0.171 rollouts that carry nothing baton shows.
const QUIET_RECORDS = new Set(['world_state']);
const QUIET_EVENTS = new Set(['task_started', 'thread_settings_applied', 'item_started', 'item_updated']);

/** Token usage as codex counts it (`turn_token_usage`, `last_token_usage`, exec's `usage`). */
export function codexUsage(u: unknown): Usage | undefined {
  if (!isObj(u)) return undefined;
  const out: Usage = {};
  const n = (k: string) => (typeof u[k] === 'number' ? (u[k] as number) : undefined);
  if (n('input_tokens') !== undefined) out.inputTokens = n('input_tokens');
  if (n('output_tokens') !== undefined) out.outputTokens = n('output_tokens');
  if (n('cached_input_tokens') !== undefined) out.cachedInputTokens = n('cached_input_tokens');
  if (n('reasoning_output_tokens') !== undefined) out.reasoningTokens = n('reasoning_output_tokens');
  return Object.keys(out).length ? out : undefined;
}

/** Text of a message's content parts (`input_text`, `output_text`, `text`, `Text`). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p) => (isObj(p) && typeof p.text === 'string' ? p.text : ''))
    .filter(Boolean)
    .join('\n');
}

function parseArgs(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw ?? {};
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** A function_call_output's text and whether it failed (codex reports shell exit codes in the text). */
function toolOutput(raw: unknown): { output: string; isError: boolean } {
  if (isObj(raw)) {
    const text = typeof raw.content === 'string' ? raw.content : contentText(raw.content) || JSON.stringify(raw);
    return { output: text, isError: raw.success === false };
  }
  const output = typeof raw === 'string' ? raw : contentText(raw);
  const exit = /Process exited with code (-?\d+)/.exec(output);
  return { output, isError: exit ? exit[1] !== '0' : false };
}

export class CodexLogParser {
  /** Records of shapes this parser does not know, skipped. */
  skipped = 0;
  /** What the skipped records were (`event_msg/foo`), for a one-time report. */
  readonly unknownShapes = new Set<string>();
  sessionId: string | undefined;
  cwd: string | undefined;
  model: string | undefined;
  cliVersion: string | undefined;
  private sessionSent: string | undefined;
  private readonly callNames = new Map<string, string>();
  private turnUsage: Usage | undefined;
  private readonly since: number | undefined;

  constructor(opts: CodexLogOptions = {}) {
    this.since = opts.since?.getTime();
  }

  /** Events for one rollout record (already JSON-parsed). */
  feed(record: unknown): TranscriptEvent[] {
    if (!isObj(record) || typeof record.type !== 'string') return this.skip('(not a record)');
    const at = str(record.timestamp);
    const old = this.since !== undefined && at !== undefined && Date.parse(at) < this.since;
    const out: TranscriptEvent[] = [];
    const emit = (e: TranscriptEvent) => {
      if (!old || e.type === 'session') out.push(e);
    };
    const payload = isObj(record.payload) ? record.payload : {};
    switch (record.type) {
      case 'session_meta':
        this.sessionMeta(payload, emit);
        break;
      case 'turn_context':
        if (typeof payload.model === 'string') this.model = payload.model;
        break;
      case 'token_usage_record':
        this.turnUsage = codexUsage(payload.turn_token_usage) ?? this.turnUsage;
        break;
      case 'response_item':
        this.responseItem(payload, emit);
        break;
      case 'event_msg':
        this.eventMsg(payload, emit);
        break;
      case 'compacted':
        emit({ type: 'notice', text: 'codex compacted its context' });
        break;
      default:
        if (!QUIET_RECORDS.has(record.type)) return this.skip(record.type);
    }
    return out;
  }

  private skip(shape: string): TranscriptEvent[] {
    this.skipped++;
    this.unknownShapes.add(shape);
    return [];
  }

  private sessionMeta(p: Obj, emit: (e: TranscriptEvent) => void): void {
    const id = str(p.id) ?? str(p.session_id);
    // A rollout's first session_meta is its own thread; later ones (a fork's ancestry) are not.
    if (!id || this.sessionId) return;
    this.sessionId = id;
    this.cwd = str(p.cwd) ?? this.cwd;
    this.cliVersion = str(p.cli_version) ?? this.cliVersion;
    if (this.sessionSent !== id) {
      this.sessionSent = id;
      emit({ type: 'session', agentSession: id });
    }
  }

  private responseItem(p: Obj, emit: (e: TranscriptEvent) => void): void {
    switch (p.type) {
      case 'message': {
        // User text comes from the UserMessage item (event_msg): the user-role
        // response items also carry codex's own context (<environment_context>, AGENTS.md).
        if (p.role !== 'assistant') return;
        const text = contentText(p.content);
        if (text) emit({ type: 'agent_text', text, ...(typeof p.id === 'string' ? { messageId: p.id } : {}) });
        return;
      }
      case 'reasoning': {
        const summary = Array.isArray(p.summary) ? contentText(p.summary) : '';
        const text = summary || contentText(p.content);
        // Encrypted-only reasoning has nothing to show.
        if (text) emit({ type: 'reasoning', text, ...(typeof p.id === 'string' ? { messageId: p.id } : {}) });
        return;
      }
      case 'function_call':
      case 'custom_tool_call': {
        const id = str(p.call_id) ?? str(p.id) ?? '';
        const name = str(p.name) ?? String(p.type);
        this.callNames.set(id, name);
        emit({ type: 'tool_call', toolCallId: id, toolName: name, input: p.type === 'function_call' ? parseArgs(p.arguments) : p.input });
        return;
      }
      case 'local_shell_call': {
        const id = str(p.call_id) ?? str(p.id) ?? '';
        this.callNames.set(id, 'local_shell');
        emit({ type: 'tool_call', toolCallId: id, toolName: 'local_shell', input: p.action ?? {} });
        return;
      }
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const id = str(p.call_id) ?? '';
        const { output, isError } = toolOutput(p.output);
        emit({ type: 'tool_result', toolCallId: id, toolName: this.callNames.get(id) ?? 'unknown', output, isError });
        return;
      }
      case 'web_search_call': {
        // A hosted tool: the call and its outcome arrive as one item.
        const id = str(p.id) ?? `web_search_${this.callNames.size}`;
        this.callNames.set(id, 'web_search');
        emit({ type: 'tool_call', toolCallId: id, toolName: 'web_search', input: p.action ?? {} });
        emit({ type: 'tool_result', toolCallId: id, toolName: 'web_search', output: String(p.status ?? ''), isError: p.status === 'failed' });
        return;
      }
      default:
        this.skip(`response_item/${String(p.type)}`);
    }
  }

  private eventMsg(p: Obj, emit: (e: TranscriptEvent) => void): void {
    const type = String(p.type);
    switch (type) {
      case 'item_completed': {
        const item = isObj(p.item) ? p.item : {};
        // The other items (AgentMessage, CommandExecution, ...) mirror response items.
        if (item.type === 'UserMessage') {
          const text = contentText(item.content);
          if (text) emit({ type: 'user_text', text });
        }
        return;
      }
      case 'token_count': {
        const info = isObj(p.info) ? p.info : {};
        this.turnUsage ??= codexUsage(info.last_token_usage);
        return;
      }
      case 'task_complete': {
        const error = isObj(p.error) ? str(p.error.message) : undefined;
        if (error) emit({ type: 'error', text: error });
        emit(this.turnEnd());
        return;
      }
      case 'turn_aborted':
        emit({ type: 'notice', text: `codex turn interrupted${typeof p.reason === 'string' ? ` (${p.reason})` : ''}` });
        emit(this.turnEnd());
        return;
      case 'error':
        emit({ type: 'error', text: str(p.message) ?? 'codex reported an error' });
        return;
      case 'warning':
      case 'stream_error':
        emit({ type: 'notice', text: str(p.message) ?? type });
        return;
      default:
        if (!QUIET_EVENTS.has(type)) this.skip(`event_msg/${type}`);
    }
  }

  private turnEnd(): TranscriptEvent {
    const usage = this.turnUsage;
    this.turnUsage = undefined;
    return usage ? { type: 'turn_end', usage } : { type: 'turn_end' };
  }
}
