// The provider-neutral view of one model request that the fake LLM reasons about:
// what the user last said (with the context blocks that CLIs inject stripped, and its own
// words apart from a baton brief before them: ownText), which
// tool calls and results followed it, which tools the client declared, and whether it
// asked for structured output. Each API module parses its wire format into this.
// It must never carry a wire format of its own: API modules own those.

import { BRIEF_BEGIN, BRIEF_END } from '../../src/transcript/brief-sections.js';

export type ApiName = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini';

export type ConvItem =
  | { kind: 'user_text'; text: string }
  | { kind: 'assistant_text'; text: string }
  | { kind: 'tool_call'; name: string }
  | { kind: 'tool_result'; output: string };

export interface ToolDecl {
  name: string;
  /** JSON Schema (or Gemini's OpenAPI-style schema) of the arguments, when declared. */
  parameters?: unknown;
}

export interface Conversation {
  system: string;
  items: ConvItem[];
  tools: ToolDecl[];
  /** A JSON schema the reply must satisfy (structured output), if requested. */
  schema?: unknown;
  /** JSON requested without a schema (OpenAI json_object). */
  jsonMode?: boolean;
  /** User texts before context stripping: where the cwd is usually stated. */
  rawUserTexts: string[];
}

export function emptyConversation(): Conversation {
  return { system: '', items: [], tools: [], rawUserTexts: [] };
}

// Blocks that clients put into user messages as context, not as what the user typed:
// claude <system-reminder>, gemini/qwen <session_context>, codex <environment_context>,
// <user_instructions> and the AGENTS.md message (its body sits in <INSTRUCTIONS>).
const CONTEXT_BLOCKS = [
  'system-reminder',
  'session_context',
  'environment_context',
  'user_instructions',
  'INSTRUCTIONS',
  'permissions instructions',
  'ide_context',
];

export function stripContext(text: string): string {
  let out = text;
  for (const tag of CONTEXT_BLOCKS) {
    const esc = tag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    out = out.replace(new RegExp(`<${esc}>[\\s\\S]*?</${esc.split(' ')[0]}>`, 'g'), '');
  }
  // codex sends the repo's AGENTS.md as a user message of its own.
  if (/^\s*# AGENTS\.md instructions\b/.test(out)) return '';
  // gemini/qwen open a conversation with a setup message the model answers with "Got it".
  if (/^\s*This is the (Gemini CLI|Qwen Code)\. We are setting up the context/.test(out)) return '';
  return out.trim();
}

/**
 * The user's own words in a user text: without the baton handoff brief that baton puts before
 * the message when an agent takes over (src/transcript/brief-sections.ts frames it between
 * BRIEF_BEGIN and a line BRIEF_END, and the message follows: handoff-file.ts briefAndMessage,
 * chat.ts compose). The brief quotes earlier messages, markers and all; acting on them would
 * run a command again for the new agent. The frame's end is its first BRIEF_END line after
 * BRIEF_BEGIN, as a model reads it: the brief holds exactly one (frameOnce neutralises the
 * frame's words in what it quotes, an earlier echo of a brief included), so an end line
 * after it is in the user's new message, and what follows that is theirs too. Text before
 * BRIEF_BEGIN (a draft left in the CLI's box) is the user's too. A brief sent as a file
 * pointer quotes nothing: kept whole.
 */
export function ownText(text: string): string {
  const begin = text.indexOf(BRIEF_BEGIN);
  if (begin < 0) return text;
  const end = frameEnd(text, begin);
  if (end < 0) return text;
  return `${text.slice(0, begin)}${text.slice(end)}`.trim();
}

/** Where the first line reading exactly BRIEF_END after `from` ends, or -1. */
function frameEnd(text: string, from: number): number {
  const endLine = `\n${BRIEF_END}`;
  for (let i = text.indexOf(endLine, from); i >= 0; i = text.indexOf(endLine, i + 1)) {
    const after = i + endLine.length;
    if (after === text.length || text[after] === '\n' || text[after] === '\r') return after;
  }
  return -1;
}

/** Index of the last user item that carries real user text, or -1. */
export function lastUserIndex(items: ConvItem[]): number {
  for (let i = items.length - 1; i >= 0; i--) if (items[i]!.kind === 'user_text') return i;
  return -1;
}

/** Pushes a user text item unless it is empty after the context is stripped. */
export function pushUserText(conv: Conversation, raw: string): void {
  conv.rawUserTexts.push(raw);
  const text = stripContext(raw);
  if (text) conv.items.push({ kind: 'user_text', text });
}

/** The cwd the client told the model about, so relative FAKE_WRITE paths land in it. */
export function findCwd(conv: Conversation): string | undefined {
  const patterns = [
    /<cwd>\s*([^<\n]+?)\s*<\/cwd>/,
    /Primary working directory:\s*(\/\S+)/,
    /Working directory:\s*(\/\S+)/,
    /working in the directory:?\s*`?(\/[^\s`]+)/i,
    /Workspace Directories:\**\s*\n\s*-\s*(\/\S+)/,
    /current working directory(?: is)?:?\s*`?(\/[^\s`]+)/i,
  ];
  return firstMatch([conv.system, ...conv.rawUserTexts], patterns);
}

function firstMatch(texts: string[], patterns: RegExp[]): string | undefined {
  for (const re of patterns) {
    for (const t of texts) {
      const m = re.exec(t);
      if (m?.[1]) return m[1].replace(/[.,;:)]+$/, '');
    }
  }
  return undefined;
}

/** Text of a content value that may be a string or a list of typed parts. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((p) => {
        if (typeof p === 'string') return p;
        if (p && typeof p === 'object') {
          const o = p as Record<string, unknown>;
          if (typeof o.text === 'string') return o.text;
          if ('content' in o) return textOf(o.content);
        }
        return '';
      })
      .filter(Boolean)
      .join('\n');
  }
  if (content && typeof content === 'object') return JSON.stringify(content);
  return '';
}

export function asObject(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

export function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}
