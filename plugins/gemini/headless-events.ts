// `gemini -p … -o stream-json` output -> baton's normalized events, as the lines arrive.
// Gemini 0.61 prints one JSON object per line: init { session_id, model }, message
// { role: user|assistant, content, delta }, tool_use { tool_name, tool_id, parameters },
// tool_result { tool_id, status, output, error? }, error { severity, message } and a final
// result { status, error?, stats }. Pure: never spawns or reads, never throws on a line;
// unknown shapes are counted in `skipped`.

import type { TranscriptEvent, Usage } from '../../src/plugins/kit.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function statsUsage(stats: unknown): Usage | undefined {
  if (!isObj(stats)) return undefined;
  const n = (k: string) => (typeof stats[k] === 'number' ? (stats[k] as number) : undefined);
  const u: Usage = {};
  if (n('input_tokens') !== undefined) u.inputTokens = n('input_tokens');
  if (n('output_tokens') !== undefined) u.outputTokens = n('output_tokens');
  if (n('cached') !== undefined) u.cachedInputTokens = n('cached');
  return Object.keys(u).length ? u : undefined;
}

export class GeminiStreamMapper {
  sessionId: string | undefined;
  model: string | undefined;
  /** The final result's status (`success`, `error`), once it came. */
  status: string | undefined;
  /** Why the turn failed, from the result or an error event. */
  failure: string | undefined;
  skipped = 0;
  private readonly names = new Map<string, string>();
  /** Text after a tool call is a new message: it gets its own id. */
  private segment = 0;

  constructor(private readonly emit: (e: TranscriptEvent) => void) {}

  /** One JSON object gemini printed (headless-process.ts hands over the stdout lines that are one). */
  feed(ev: unknown): void {
    if (!isObj(ev)) return void this.skipped++;
    switch (ev.type) {
      case 'init':
        this.sessionId = str(ev.session_id);
        this.model = str(ev.model);
        if (this.sessionId) this.emit({ type: 'session', agentSession: this.sessionId });
        return;
      case 'message':
        // The prompt is echoed back as a user message: baton already has it.
        if (ev.role === 'assistant' && typeof ev.content === 'string' && ev.content) {
          this.emit({ type: 'agent_text', text: ev.content, messageId: `${this.sessionId ?? 'gemini'}:${this.segment}` });
        }
        return;
      case 'tool_use': {
        const id = str(ev.tool_id) ?? `tool_${this.names.size}`;
        const name = str(ev.tool_name) ?? 'unknown';
        this.names.set(id, name);
        this.segment++;
        this.emit({ type: 'tool_call', toolCallId: id, toolName: name, input: ev.parameters ?? {} });
        return;
      }
      case 'tool_result': {
        const id = str(ev.tool_id) ?? '';
        const error = isObj(ev.error) ? str(ev.error.message) : undefined;
        const isError = ev.status !== 'success';
        const output = str(ev.output) || error || '';
        this.emit({ type: 'tool_result', toolCallId: id, toolName: this.names.get(id) ?? 'unknown', output, isError });
        return;
      }
      case 'error': {
        const message = str(ev.message) ?? 'gemini reported an error';
        if (ev.severity === 'error') {
          this.failure = message;
          this.emit({ type: 'error', text: `gemini: ${message}` });
        } else this.emit({ type: 'notice', text: `gemini: ${message}` });
        return;
      }
      case 'result': {
        this.status = str(ev.status);
        if (this.status !== 'success') {
          const message = (isObj(ev.error) ? str(ev.error.message) : undefined) ?? this.failure ?? `the turn ended with status ${this.status}`;
          if (message !== this.failure) this.emit({ type: 'error', text: `gemini: ${message}` });
          this.failure = message;
        }
        const usage = statsUsage(ev.stats);
        this.emit(usage ? { type: 'turn_end', usage } : { type: 'turn_end' });
        return;
      }
      default:
        this.skipped++;
    }
  }
}
