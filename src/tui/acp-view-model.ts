// What baton's ACP view shows, as blocks built from the session's records in order: user
// messages with their authors, the agent's text (streamed chunks joined), its reasoning,
// tool calls (one card per call, updated in place as the agent reports it), the plan,
// permission requests and their answers, notices, and each turn's end with its usage. A
// block is `done` once nothing more can change it; the screen writes done blocks once (they
// scroll into the terminal's history) and redraws only the rest. Pure: records in, blocks out.

import type { PromptResponse, RequestPermissionRequest, SessionUpdate, ToolCallContent } from '../plugins/acp-client.js';

/** One thing that happened in the session, as the view (and its log) keeps it. */
export type ViewRecord =
  | { t: 'user'; text: string; author?: string }
  | { t: 'update'; update: SessionUpdate }
  | { t: 'permission'; request: RequestPermissionRequest }
  | { t: 'decision'; toolCallId: string; optionId?: string }
  | { t: 'turn_end'; stopReason: string; usage?: PromptResponse['usage'] }
  | { t: 'notice'; text: string }
  | { t: 'error'; text: string };

export interface ToolView {
  id: string;
  /** The first title the agent gave (opencode: the tool's name, before it retitles the call). */
  name?: string;
  title?: string;
  kind?: string;
  status?: string;
  rawInput?: Record<string, unknown>;
  rawOutput?: unknown;
  /** The user rejected it (what they chose): it did not run, whatever the agent reports of it. */
  rejected?: string;
  content: ToolCallContent[];
  locations: string[];
}

export interface PlanEntry {
  content: string;
  status: string;
  priority?: string;
}

export interface UsageView {
  used?: number;
  size?: number;
  costUsd?: number;
  inputTokens?: number;
  outputTokens?: number;
}

export type Block = { done: boolean } & (
  | { k: 'user'; text: string; author?: string }
  | { k: 'agent'; text: string; id?: string }
  | { k: 'thought'; text: string; id?: string }
  | { k: 'tool'; tool: ToolView }
  | { k: 'plan'; entries: PlanEntry[] }
  | { k: 'permission'; request: RequestPermissionRequest; answer?: string }
  | { k: 'notice'; text: string; error?: boolean }
  | { k: 'turn'; stopReason: string; usage?: UsageView }
);

const DONE = new Set(['completed', 'failed']);

export class ViewModel {
  readonly blocks: Block[] = [];
  private readonly tools = new Map<string, Block & { k: 'tool' }>();
  private usage: UsageView = {};
  /** Whether a turn is running (a user message without its turn end). */
  working = false;

  apply(r: ViewRecord): void {
    switch (r.t) {
      case 'user':
        this.working = true;
        this.push({ k: 'user', text: r.text, ...(r.author ? { author: r.author } : {}), done: true });
        return;
      case 'update':
        this.update(r.update);
        return;
      case 'permission': {
        const tool = this.tool(r.request.toolCall.toolCallId);
        merge(tool.tool, r.request.toolCall as unknown as Record<string, unknown>);
        this.push({ k: 'permission', request: r.request, done: false });
        return;
      }
      case 'decision':
        this.decide(r.toolCallId, r.optionId);
        return;
      case 'turn_end': {
        this.working = false;
        // No card waits once its turn is over: an agent asks only within a turn. (The view's
        // program ended with a card open, or the agent died asking: a reopened tab must not
        // wait for an answer nobody can take.)
        for (const card of this.openPermissions()) card.answer = 'cancelled';
        for (const b of this.blocks) b.done = true;
        const u = r.usage;
        const usage: UsageView = { ...this.usage, ...(u ? { inputTokens: u.inputTokens, outputTokens: u.outputTokens } : {}) };
        this.push({ k: 'turn', stopReason: r.stopReason, usage, done: true });
        this.usage = {};
        return;
      }
      case 'notice':
      case 'error':
        this.push({ k: 'notice', text: r.text, ...(r.t === 'error' ? { error: true } : {}), done: true });
        return;
    }
  }

  /** Permission requests still waiting for the user, oldest first. */
  openPermissions(): (Block & { k: 'permission' })[] {
    return this.blocks.filter((b): b is Block & { k: 'permission' } => b.k === 'permission' && b.answer === undefined);
  }

  private push(b: Block): void {
    // Whatever text was streaming is finished once something else is said.
    const last = this.blocks[this.blocks.length - 1];
    if (last && (last.k === 'agent' || last.k === 'thought') && b.k !== last.k) last.done = true;
    this.blocks.push(b);
  }

  private update(u: SessionUpdate): void {
    switch (u.sessionUpdate) {
      case 'agent_message_chunk':
      case 'agent_thought_chunk': {
        // Qwen Code reports each model call's usage on a chunk (the prompt's answer has none).
        const meta = u._meta as { usage?: { inputTokens?: unknown; outputTokens?: unknown } } | null | undefined;
        if (meta?.usage && typeof meta.usage.inputTokens === 'number') {
          this.usage.inputTokens = (this.usage.inputTokens ?? 0) + meta.usage.inputTokens;
          this.usage.outputTokens = (this.usage.outputTokens ?? 0) + (typeof meta.usage.outputTokens === 'number' ? meta.usage.outputTokens : 0);
        }
        if (u.content.type !== 'text' || !u.content.text) return;
        const k = u.sessionUpdate === 'agent_message_chunk' ? 'agent' : 'thought';
        const last = this.blocks[this.blocks.length - 1];
        const id = u.messageId ?? undefined;
        if (last && last.k === k && !last.done && (!id || !last.id || last.id === id)) last.text += u.content.text;
        else this.push({ k, text: u.content.text, ...(id ? { id } : {}), done: false });
        return;
      }
      case 'tool_call':
      case 'tool_call_update': {
        const b = this.tool(u.toolCallId);
        merge(b.tool, u as unknown as Record<string, unknown>);
        this.settle(b);
        return;
      }
      case 'plan': {
        const entries = u.entries.map((e) => ({ content: e.content, status: e.status, priority: e.priority }));
        const last = this.blocks[this.blocks.length - 1];
        const open = [...this.blocks].reverse().find((b) => b.k === 'plan' && !b.done) as (Block & { k: 'plan' }) | undefined;
        // A plan still at the bottom is redrawn in place; one that has things after it stays as it was and a new one follows.
        if (open && open === last) open.entries = entries;
        else {
          if (open) open.done = true;
          this.push({ k: 'plan', entries, done: false });
        }
        return;
      }
      case 'usage_update':
        this.usage = { ...this.usage, used: u.used, size: u.size, ...(u.cost?.currency === 'USD' ? { costUsd: u.cost.amount } : {}) };
        return;
      default:
        return;
    }
  }

  private tool(id: string): Block & { k: 'tool' } {
    let b = this.tools.get(id);
    if (!b) {
      b = { k: 'tool', tool: { id, content: [], locations: [] }, done: false };
      this.tools.set(id, b);
      this.push(b);
    }
    return b;
  }

  private decide(toolCallId: string, optionId: string | undefined): void {
    const card = this.openPermissions().find((b) => b.request.toolCall.toolCallId === toolCallId);
    if (!card) return;
    const opt = optionId ? card.request.options.find((o) => o.optionId === optionId) : undefined;
    card.answer = opt ? opt.kind : 'cancelled';
    card.done = true;
    const tool = this.tools.get(toolCallId);
    if (!tool) return;
    // A rejected call never runs: its card is failed now, as the transcript records it
    // (acp-events.ts rejected); Gemini CLI never reports such a call, so the card stayed
    // drawn as running until the turn ended, and then as never finished.
    if (opt && !opt.kind.startsWith('allow') && !(tool.tool.status && DONE.has(tool.tool.status))) {
      tool.tool.status = 'failed';
      tool.tool.rejected = `${opt.name} (${opt.kind})`;
    }
    this.settle(tool);
  }

  private settle(b: Block & { k: 'tool' }): void {
    const asking = this.openPermissions().some((p) => p.request.toolCall.toolCallId === b.tool.id);
    b.done = !!b.tool.status && DONE.has(b.tool.status) && !asking;
  }
}

function merge(t: ToolView, u: Record<string, unknown>): void {
  // The tool's own name where the agent says it (Qwen Code: _meta.toolName), else its first title.
  const meta = u._meta as { toolName?: unknown } | null | undefined;
  if (typeof meta?.toolName === 'string' && meta.toolName) t.name = meta.toolName;
  if (typeof u.title === 'string' && u.title) {
    t.title = u.title;
    t.name ??= u.title;
  }
  if (typeof u.kind === 'string') t.kind = u.kind;
  if (typeof u.status === 'string') t.status = u.status;
  if (u.rawInput && typeof u.rawInput === 'object' && Object.keys(u.rawInput).length) t.rawInput = u.rawInput as Record<string, unknown>;
  if (u.rawOutput !== undefined && u.rawOutput !== null) t.rawOutput = u.rawOutput;
  if (Array.isArray(u.content) && u.content.length) {
    // A permission request's diff is kept when the result (a line of text) arrives.
    const diffs = t.content.filter((c) => c.type === 'diff');
    const next = u.content as ToolCallContent[];
    t.content = next.some((c) => c.type === 'diff') ? next : [...diffs, ...next];
  }
  if (Array.isArray(u.locations) && u.locations.length) t.locations = (u.locations as { path: string }[]).map((l) => l.path).filter(Boolean);
}
