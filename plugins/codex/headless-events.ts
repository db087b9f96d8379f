// `codex exec --json` output -> baton's normalized events, as the lines arrive. Codex 0.171
// prints one JSON object per line: thread.started { thread_id }, turn.started,
// item.started / item.updated / item.completed { item } (agent_message, reasoning,
// command_execution, file_change, mcp_tool_call, web_search, todo_list, error),
// turn.completed { usage }, turn.failed { error }, and error { message } for stream
// trouble (retries). Pure: it never spawns or reads anything and never throws on a line;
// unknown shapes are counted in `skipped`.

import type { TranscriptEvent } from '../../src/plugins/kit.js';
import { codexUsage } from './log.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Tool name and input of an exec item that is a tool call, by item type. */
function toolOf(item: Obj): { name: string; input: unknown } | undefined {
  switch (item.type) {
    case 'command_execution':
      return { name: 'shell', input: { command: item.command } };
    case 'file_change':
      return { name: 'apply_patch', input: { changes: item.changes ?? [] } };
    case 'mcp_tool_call':
      return { name: `mcp:${String(item.server ?? '?')}/${String(item.tool ?? '?')}`, input: item.arguments ?? {} };
    case 'web_search':
      return { name: 'web_search', input: { query: item.query } };
    default:
      return undefined;
  }
}

function resultOf(item: Obj): { output: string; isError: boolean } {
  const failed = item.status === 'failed' || item.status === 'declined';
  switch (item.type) {
    case 'command_execution': {
      const code = typeof item.exit_code === 'number' ? item.exit_code : undefined;
      return { output: String(item.aggregated_output ?? ''), isError: failed || (code !== undefined && code !== 0) };
    }
    case 'file_change': {
      const changes = Array.isArray(item.changes) ? item.changes : [];
      const list = changes.map((c) => (isObj(c) ? `${String(c.kind ?? 'update')} ${String(c.path ?? '')}` : '')).filter(Boolean);
      return { output: `${String(item.status ?? '')}${list.length ? `: ${list.join(', ')}` : ''}`, isError: failed };
    }
    case 'mcp_tool_call': {
      const err = isObj(item.error) ? str(item.error.message) : undefined;
      return { output: err ?? JSON.stringify(item.result ?? ''), isError: failed || err !== undefined };
    }
    default:
      return { output: String(item.status ?? ''), isError: failed };
  }
}

export class CodexExecMapper {
  threadId: string | undefined;
  /** Why the turn failed (turn.failed), when it did. */
  failure: string | undefined;
  /** The last stream-level error (a retry notice, or the final reason). */
  lastError: string | undefined;
  completed = false;
  skipped = 0;
  private readonly started = new Set<string>();

  constructor(private readonly emit: (e: TranscriptEvent) => void) {}

  /** One JSON object codex printed (headless-process.ts hands over the stdout lines that are one). */
  feed(ev: unknown): void {
    if (!isObj(ev)) return void this.skipped++;
    switch (ev.type) {
      case 'thread.started':
        this.threadId = str(ev.thread_id);
        if (this.threadId) this.emit({ type: 'session', agentSession: this.threadId });
        return;
      case 'turn.started':
        return;
      case 'item.started':
      case 'item.updated':
        if (isObj(ev.item)) this.itemStarted(ev.item);
        return;
      case 'item.completed':
        if (isObj(ev.item)) this.itemCompleted(ev.item);
        return;
      case 'turn.completed': {
        this.completed = true;
        const usage = codexUsage(ev.usage);
        this.emit(usage ? { type: 'turn_end', usage } : { type: 'turn_end' });
        return;
      }
      case 'turn.failed': {
        this.failure = (isObj(ev.error) ? str(ev.error.message) : undefined) ?? this.lastError ?? 'the turn failed';
        this.emit({ type: 'error', text: this.failure });
        return;
      }
      case 'error':
        // Retries ("Reconnecting... 2/5 (...)") and the final reason before turn.failed.
        this.lastError = str(ev.message) ?? this.lastError;
        if (this.lastError) this.emit({ type: 'notice', text: `codex: ${this.lastError}` });
        return;
      default:
        this.skipped++;
    }
  }

  private itemStarted(item: Obj): void {
    const id = str(item.id);
    const tool = toolOf(item);
    if (!id || !tool || this.started.has(id)) return;
    this.started.add(id);
    this.emit({ type: 'tool_call', toolCallId: id, toolName: tool.name, input: tool.input });
  }

  private itemCompleted(item: Obj): void {
    const id = str(item.id) ?? '';
    switch (item.type) {
      case 'agent_message':
        if (typeof item.text === 'string' && item.text) this.emit({ type: 'agent_text', text: item.text, messageId: id });
        return;
      case 'reasoning':
        if (typeof item.text === 'string' && item.text) this.emit({ type: 'reasoning', text: item.text, messageId: id });
        return;
      case 'error':
        // Item-level errors are warnings codex carries on after ("Model metadata ... not found").
        this.emit({ type: 'notice', text: `codex: ${String(item.message ?? 'error')}` });
        return;
      case 'todo_list': {
        const items = Array.isArray(item.items) ? item.items : [];
        const lines = items.map((t) => (isObj(t) ? `${t.completed ? '[x]' : '[ ]'} ${String(t.text ?? '')}` : '')).filter(Boolean);
        if (lines.length) this.emit({ type: 'notice', text: `codex plan:\n${lines.join('\n')}` });
        return;
      }
    }
    const tool = toolOf(item);
    if (!tool) return void this.skipped++;
    this.itemStarted(item);
    const { output, isError } = resultOf(item);
    this.emit({ type: 'tool_result', toolCallId: id, toolName: tool.name, output, isError });
  }
}
