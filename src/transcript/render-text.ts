// Renders transcript entries as plain text for baton's own views (`baton transcript show`,
// the Markdown export, the TUI's transcript view): authors, folded tool traffic and the
// "Switched this conversation from A to B" dividers. Every piece of agent or user content
// passes through redaction and the sanitizer, so neither a credential (a log written before
// a rule existed holds them raw) nor a terminal control sequence an agent wrote reaches the
// user's terminal from here.
// It must never throw on what a log holds: the loader checks only the fields code relies
// on, so an optional field written by an older baton (or by hand) may hold anything — a
// cost that is a string, a detail that is an object. Such values are shown as text or
// left out, never trusted to have their declared type.

import { redact, redactValue } from './redact.js';
import { stripControls } from './sanitize.js';
import { type Author, type Entry, KNOWN_KINDS } from './types.js';

export interface RenderOptions {
  /** Show tool inputs and outputs in full instead of folded to one line. */
  expandTools?: boolean;
  /** Names to show for harness ids (`claude` -> `Claude Code`). */
  titles?: Record<string, string>;
}

const ONE_LINE = 100;

/** Any stored value as printable text: strings sanitized, other values as their JSON. */
export function plain(v: unknown): string {
  if (typeof v === 'string') return stripControls(v);
  if (v === undefined || v === null) return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return stripControls(inputText(v));
}

/** A harness's display title: the driver's when known, else the stored name. */
export function agentTitle(harness: unknown, titles: Record<string, string> = {}): string {
  const name = plain(harness);
  return plain(Object.hasOwn(titles, name) ? titles[name] : name) || '?';
}

export function authorLabel(a: Author, titles: Record<string, string> = {}): string {
  switch (a.type) {
    case 'user':
      return `${plain(a.name)}@${plain(a.device)}`;
    case 'agent':
      return `${agentTitle(a.harness, titles)} (${plain(a.model)})`;
    case 'system':
      return 'baton';
    default:
      return `unknown author ${plain((a as { type: unknown }).type)}`;
  }
}

/** The divider a reader sees at a handoff; null for the conversation's first segment. */
export function dividerText(e: Entry, titles: Record<string, string> = {}): string | null {
  if (e.kind !== 'handoff' || !e.from) return null;
  const from = typeof e.from === 'object' ? e.from.harness : e.from;
  const to = e.account ?? 'default';
  // Another login of the same agent: its own config cannot open the other's session.
  if (from === e.to.harness && to !== (e.fromAccount ?? 'default')) return `Switched to account ${plain(to)} of ${agentTitle(from, titles)}`;
  const account = e.account ? ` (account ${plain(e.account)})` : '';
  const local = e.local && typeof e.local.endpoint === 'string' ? ` (local model ${plain(e.to.model)} at ${plain(e.local.endpoint)})` : '';
  // The same agent and login on another model: its own session goes on (issue 14 item 2).
  const fromModel = typeof e.from === 'object' ? e.from.model : undefined;
  if (from === e.to.harness && fromModel !== e.to.model) return `Switched ${agentTitle(from, titles)} to model ${plain(e.to.model)}${account}${local}`;
  return `Switched this conversation from ${agentTitle(from, titles)} to ${agentTitle(e.to.harness, titles)}${account}${local}`;
}

/** A divider's pieces, for a view that fits them to its width; null where dividerText() is. */
export function dividerParts(e: Entry, titles: Record<string, string> = {}): { text: string; seq: number; how: string; chars?: string } | null {
  const text = dividerText(e, titles);
  if (!text || e.kind !== 'handoff') return null;
  const chars = count(e.briefChars);
  return {
    text,
    seq: e.seq,
    how: e.mode === 'resume' ? 'its own session resumed, delta sent' : 'fresh start with a brief',
    ...(chars === undefined ? {} : { chars }),
  };
}

/** A stored number shown only when it is one: an older log may hold anything there. */
const count = (v: unknown): string | undefined => (typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined);

// A folded text shows its first line only: redacting this much of it is enough (a secret that
// starts in the first line and runs past this is a PEM block, redacted as cut).
const FOLD_REDACT = 4096;
const redactFirst = (text: string) => redact(text.length <= FOLD_REDACT ? text : text.slice(0, FOLD_REDACT));
const clean = (text: string) => stripControls(redact(text));

function fold(text: string, width = ONE_LINE): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

function inputText(input: unknown): string {
  if (typeof input === 'string') return input;
  try {
    return JSON.stringify(input) ?? '';
  } catch {
    return Object.prototype.toString.call(input);
  }
}

/** One entry as lines of plain text (no trailing newline), or [] for bookkeeping entries. */
export function renderEntry(e: Entry, opts: RenderOptions = {}): string[] {
  const titles = opts.titles ?? {};
  const head = (label: string) => `[${e.seq}] ${label}`;
  const body = (text: string) =>
    clean(text)
      .split('\n')
      .map((l) => `    ${l}`);
  const folded = (text: string) => fold(stripControls(redactFirst(text)));
  switch (e.kind) {
    case 'user_message':
      return [head(authorLabel(e.author, titles)), ...body(e.text)];
    case 'agent_text':
      return [head(authorLabel(e.author, titles)), ...body(e.text)];
    case 'reasoning':
      return [head(`${authorLabel(e.author, titles)} · thinking`), ...(opts.expandTools ? body(e.text) : [`    ${folded(e.text)}`])];
    case 'tool_call': {
      // Redacted as a value (a field named password, a key a sequence splits) before JSON
      // turns its control characters into text.
      const input = stripControls(inputText(redactValue(e.input)));
      return opts.expandTools ? [head(`tool ${stripControls(e.toolName)}`), ...body(input)] : [head(`tool ${stripControls(e.toolName)} ${fold(input)}`)];
    }
    case 'tool_result': {
      const mark = e.isError ? 'error' : 'result';
      return opts.expandTools
        ? [head(`${mark} of ${stripControls(e.toolName)}`), ...body(e.output)]
        : [head(`${mark} of ${stripControls(e.toolName)}: ${folded(e.output)}`)];
    }
    case 'approval':
      return [head(`approval: ${plain(e.decision)}${e.detail ? ` — ${folded(typeof e.detail === 'string' ? e.detail : inputText(e.detail))}` : ''}`)];
    case 'handoff': {
      const d = dividerParts(e, titles);
      if (!d) return [head(`started with ${agentTitle(e.to.harness, titles)} (${plain(e.to.model)})`)];
      return [`──── ${d.text} ──── [${d.seq}] ${d.how}${d.chars === undefined ? '' : `, ${d.chars} chars`}`];
    }
    case 'turn_end': {
      const u: unknown = e.usage;
      const parts: string[] = [];
      const tokens = (k: 'inputTokens' | 'outputTokens') => (typeof u === 'object' && u !== null ? count((u as Record<string, unknown>)[k]) : undefined);
      const input = tokens('inputTokens');
      const output = tokens('outputTokens');
      if (input !== undefined) parts.push(`${input} in`);
      if (output !== undefined) parts.push(`${output} out`);
      const cost: unknown = e.costUsd;
      if (typeof cost === 'number' && Number.isFinite(cost)) parts.push(`$${cost.toFixed(4)}`);
      else if (cost !== undefined && cost !== null) parts.push('cost unreadable');
      return parts.length ? [head(`turn end · ${parts.join(' · ')}`)] : [];
    }
    case 'summary':
      return [head(`${authorLabel(e.author, titles)} · summary of [${plain(e.fromSeq)}]..[${plain(e.toSeq)}], asked for before a switch`), ...body(e.text)];
    case 'notice':
      return [head(`notice: ${clean(e.text)}`)];
    case 'error':
      return [head(`error: ${clean(e.text)}`)];
    case 'reset':
      return [head(e.undoes !== undefined ? `reset [${plain(e.undoes)}] undone` : `reset to [${e.toSeq}]${e.restored ? ', worktree restored' : ''}`)];
    case 'unknown':
      // A kind baton knows whose fields it could not read is damaged, not from a newer baton.
      return [
        head(
          KNOWN_KINDS.has(e.originalKind)
            ? `unreadable ${stripControls(e.originalKind)} entry (kept as written; see the load warning)`
            : `unknown entry kind "${stripControls(e.originalKind)}" (kept as written; a newer baton knows it)`,
        ),
      ];
    case 'agent_session':
    case 'cursor':
      return [];
  }
}

/** Whether renderEntry shows anything of `e`, without rendering (and redacting) it. */
export function isRendered(e: Entry): boolean {
  return (
    renderEntry(
      e.kind === 'user_message' || e.kind === 'agent_text' || e.kind === 'reasoning' || e.kind === 'summary' || e.kind === 'notice' || e.kind === 'error'
        ? { ...e, text: '' }
        : e.kind === 'tool_result'
          ? { ...e, output: '' }
          : e.kind === 'tool_call'
            ? { ...e, input: null }
            : e,
    ).length > 0
  );
}

export function renderEntries(entries: readonly Entry[], opts: RenderOptions = {}): string {
  const out: string[] = [];
  for (const e of entries) {
    const lines = renderEntry(e, opts);
    if (lines.length) out.push(...lines);
  }
  return out.join('\n') + (out.length ? '\n' : '');
}

/** The Markdown export: the same content, as a document. */
export function renderMarkdown(entries: readonly Entry[], title: string, opts: RenderOptions = {}): string {
  const titles = opts.titles ?? {};
  const out: string[] = [`# ${plain(redact(title))}`, ''];
  const fence = (text: string) => {
    const t = clean(text);
    const ticks = '`'.repeat(Math.max(3, ...[...t.matchAll(/`+/g)].map((m) => m[0].length + 1)));
    return [ticks, t, ticks];
  };
  for (const e of entries) {
    switch (e.kind) {
      case 'user_message':
      case 'agent_text':
        out.push(`**${authorLabel(e.author, titles)}** _(#${e.seq})_`, '', clean(e.text), '');
        break;
      case 'tool_call':
        out.push(
          `<details><summary>tool ${stripControls(e.toolName)} (#${e.seq})</summary>`,
          '',
          ...fence(inputText(redactValue(e.input))),
          '',
          '</details>',
          '',
        );
        break;
      case 'tool_result':
        out.push(
          `<details><summary>${e.isError ? 'error' : 'result'} of ${stripControls(e.toolName)} (#${e.seq})</summary>`,
          '',
          ...fence(e.output),
          '',
          '</details>',
          '',
        );
        break;
      case 'handoff': {
        const d = dividerText(e, titles);
        if (d) out.push('---', '', `_${d}_`, '', '---', '');
        break;
      }
      default: {
        const lines = renderEntry(e, opts);
        if (lines.length) out.push(`_${lines.join(' ').replace(/^\[\d+\] /, '')}_`, '');
      }
    }
  }
  return out.join('\n');
}
