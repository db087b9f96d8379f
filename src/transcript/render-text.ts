// Renders transcript entries as plain text for baton's own views (`baton transcript show`,
// the Markdown export, the TUI's transcript view): authors, folded tool traffic and the
// "Switched this conversation from A to B" dividers. Every piece of agent or user content
// passes through the sanitizer, so no terminal control sequence an agent wrote reaches
// the user's terminal from here.

import { stripControls } from './sanitize.js';
import type { Author, Entry } from './types.js';

export interface RenderOptions {
  /** Show tool inputs and outputs in full instead of folded to one line. */
  expandTools?: boolean;
  /** Names to show for harness ids (`claude` -> `Claude Code`). */
  titles?: Record<string, string>;
}

const ONE_LINE = 100;

export function authorLabel(a: Author, titles: Record<string, string> = {}): string {
  switch (a.type) {
    case 'user':
      return `${a.name}@${a.device}`;
    case 'agent':
      return `${titles[a.harness] ?? a.harness} (${a.model})`;
    case 'system':
      return 'baton';
  }
}

export function agentTitle(harness: string, titles: Record<string, string> = {}): string {
  return titles[harness] ?? harness;
}

/** The divider a reader sees at a handoff; null for the conversation's first segment. */
export function dividerText(e: Entry, titles: Record<string, string> = {}): string | null {
  if (e.kind !== 'handoff' || !e.from) return null;
  return `Switched this conversation from ${agentTitle(e.from.harness, titles)} to ${agentTitle(e.to.harness, titles)}`;
}

function fold(text: string, width = ONE_LINE): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

function inputText(input: unknown): string {
  if (typeof input === 'string') return input;
  try {
    return JSON.stringify(input) ?? '';
  } catch {
    return String(input);
  }
}

/** One entry as lines of plain text (no trailing newline), or [] for bookkeeping entries. */
export function renderEntry(e: Entry, opts: RenderOptions = {}): string[] {
  const titles = opts.titles ?? {};
  const head = (label: string) => `[${e.seq}] ${label}`;
  const body = (text: string) => stripControls(text).split('\n').map((l) => `    ${l}`);
  switch (e.kind) {
    case 'user_message':
      return [head(authorLabel(e.author, titles)), ...body(e.text)];
    case 'agent_text':
      return [head(authorLabel(e.author, titles)), ...body(e.text)];
    case 'reasoning':
      return [head(`${authorLabel(e.author, titles)} · thinking`), ...body(opts.expandTools ? e.text : fold(e.text))];
    case 'tool_call': {
      const input = stripControls(inputText(e.input));
      return opts.expandTools
        ? [head(`tool ${stripControls(e.toolName)}`), ...body(input)]
        : [head(`tool ${stripControls(e.toolName)} ${fold(input)}`)];
    }
    case 'tool_result': {
      const mark = e.isError ? 'error' : 'result';
      return opts.expandTools
        ? [head(`${mark} of ${stripControls(e.toolName)}`), ...body(e.output)]
        : [head(`${mark} of ${stripControls(e.toolName)}: ${fold(stripControls(e.output))}`)];
    }
    case 'approval':
      return [head(`approval: ${stripControls(e.decision)}${e.detail ? ` — ${fold(stripControls(e.detail))}` : ''}`)];
    case 'handoff': {
      const divider = dividerText(e, titles);
      if (!divider) return [head(`started with ${agentTitle(e.to.harness, titles)} (${e.to.model})`)];
      const how = e.mode === 'resume' ? 'its own session resumed, delta sent' : 'fresh start with a brief';
      return [`──── ${divider} ──── [${e.seq}] ${how}, ${e.briefChars} chars`];
    }
    case 'turn_end': {
      const u = e.usage;
      const parts: string[] = [];
      if (u?.inputTokens !== undefined) parts.push(`${u.inputTokens} in`);
      if (u?.outputTokens !== undefined) parts.push(`${u.outputTokens} out`);
      if (e.costUsd !== undefined) parts.push(`$${e.costUsd.toFixed(4)}`);
      return parts.length ? [head(`turn end · ${parts.join(' · ')}`)] : [];
    }
    case 'notice':
      return [head(`notice: ${stripControls(e.text)}`)];
    case 'error':
      return [head(`error: ${stripControls(e.text)}`)];
    case 'reset':
      return [head(e.undoes !== undefined ? `reset [${e.undoes}] undone` : `reset to [${e.toSeq}]${e.restored ? ', worktree restored' : ''}`)];
    case 'unknown':
      return [head(`unknown entry kind "${stripControls(e.originalKind)}" (kept as written; a newer baton knows it)`)];
    case 'agent_session':
    case 'cursor':
      return [];
  }
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
  const out: string[] = [`# ${stripControls(title)}`, ''];
  const fence = (text: string) => {
    const t = stripControls(text);
    const ticks = '`'.repeat(Math.max(3, ...[...t.matchAll(/`+/g)].map((m) => m[0].length + 1)));
    return [ticks, t, ticks];
  };
  for (const e of entries) {
    switch (e.kind) {
      case 'user_message':
      case 'agent_text':
        out.push(`**${authorLabel(e.author, titles)}** _(#${e.seq})_`, '', stripControls(e.text), '');
        break;
      case 'tool_call':
        out.push(`<details><summary>tool ${stripControls(e.toolName)} (#${e.seq})</summary>`, '', ...fence(inputText(e.input)), '', '</details>', '');
        break;
      case 'tool_result':
        out.push(`<details><summary>${e.isError ? 'error' : 'result'} of ${stripControls(e.toolName)} (#${e.seq})</summary>`, '', ...fence(e.output), '', '</details>', '');
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
