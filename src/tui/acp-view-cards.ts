// How each block of baton's ACP view is drawn, as lines for a width: the user's message with
// its author, the agent's text as markdown, reasoning folded to one line, tool calls as cards
// by kind (execute: the command and the tail of its output; edit: a coloured diff; read,
// search, fetch: what was looked at; any other kind named from the tool's own name), the plan
// as a task list, permission cards with their keys, and a turn's end with its usage. Pure:
// terminal output arrives through `terminalOutput`, never read here.

import type { RequestPermissionRequest, ToolCallContent } from '../plugins/acp-client.js';
import { lineDiff } from './acp-view-diff.js';
import { markdown } from './acp-view-markdown.js';
import type { Block, PlanEntry, ToolView, UsageView } from './acp-view-model.js';
import { C, type Line, type Style, clip, span, wrap } from './acp-view-text.js';

/** Lines of a command's output a card shows (its tail). */
export const OUTPUT_TAIL = 8;
/** Diff lines a card shows before it says how many more there are. */
export const DIFF_LINES = 24;

export interface DrawContext {
  width: number;
  terminalOutput?(terminalId: string): string | undefined;
}

/** The keys a permission card answers to, by option kind. */
const PERMISSION_KEYS: Record<string, string> = { allow_once: 'y', allow_always: 'a', reject_once: 'n', reject_always: 'N' };

type PermissionOption = RequestPermissionRequest['options'][number];

/**
 * The key of each option a card offers: its kind's letter for the first option of a kind,
 * a digit for any more of that kind or of a kind without a letter (Qwen Code offers two
 * "always allow" options for a command: one key must not stand for both).
 */
export function permissionKeys(options: readonly PermissionOption[]): { key: string; option: PermissionOption }[] {
  const used = new Set<string>();
  let digit = 0;
  return options.flatMap((option) => {
    let key: string | undefined = PERMISSION_KEYS[option.kind];
    if (!key || used.has(key)) key = digit < 9 ? String(++digit) : undefined;
    if (!key) return [];
    used.add(key);
    return [{ key, option }];
  });
}

export function drawBlock(b: Block, ctx: DrawContext): Line[] {
  const w = Math.max(20, ctx.width);
  switch (b.k) {
    case 'user':
      return [[], ...wrap([span('› ', { bold: true, fg: C.green }), span(b.author ?? 'you', { bold: true })], w), ...textLines(b.text, w, [span('  ')])];
    case 'agent':
      return [[], ...markdown(b.text.replace(/^\n+/, ''), w)];
    case 'thought': {
      const lines = b.text.trim().split('\n').length;
      return [[span(`▸ thinking (${lines} line${lines === 1 ? '' : 's'}, folded)`, { dim: true, italic: true })]];
    }
    case 'tool':
      return toolCard(b.tool, ctx, w);
    case 'plan':
      return planLines(b.entries, w);
    case 'permission':
      return permissionCard(b, w);
    case 'notice':
      return wrap([span(b.error ? '✗ ' : '· ', { fg: b.error ? C.red : C.gray }), span(b.text, b.error ? { fg: C.red } : { dim: true })], w, [span('  ')]);
    case 'turn':
      return [clip([span(turnLine(b.stopReason, b.usage), { dim: true })], w)];
  }
}

function textLines(text: string, w: number, indent: Line): Line[] {
  return text.split('\n').flatMap((l) => wrap([...indent, span(l)], w, indent));
}

function turnLine(stopReason: string, u: UsageView | undefined): string {
  const parts: string[] = [];
  if (stopReason !== 'end_turn') parts.push(stopReason === 'cancelled' ? 'cancelled' : `stopped: ${stopReason}`);
  if (u?.inputTokens !== undefined) parts.push(`${u.inputTokens} in · ${u.outputTokens ?? 0} out`);
  if (u?.used !== undefined && u.size) parts.push(`context ${Math.round((u.used / u.size) * 100)}% of ${u.size}`);
  if (u?.costUsd !== undefined) parts.push(`$${u.costUsd.toFixed(4)}`);
  return `── ${parts.length ? parts.join(' · ') : 'done'} ──`;
}

const KIND_LABEL: Record<string, string> = {
  execute: 'Run',
  edit: 'Edit',
  delete: 'Delete',
  move: 'Move',
  read: 'Read',
  search: 'Search',
  fetch: 'Fetch',
  think: 'Think',
  switch_mode: 'Mode',
};

const STATUS: Record<string, [string, Style]> = {
  pending: ['○', { fg: C.gray }],
  in_progress: ['◐', { fg: C.yellow }],
  completed: ['✓', { fg: C.green }],
  failed: ['✗', { fg: C.red }],
};

/** What a card is called: its kind, or for `other` (and unknown kinds) the tool's own name. */
export function toolLabel(t: ToolView): string {
  const known = t.kind && KIND_LABEL[t.kind];
  if (known) return known;
  const name = t.name ?? t.title ?? 'tool';
  return name.length > 24 ? `${name.slice(0, 23)}…` : name;
}

function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.join(' ');
  return undefined;
}

/** The command an execute call runs, from its input (or its title, which agents set to it). */
export function commandOf(t: ToolView): string | undefined {
  const i = t.rawInput ?? {};
  const cmd = str(i.command) ?? str(i.cmd);
  if (cmd) return [cmd, str(i.args)].filter(Boolean).join(' ');
  // Agents title a call with its command line (Gemini CLI at once; opencode after a first
  // title that is the tool's bare name).
  return t.title && (t.title !== t.name || !/^[\w.-]+$/.test(t.title)) ? t.title : undefined;
}

function outputOf(t: ToolView, ctx: DrawContext): string {
  const parts: string[] = [];
  for (const c of t.content) {
    if (c.type === 'content' && c.content.type === 'text') parts.push(c.content.text);
    else if (c.type === 'terminal') parts.push(ctx.terminalOutput?.(c.terminalId) ?? '');
  }
  const text = unfenced(parts.join('\n'));
  if (text.trim()) return text;
  const raw = t.rawOutput as { output?: unknown; stdout?: unknown; error?: unknown } | string | undefined;
  if (typeof raw === 'string') return raw;
  return str(raw?.output) ?? str(raw?.stdout) ?? str(raw?.error) ?? (t.rejected ? `rejected: ${t.rejected}; the tool did not run` : '');
}

/** A tool result sent as one markdown code block (claude-code-acp's are): what is inside the fences. */
function unfenced(text: string): string {
  const m = /^\s*```[\w-]*\n([^]*?)\n```\s*$/.exec(text);
  return m && !m[1]!.includes('\n```') ? m[1]! : text;
}

function toolCard(t: ToolView, ctx: DrawContext, w: number): Line[] {
  const [icon, style] = STATUS[t.status ?? 'pending'] ?? STATUS.pending!;
  const label = toolLabel(t);
  const subject = t.kind === 'execute' ? commandOf(t) : subjectOf(t);
  const head: Line = [span(`${icon} `, style), span(label, { bold: true })];
  if (subject) head.push(span(` ${subject}`, t.kind === 'execute' ? { fg: C.yellow } : {}));
  const out: Line[] = [[], ...wrap(head, w, [span('    ')])];
  const bar = span('  │ ', { dim: true });
  const body = (l: Line) => clip([bar, ...l], w);
  const diffs = t.content.filter((c): c is Extract<ToolCallContent, { type: 'diff' }> => c.type === 'diff');
  if (diffs.length) for (const d of diffs) out.push(...diffLines(d, w).map(body));
  else if (t.kind === 'edit' && t.rawInput) out.push(...inputDiff(t.rawInput, w).map(body));
  const output = t.status === 'failed' || t.kind === 'execute' || !diffs.length ? outputOf(t, ctx) : '';
  if (output.trim()) {
    const lines = output.replace(/\n+$/, '').split('\n');
    const tail = t.kind === 'execute' || t.status === 'failed' ? lines.slice(-OUTPUT_TAIL) : lines.slice(0, 3);
    if (t.kind === 'execute' && lines.length > tail.length) out.push(body([span(`… ${lines.length - tail.length} earlier lines`, { dim: true })]));
    for (const l of tail) out.push(body([span(l, t.status === 'failed' ? { fg: C.red } : { dim: true })]));
    if (t.kind !== 'execute' && t.status !== 'failed' && lines.length > tail.length)
      out.push(body([span(`… ${lines.length - tail.length} more lines`, { dim: true })]));
  }
  return out;
}

function subjectOf(t: ToolView): string | undefined {
  const i = t.rawInput ?? {};
  const path = str(i.filePath) ?? str(i.file_path) ?? str(i.path) ?? str(i.filepath) ?? t.locations[0];
  const what = str(i.pattern) ?? str(i.query) ?? str(i.url);
  const parts = [path, what && what !== path ? what : undefined].filter(Boolean) as string[];
  if (parts.length) return parts.join('  ');
  return t.title && t.title !== t.name ? t.title : undefined;
}

function diffLines(d: { path: string; oldText?: string | null; newText: string }, w: number): Line[] {
  const ops = lineDiff(d.oldText ?? '', d.newText);
  const out: Line[] = [[span(d.oldText ? `${d.path}` : `${d.path} (new file)`, { bold: true })]];
  let shown = 0;
  for (const op of ops) {
    if (shown === DIFF_LINES) {
      out.push([span(`… ${ops.length - shown} more diff lines`, { dim: true })]);
      break;
    }
    const style: Style = op.t === '+' ? { fg: C.green } : op.t === '-' ? { fg: C.red } : op.t === '@' ? { fg: C.cyan } : { dim: true };
    out.push(clip([span(`${op.t === '@' ? '' : op.t}${op.text}`, style)], w));
    shown++;
  }
  return out;
}

function inputDiff(i: Record<string, unknown>, w: number): Line[] {
  const path = str(i.filePath) ?? str(i.file_path) ?? str(i.path) ?? '';
  const oldText = str(i.oldString) ?? str(i.old_string);
  const newText = str(i.newString) ?? str(i.new_string) ?? str(i.content);
  if (newText === undefined) return [];
  return diffLines({ path, oldText: oldText ?? null, newText }, w);
}

function planLines(entries: PlanEntry[], w: number): Line[] {
  const mark: Record<string, [string, Style]> = {
    completed: ['☑ ', { fg: C.green }],
    in_progress: ['◐ ', { fg: C.yellow }],
    pending: ['☐ ', { fg: C.gray }],
  };
  const out: Line[] = [[], [span('Plan', { bold: true })]];
  for (const e of entries) {
    const [m, style] = mark[e.status] ?? mark.pending!;
    const text = e.status === 'completed' ? { dim: true } : {};
    out.push(...wrap([span(`  ${m}`, style), span(e.content, text)], w, [span('    ')]));
  }
  return out;
}

function permissionCard(b: Block & { k: 'permission' }, w: number): Line[] {
  const tc = b.request.toolCall;
  const what = tc.title ?? tc.kind ?? 'a tool call';
  if (b.answer !== undefined) {
    const [text, style]: [string, Style] = b.answer.startsWith('allow')
      ? [`allowed${b.answer === 'allow_always' ? ' always' : ' once'}`, { fg: C.green }]
      : b.answer === 'cancelled'
        ? ['cancelled', { fg: C.gray }]
        : ['rejected', { fg: C.red }];
    return wrap([span('  ⚑ ', style), span(`${text}: `, { ...style, bold: true }), span(what, { dim: true })], w, [span('    ')]);
  }
  const frame: Style = { fg: C.magenta, bold: true };
  const out: Line[] = [[], ...wrap([span('⚑ Permission needed: ', frame), span(what, { bold: true })], w, [span('  ')])];
  const keys: Line = [span('  ')];
  for (const { key, option } of permissionKeys(b.request.options)) keys.push(span(` ${key} `, { inverse: true, bold: true }), span(` ${option.name}   `));
  keys.push(span(' Esc ', { inverse: true }), span(' cancel the turn'));
  out.push(...wrap(keys, w, [span('  ')]));
  return out;
}
