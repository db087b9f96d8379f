// Recognizes the plan/todo tool calls the agent CLIs make (claude TodoWrite, codex
// update_plan, gemini write_todos, qwen todo_write, opencode todowrite) and reads their
// items, so the brief can pass on what the previous agent still meant to do. It only reads
// tool inputs; it never decides whether a plan was carried out (the brief says "not
// verified"), and an input it cannot read is "no plan", never an error.

export interface PlanItem {
  text: string;
  /** Normalized: 'pending', 'in progress', 'completed', 'cancelled', or the status as given. */
  status: string;
}

const PLAN_TOOLS: ReadonlySet<string> = new Set(['todowrite', 'updateplan', 'writetodos']);

/** A tool name without its namespace (mcp__x__, acp/, x.), lowercased, letters and digits only. */
export function normalizeToolName(name: string): string {
  const parts = name.split(/__|[.:/]/);
  return (parts[parts.length - 1] ?? name).toLowerCase().replace(/[^a-z0-9]/g, '');
}

export const isPlanTool = (toolName: string): boolean => PLAN_TOOLS.has(normalizeToolName(toolName));

const MAX_PLAN_JSON = 256 * 1024;

/** Tool input as an object: some harnesses hand it over as a JSON string. */
export function inputObject(input: unknown): Record<string, unknown> | undefined {
  if (input !== null && typeof input === 'object' && !Array.isArray(input)) return input as Record<string, unknown>;
  if (typeof input === 'string' && input.length <= MAX_PLAN_JSON && input.trimStart().startsWith('{')) {
    try {
      const v: unknown = JSON.parse(input);
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function status(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '') return 'pending';
  const s = raw
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');
  if (s === 'in progress' || s === 'inprogress' || s === 'active' || s === 'doing') return 'in progress';
  if (s === 'completed' || s === 'complete' || s === 'done' || s === 'finished') return 'completed';
  if (s === 'cancelled' || s === 'canceled') return 'cancelled';
  if (s === 'pending' || s === 'todo' || s === 'not started') return 'pending';
  return s;
}

function itemText(o: Record<string, unknown>): string | undefined {
  for (const k of ['content', 'step', 'description', 'text', 'title', 'task']) {
    const v = o[k];
    if (typeof v === 'string' && v.trim() !== '') return v;
  }
  return undefined;
}

/** The items of a plan tool call's input, or undefined when it holds no readable list. */
export function planItems(input: unknown): PlanItem[] | undefined {
  const obj = inputObject(input);
  if (!obj) return undefined;
  const list = obj.todos ?? obj.plan ?? obj.items;
  if (!Array.isArray(list)) return undefined;
  const out: PlanItem[] = [];
  for (const it of list) {
    if (typeof it === 'string') {
      if (it.trim()) out.push({ text: it, status: 'pending' });
      continue;
    }
    if (it === null || typeof it !== 'object') continue;
    const o = it as Record<string, unknown>;
    const text = itemText(o);
    if (text !== undefined) out.push({ text, status: status(o.status ?? o.state) });
  }
  return out;
}

/** Items still open: neither completed nor cancelled. */
export const openItems = (items: readonly PlanItem[]): PlanItem[] => items.filter((i) => i.status !== 'completed' && i.status !== 'cancelled');
