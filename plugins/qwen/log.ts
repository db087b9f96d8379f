// Qwen Code 0.15's own chat log (`projects/<id>/chats/<session>.jsonl`) -> baton's normalized
// events. Messages are stored Gemini-style: `user` / `assistant` records with `parts`
// (text, thought text, functionCall), `tool_result` records with a functionResponse, and
// `system` records (telemetry, attribution snapshots) that say nothing about the
// conversation. There is no end-of-turn record: a model message without a function call is
// the turn's last, as in the Gemini protocol qwen's core speaks.
// Pure: no I/O. Never throws on a record: a shape it does not know is skipped and counted.

import { addUsage, type TranscriptEvent, type Usage } from '../../src/plugins/kit.js';

type Rec = Record<string, unknown>;

const isObj = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** `system` records that are bookkeeping (telemetry, file attribution, slash commands). */
const QUIET_SYSTEM = new Set([
  'ui_telemetry',
  'attribution_snapshot',
  'slash_command',
  'at_command',
  'chat_compression',
  'notification',
  'custom_title',
  'session_title',
]);

/** Gemini usage metadata -> baton's (prompt tokens include the cached part). */
export function geminiUsage(u: unknown): Usage | undefined {
  if (!isObj(u)) return undefined;
  const out: Usage = { inputTokens: num(u.promptTokenCount), outputTokens: num(u.candidatesTokenCount) };
  if (num(u.cachedContentTokenCount)) out.cachedInputTokens = num(u.cachedContentTokenCount);
  if (num(u.thoughtsTokenCount)) out.reasoningTokens = num(u.thoughtsTokenCount);
  return out;
}

/** A function response's payload as text: its output, else its error, else the JSON. */
function responseText(response: unknown): { text: string; error: boolean } {
  if (typeof response === 'string') return { text: response, error: false };
  if (!isObj(response)) return { text: response === undefined ? '' : JSON.stringify(response), error: false };
  if (typeof response.output === 'string') return { text: response.output, error: false };
  if (response.error !== undefined) return { text: typeof response.error === 'string' ? response.error : JSON.stringify(response.error), error: true };
  return { text: JSON.stringify(response), error: false };
}

export class QwenLogParser {
  /** Records of shapes this parser does not know, skipped. */
  skipped = 0;
  sessionId: string | undefined;
  model: string | undefined;
  cwd: string | undefined;
  private usage: Usage | undefined;

  parse(record: unknown): TranscriptEvent[] {
    if (!isObj(record) || typeof record.type !== 'string') return this.skip();
    if (typeof record.sessionId === 'string') this.sessionId ??= record.sessionId;
    if (typeof record.cwd === 'string') this.cwd ??= record.cwd;
    switch (record.type) {
      case 'user':
        return this.user(record);
      case 'assistant':
        return this.assistant(record);
      case 'tool_result':
        return this.toolResult(record);
      case 'system':
        return typeof record.subtype === 'string' && QUIET_SYSTEM.has(record.subtype) ? [] : this.skip();
      default:
        return this.skip();
    }
  }

  private skip(): [] {
    this.skipped++;
    return [];
  }

  private parts(r: Rec): Rec[] | undefined {
    const m = r.message;
    if (!isObj(m) || !Array.isArray(m.parts)) return undefined;
    return m.parts.filter(isObj);
  }

  private user(r: Rec): TranscriptEvent[] {
    const parts = this.parts(r);
    if (!parts) return this.skip();
    const text = parts
      .map((p) => (typeof p.text === 'string' && p.thought !== true ? p.text : isObj(p.inlineData) ? '[attachment]' : ''))
      .filter(Boolean)
      .join('\n')
      .trim();
    if (!text) return [];
    this.usage = undefined;
    return [{ type: 'user_text', text }];
  }

  private assistant(r: Rec): TranscriptEvent[] {
    const parts = this.parts(r);
    if (!parts) return this.skip();
    if (typeof r.model === 'string') this.model = r.model;
    this.usage = addUsage(this.usage, geminiUsage(r.usageMetadata));
    const out: TranscriptEvent[] = [];
    const messageId = typeof r.uuid === 'string' ? r.uuid : undefined;
    let calls = 0;
    for (const p of parts) {
      if (typeof p.text === 'string' && p.text) {
        const type = p.thought === true ? 'reasoning' : 'agent_text';
        out.push(messageId ? { type, text: p.text, messageId } : { type, text: p.text });
      } else if (isObj(p.functionCall)) {
        const fc = p.functionCall;
        const name = typeof fc.name === 'string' ? fc.name : 'tool';
        const id = typeof fc.id === 'string' ? fc.id : `${messageId ?? 'call'}-${calls}`;
        calls++;
        out.push({ type: 'tool_call', toolCallId: id, toolName: name, input: fc.args ?? {} });
      }
    }
    if (calls === 0) {
      const usage = this.usage;
      this.usage = undefined;
      out.push(usage ? { type: 'turn_end', usage } : { type: 'turn_end' });
    }
    return out;
  }

  private toolResult(r: Rec): TranscriptEvent[] {
    const parts = this.parts(r);
    if (!parts) return this.skip();
    const status = isObj(r.toolCallResult) && typeof r.toolCallResult.status === 'string' ? r.toolCallResult.status : undefined;
    const out: TranscriptEvent[] = [];
    for (const p of parts) {
      if (!isObj(p.functionResponse)) continue;
      const fr = p.functionResponse;
      const { text, error } = responseText(fr.response);
      out.push({
        type: 'tool_result',
        toolCallId: typeof fr.id === 'string' ? fr.id : undefined,
        toolName: typeof fr.name === 'string' ? fr.name : 'tool',
        output: text,
        isError: error || (status !== undefined && status !== 'success'),
      });
    }
    return out;
  }
}

/** The time a record was written, when it says. */
export function qwenRecordTime(record: unknown): number | undefined {
  if (!isObj(record) || typeof record.timestamp !== 'string') return undefined;
  const t = Date.parse(record.timestamp);
  return Number.isNaN(t) ? undefined : t;
}
