// Claude Code 2.1's own session log (`projects/<slug>/<session>.jsonl`) -> baton's normalized
// events. One record at a time, in the order things happened (a record the CLI wrote ahead of
// the one it follows waits for it: log-order.ts); a parser holds only that and what
// pairing needs across records (tool names by call id, the open turn's usage). The same
// message content mapping serves `claude -p --output-format stream-json` (headless.ts),
// whose assistant and user records carry the same Anthropic message shapes.
// Pure: no I/O. Never throws on a record: a shape it does not know is skipped and counted.

import { addUsage, type TranscriptEvent, type Usage } from '../../src/plugins/kit.js';
import { ChainOrder } from './log-order.js';

type Rec = Record<string, unknown>;

const isObj = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Records that say nothing about the conversation itself (bookkeeping of the CLI). */
const QUIET_TYPES = new Set([
  'queue-operation',
  'last-prompt',
  'mode',
  'permission-mode',
  'file-history-snapshot',
  'attachment',
  'ai-title',
  'custom-title',
  'summary',
  'tag',
  'agent-name',
  'pr-link',
]);

/** `system` records that are bookkeeping, not conversation. */
const QUIET_SYSTEM = new Set(['turn_duration', 'local_command', 'informational', 'stop_hook_summary', 'hook_response', 'init', 'status']);

/** What stops a message and ends the turn (everything but a tool call). */
const TURN_ENDING = new Set(['end_turn', 'stop_sequence', 'max_tokens', 'refusal', 'pause_turn', 'model_context_window_exceeded']);

/**
 * Anthropic usage -> baton's. Input counts everything the model read, cache reads and cache
 * writes included (Anthropic reports them apart); `cachedInputTokens` is the part read from cache.
 */
export function anthropicUsage(u: unknown): Usage | undefined {
  if (!isObj(u)) return undefined;
  const cacheRead = num(u.cache_read_input_tokens);
  const input = num(u.input_tokens) + num(u.cache_creation_input_tokens) + cacheRead;
  const out: Usage = { inputTokens: input, outputTokens: num(u.output_tokens) };
  if (cacheRead) out.cachedInputTokens = cacheRead;
  return out;
}

/** A tool result's content (a string, or text/image blocks) as text. */
export function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined || content === null ? '' : JSON.stringify(content);
  return content
    .map((b) => (isObj(b) ? (b.type === 'text' ? String(b.text ?? '') : b.type === 'image' ? '[image]' : '') : ''))
    .filter(Boolean)
    .join('\n');
}

// Text Claude Code puts into user records on its own: slash-command echoes and their output.
const COMMAND_WRAPPER =
  /^\s*<(command-name|command-message|command-args|local-command-stdout|local-command-stderr|local-command-caveat|bash-input|bash-stdout|bash-stderr)>/;

/**
 * Maps message content (Anthropic blocks) to events, remembering tool names by call id so a
 * later tool_result names its tool. Shared by the log parser and the stream-json reader.
 */
export class ClaudeContent {
  private readonly toolNames = new Map<string, string>();

  /** An assistant message's blocks. */
  assistant(message: Rec): TranscriptEvent[] {
    const out: TranscriptEvent[] = [];
    const messageId = str(message.id);
    const content = message.content;
    if (typeof content === 'string') {
      if (content) out.push(messageId ? { type: 'agent_text', text: content, messageId } : { type: 'agent_text', text: content });
      return out;
    }
    if (!Array.isArray(content)) return out;
    for (const b of content) {
      if (!isObj(b)) continue;
      if (b.type === 'text' && typeof b.text === 'string' && b.text) {
        out.push(messageId ? { type: 'agent_text', text: b.text, messageId } : { type: 'agent_text', text: b.text });
      } else if (b.type === 'thinking' && typeof b.thinking === 'string' && b.thinking) {
        out.push(messageId ? { type: 'reasoning', text: b.thinking, messageId } : { type: 'reasoning', text: b.thinking });
      } else if ((b.type === 'tool_use' || b.type === 'server_tool_use') && typeof b.id === 'string') {
        const name = str(b.name) ?? 'tool';
        this.toolNames.set(b.id, name);
        out.push({ type: 'tool_call', toolCallId: b.id, toolName: name, input: b.input ?? {} });
      }
      // redacted_thinking carries nothing readable; web search results come back as text.
    }
    return out;
  }

  /** A user message: what the person typed, and tool results. */
  user(message: Rec): TranscriptEvent[] {
    const content = message.content;
    if (typeof content === 'string') {
      return content && !COMMAND_WRAPPER.test(content) ? [{ type: 'user_text', text: content }] : [];
    }
    if (!Array.isArray(content)) return [];
    const out: TranscriptEvent[] = [];
    const texts: string[] = [];
    for (const b of content) {
      if (!isObj(b)) continue;
      if (b.type === 'tool_result' && typeof b.tool_use_id === 'string') {
        out.push({
          type: 'tool_result',
          toolCallId: b.tool_use_id,
          toolName: this.toolNames.get(b.tool_use_id) ?? 'tool',
          output: resultText(b.content),
          isError: b.is_error === true,
        });
      } else if (b.type === 'text' && typeof b.text === 'string' && !COMMAND_WRAPPER.test(b.text)) {
        texts.push(b.text);
      } else if (b.type === 'image') {
        texts.push('[image]');
      }
    }
    const text = texts.join('\n').trim();
    if (text) out.unshift({ type: 'user_text', text });
    return out;
  }
}

/** Follows one session log's records and says what happened. */
export class ClaudeLogParser {
  /** Records of shapes this parser does not know, skipped. */
  skipped = 0;
  sessionId: string | undefined;
  model: string | undefined;
  cwd: string | undefined;
  private readonly content = new ClaudeContent();
  private turnOpen = false;
  private usage: Usage | undefined;
  private readonly usageSeen = new Set<string>();
  private readonly order = new ChainOrder(recordTime);

  /**
   * The events one record stands for ([] for bookkeeping records), in the order things
   * happened: a record written ahead of the one it follows waits for it (log-order.ts).
   */
  parse(record: unknown): TranscriptEvent[] {
    return this.order.take(record).flatMap((r) => this.one(r));
  }

  /** The log ended: the events of records still waiting for one that never came. */
  end(): TranscriptEvent[] {
    return this.order.end().flatMap((r) => this.one(r));
  }

  private one(record: unknown): TranscriptEvent[] {
    if (!isObj(record) || typeof record.type !== 'string') return this.skip();
    this.sessionId ??= str(record.sessionId);
    if (typeof record.cwd === 'string') this.cwd ??= record.cwd;
    const type = record.type;
    if (QUIET_TYPES.has(type)) return [];
    // A subagent's own steps (older logs inline them); its result reaches the parent as a tool result.
    if (record.isSidechain === true) return [];
    switch (type) {
      case 'user':
        return this.user(record);
      case 'assistant':
        return this.assistant(record);
      case 'system':
        return this.system(record);
      default:
        return this.skip();
    }
  }

  private skip(): [] {
    this.skipped++;
    return [];
  }

  private user(r: Rec): TranscriptEvent[] {
    if (!isObj(r.message)) return this.skip();
    // Meta records are what the CLI adds on its own (caveats, expanded slash commands).
    if (r.isMeta === true) return [];
    if (r.isCompactSummary === true)
      return [{ type: 'notice', text: 'Claude Code compacted the conversation; its summary replaced the earlier messages in its own session' }];
    const events = this.content.user(r.message);
    if (events.some((e) => e.type === 'user_text')) this.openTurn();
    return events;
  }

  private assistant(r: Rec): TranscriptEvent[] {
    const m = r.message;
    if (!isObj(m)) return this.skip();
    if (m.model === '<synthetic>' || r.isApiErrorMessage === true) {
      // Claude Code's own words, not the model's: an API error, or "No response requested."
      const text = resultText(m.content);
      if (r.isApiErrorMessage === true || r.error !== undefined) return text ? [{ type: 'error', text, code: str(r.error) ?? 'api_error' }] : [];
      return [];
    }
    if (typeof m.model === 'string') this.model = m.model;
    this.turnOpen = true;
    // The TUI may write one record per content block of a message, each with its usage: count it once.
    const id = str(m.id);
    if (!id || !this.usageSeen.has(id)) {
      if (id) this.usageSeen.add(id);
      this.usage = addUsage(this.usage, anthropicUsage(m.usage));
    }
    const events = this.content.assistant(m);
    if (typeof m.stop_reason === 'string' && TURN_ENDING.has(m.stop_reason)) events.push(this.closeTurn());
    return events;
  }

  private system(r: Rec): TranscriptEvent[] {
    const sub = str(r.subtype);
    // The TUI marks the end of a turn; -p logs end it with the final message's stop reason.
    if (sub === 'turn_duration') return this.turnOpen ? [this.closeTurn()] : [];
    if (sub === 'api_error') {
      const e = isObj(r.error) ? r.error : {};
      return [{ type: 'notice', text: `Claude Code retried after an API error${typeof e.status === 'number' ? ` (${e.status})` : ''}` }];
    }
    if (sub === 'compact_boundary') return [{ type: 'notice', text: 'Claude Code compacted the conversation' }];
    if (sub && QUIET_SYSTEM.has(sub)) return [];
    return this.skip();
  }

  private openTurn(): void {
    this.turnOpen = true;
    this.usage = undefined;
    this.usageSeen.clear();
  }

  private closeTurn(): TranscriptEvent {
    const usage = this.usage;
    this.turnOpen = false;
    this.usage = undefined;
    this.usageSeen.clear();
    return usage ? { type: 'turn_end', usage } : { type: 'turn_end' };
  }
}

/** The time a record was written, when it says (bookkeeping records often do not). */
export function recordTime(record: unknown): number | undefined {
  if (!isObj(record) || typeof record.timestamp !== 'string') return undefined;
  const t = Date.parse(record.timestamp);
  return Number.isNaN(t) ? undefined : t;
}
