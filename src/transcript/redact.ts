// Credential redaction: what baton keeps and what it shows. Every entry that enters a
// Transcript, applied or loaded, goes through redactEntry (transcript.ts), so memory, the log
// and every reader (brief, TUI, show, export, search, a fork, an import) hold markers, never
// the secret; titles go through store-meta.ts; each piece of a brief is redacted again as it
// is cut. Retained text is replayed to the next agent as the conversation itself, so a false
// positive silently corrupts the only copy of the user's context: only unambiguous
// credential shapes are matched (redact-rules.ts, redact-pem.ts). It must never rewrite
// ordinary code such as `token := lexer.Next()`, `const apiKey = getKey()` or
// `password_hash($p)`, and never make a text longer: a marker is shortened to fit the span
// it replaces, which is what lets the brief size its sections from the unredacted text.

import { privateKeySpans } from './redact-pem.js';
import { fieldKind, notASecret, ruleSpans } from './redact-rules.js';
import type { Span } from './redact-rules.js';
import { controlView } from './sanitize.js';
import type { Entry } from './types.js';

/** `[REDACTED:kind]`, or a shorter form when the secret itself is shorter than that. */
export function redactionMarker(kind: string, length: number): string {
  const full = `[REDACTED:${kind}]`;
  if (full.length <= length) return full;
  if (length >= 10) return '[REDACTED]';
  // A JSON password of a few characters: keep the field's shape, not its length.
  return '*'.repeat(Math.min(Math.max(length, 1), 3));
}

/**
 * Replaces every unambiguous credential in `text` with a marker. Never lengthens the text;
 * redacting twice changes nothing. Control sequences are looked through: the text is
 * searched as it is (a key right after a colour code, ESC[31mghp_..., is still a key) and
 * as stripControls shows it (a key that ESC[1m splits in two is one key), and a secret
 * found in the shown text is replaced together with the sequences inside it.
 */
export function redact(text: string): string {
  // A log may hold anything where a string belongs; what is not one has nothing to match.
  if (typeof text !== 'string' || text.length < 8) return text;
  const spans = secretSpans(text);
  const view = controlView(text);
  if (view) {
    for (const s of secretSpans(view.text)) {
      const start = view.at[s.start]!;
      const end = view.at[s.end - 1]! + 1;
      // Found in the raw text too: keep that span, it is exact.
      if (!spans.some((r) => r.start < end && start < r.end)) spans.push({ start, end, kind: s.kind });
    }
  }
  return spans.length ? replaceSpans(text, spans) : text;
}

function secretSpans(text: string): Span[] {
  const spans = ruleSpans(text);
  if (text.includes('PRIVATE KEY')) spans.push(...privateKeySpans(text));
  return spans;
}

/**
 * Each span, or each run of overlapping spans, becomes one marker. Where spans overlap the
 * earliest wins, then the longest, then the first found (tokens before their context, so a
 * JSON password that is an AWS key reads aws-key, as it always has).
 */
function replaceSpans(text: string, spans: Span[]): string {
  const order = spans.map((s, i) => ({ ...s, i })).sort((a, b) => a.start - b.start || b.end - a.end || a.i - b.i);
  let out = '';
  let last = 0;
  for (let k = 0; k < order.length; ) {
    const { start, kind } = order[k]!;
    let end = order[k]!.end;
    for (k++; k < order.length && order[k]!.start < end; k++) end = Math.max(end, order[k]!.end);
    out += text.slice(last, start) + redactionMarker(kind, end - start);
    last = end;
  }
  return out + text.slice(last);
}

// ---- structured values and entries ------------------------------------------------------

const MAX_DEPTH = 64;

/**
 * Redacts every string inside a JSON-like value, and string values of fields named like a
 * secret (password, api_key, ...). Returns the same reference when nothing changed.
 */
export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redact(value);
  if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = redactValue(value[i], depth + 1);
      if (v !== value[i]) (copy ??= value.slice())[i] = v;
    }
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  const obj = value as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    const v = obj[key];
    const kind = typeof v === 'string' && !notASecret(v) ? fieldKind(key) : undefined;
    const next = kind ? redactionMarker(kind, (v as string).length) : redactValue(v, depth + 1);
    if (next !== v) (copy ??= { ...obj })[key] = next;
  }
  return copy ?? value;
}

/**
 * The entry with credentials redacted in its text, tool input and output, approval detail,
 * unknown payload, and a handoff's title and git facts. Returns the same object when
 * nothing needed redacting.
 */
export function redactEntry(entry: Entry): Entry {
  switch (entry.kind) {
    case 'user_message':
    case 'agent_text':
    case 'reasoning':
    case 'summary':
    case 'notice':
    case 'error': {
      const text = redact(entry.text);
      return text === entry.text ? entry : { ...entry, text };
    }
    case 'tool_call': {
      const input = redactValue(entry.input);
      return input === entry.input ? entry : { ...entry, input };
    }
    case 'tool_result': {
      const output = redact(entry.output);
      return output === entry.output ? entry : { ...entry, output };
    }
    case 'approval': {
      if (entry.detail === undefined) return entry;
      const detail = redact(entry.detail);
      return detail === entry.detail ? entry : { ...entry, detail };
    }
    case 'unknown': {
      const raw = redactValue(entry.raw) as Record<string, unknown>;
      return raw === entry.raw ? entry : { ...entry, raw };
    }
    case 'handoff': {
      // The title and the .context/ files the brief was built with are kept for the card.
      const briefTitle = entry.briefTitle === undefined ? undefined : redact(entry.briefTitle);
      const git = entry.git === undefined ? undefined : (redactValue(entry.git) as typeof entry.git);
      if (briefTitle === entry.briefTitle && git === entry.git) return entry;
      return { ...entry, ...(briefTitle !== undefined ? { briefTitle } : {}), ...(git !== undefined ? { git } : {}) };
    }
    default:
      return entry;
  }
}
