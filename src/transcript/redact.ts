// Credential redaction for what baton keeps (the store calls redactEntry before a line is
// written) and for what it hands over (every piece of a brief). Retained text is replayed to
// the next agent as the conversation itself, so a false positive silently corrupts the only
// copy of the user's context: only unambiguous credential shapes are matched (known key and
// token prefixes with realistic lengths, PEM private-key blocks, Bearer authorization
// headers, JSON fields whose name says they hold a secret). It must never rewrite ordinary
// code such as `token := lexer.Next()`, `const apiKey = getKey()` or `password_hash($p)`,
// and never make a text longer: a marker is shortened to fit the span it replaces, which
// is what lets the brief size its sections from the unredacted text.

import type { Entry } from './types.js';

/** `[REDACTED:kind]`, or a shorter form when the secret itself is shorter than that. */
export function redactionMarker(kind: string, length: number): string {
  const full = `[REDACTED:${kind}]`;
  if (full.length <= length) return full;
  if (length >= 10) return '[REDACTED]';
  // A JSON password of a few characters: keep the field's shape, not its length.
  return '*'.repeat(Math.min(Math.max(length, 1), 3));
}

// Token shapes, one alternation so a text is scanned once. Each alternative starts with its
// literal prefix (so the scan skips ahead on it) and then looks behind that prefix for a
// boundary: the character before must not continue a word or a token, though the end of a
// terminal escape sequence may (coloured output: ESC[1m followed by the key).
const token = (prefix: string, set: string, rest: string) =>
  `${prefix}(?<=(?:^|[^${set}]|\\u001b\\[[0-9;:?]*[A-Za-z])${prefix})${rest}`;
const TOKENS = new RegExp(
  [
    token('sk-ant-', 'A-Za-z0-9_-', '[A-Za-z0-9_-]{20,}'),
    token('sk-(?:proj|svcacct|admin)-', 'A-Za-z0-9_-', '[A-Za-z0-9_-]{20,}'),
    // Legacy OpenAI keys: sk- and 32+ letters and digits, no dashes (so `sk-learn` stays).
    token('sk-', 'A-Za-z0-9_-', '[A-Za-z0-9]{32,}(?![A-Za-z0-9_-])'),
    token('gh[pousr]_', 'A-Za-z0-9_', '[A-Za-z0-9]{36,251}(?![A-Za-z0-9_])'),
    token('github_pat_', 'A-Za-z0-9_', '[A-Za-z0-9_]{22,244}(?![A-Za-z0-9_])'),
    token('(?:AKIA|ASIA)', 'A-Za-z0-9', '[A-Z0-9]{16}(?![A-Za-z0-9])'),
    token('xox[baprs]-', 'A-Za-z0-9_-', '[A-Za-z0-9][A-Za-z0-9-]{18,}'),
    token('AIza', 'A-Za-z0-9_-', '[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])'),
  ].join('|'),
  'g',
);

function tokenKind(m: string): string {
  if (m.startsWith('sk-ant-')) return 'anthropic-key';
  if (m.startsWith('sk-')) return 'openai-key';
  if (m.startsWith('gh') || m.startsWith('github_pat_')) return 'github-token';
  if (m.startsWith('xox')) return 'slack-token';
  if (m.startsWith('AIza')) return 'google-api-key';
  return 'aws-key';
}

const SENSITIVE_FIELD = 'password|secret|api_key|apikey|access_token|accesstoken|refresh_token|refreshtoken|client_secret';

// Secrets recognized by what precedes them; group pairs (kept prefix, secret[, kept suffix]).
// JSON fields: "password": "value" and, inside a JSON string, \"password\": \"value\". String
// values only; an empty value is left alone (nothing to hide, and templates keep it).
const CONTEXTUAL = new RegExp(
  [
    '(Authorization["\']?\\s*[:=]\\s*["\']?Bearer[ \\t]+)([A-Za-z0-9\\-._~+/]{12,}=*)',
    '((?:aws_secret_access_key|SecretAccessKey)["\']?\\s*[=:]\\s*["\']?)([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])',
    `("(?:${SENSITIVE_FIELD})"\\s*:\\s*")([^"\\\\\\r\\n]*(?:\\\\.[^"\\\\\\r\\n]*)*)(")`,
    `(\\\\"(?:${SENSITIVE_FIELD})\\\\"\\s*:\\s*\\\\")((?:[^"\\\\]|\\\\[^"])+?)(\\\\")`,
  ].join('|'),
  'gi',
);

const PREFILTER_TOKENS = /sk-|gh[pousr]_|github_pat_|AKIA|ASIA|xox|AIza/;
const PREFILTER_CONTEXT = /bearer|secret|password|api_?key|access_?token|refresh_?token/i;

const FIELD_KIND: Readonly<Record<string, string>> = {
  password: 'password',
  secret: 'secret',
  api_key: 'api-key',
  apikey: 'api-key',
  access_token: 'access-token',
  accesstoken: 'access-token',
  refresh_token: 'refresh-token',
  refreshtoken: 'refresh-token',
  client_secret: 'client-secret',
};

function fieldKind(name: string): string | undefined {
  const key = name.toLowerCase();
  return Object.hasOwn(FIELD_KIND, key) ? FIELD_KIND[key] : undefined;
}

const FIELD_NAME = /^\\?"([^"\\]+)\\?"/;

// A field value that names a secret rather than holding one ($OPENAI_API_KEY, ${TOKEN},
// {{ secrets.X }}, <password>) or was masked already: left as it is, it says where the
// secret comes from, which the next agent may need.
const PLACEHOLDER = /^(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\{\{[^{}]*\}\}|<[^<>]*>|\*+|\[REDACTED(?::[a-z-]+)?\])$/;

function contextual(m: string, ...g: (string | undefined)[]): string {
  if (g[0] !== undefined) return g[0] + redactionMarker('bearer', g[1]!.length);
  if (g[2] !== undefined) return g[2] + redactionMarker('aws-secret', g[3]!.length);
  const [prefix, value, close] = g[4] !== undefined ? [g[4], g[5]!, g[6]!] : [g[7]!, g[8]!, g[9]!];
  if (value === '' || PLACEHOLDER.test(value)) return m;
  const name = FIELD_NAME.exec(prefix)?.[1] ?? '';
  return prefix + redactionMarker(fieldKind(name) ?? 'secret', value.length) + close;
}

/** Replaces every unambiguous credential in `text` with a marker. Never lengthens the text. */
export function redact(text: string): string {
  if (text.length < 10) return text;
  let out = text.includes('PRIVATE KEY') ? redactPrivateKeys(text) : text;
  if (PREFILTER_TOKENS.test(out)) out = out.replace(TOKENS, (m: string) => redactionMarker(tokenKind(m), m.length));
  if (PREFILTER_CONTEXT.test(out)) out = out.replace(CONTEXTUAL, contextual);
  return out;
}

// ---- PEM private keys -------------------------------------------------------------------
// Parsed by hand rather than with one regex: a block may be cut (an abbreviated tool
// output shows only its start or its end), may sit inside a JSON string with escaped
// newlines, and a PEM parser's source code mentions the markers without any key material.

const PEM_BEGIN = /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----/g;
const PEM_END = /-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g;
const PEM_END_AT = /-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/y;
const PEM_HEADER_AT = /[A-Za-z][A-Za-z-]*: [^\r\n\\]*/y;
const MIN_MATERIAL = 16;

function isB64(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47 || c === 61;
}

/** Length of a line break starting at i: \n, \r\n, or their JSON escapes. */
function breakAt(t: string, i: number): number {
  const c = t.charCodeAt(i);
  if (c === 10) return 1;
  if (c === 13 && t.charCodeAt(i + 1) === 10) return 2;
  if (c === 92) {
    const d = t.charCodeAt(i + 1);
    if (d === 110) return 2;
    if (d === 114 && t.charCodeAt(i + 2) === 92 && t.charCodeAt(i + 3) === 110) return 4;
  }
  return 0;
}

/** Length of a line break ending just before i. */
function breakBefore(t: string, i: number): number {
  if (t.charCodeAt(i - 1) === 10) return t.charCodeAt(i - 2) === 13 ? 2 : 1;
  if (t.charCodeAt(i - 1) === 110 && t.charCodeAt(i - 2) === 92) {
    return t.charCodeAt(i - 3) === 114 && t.charCodeAt(i - 4) === 92 ? 4 : 2;
  }
  return 0;
}

function pemBlockEnd(t: string, afterBegin: number): number {
  let p = afterBegin;
  const first = breakAt(t, p);
  if (!first) return -1;
  p += first;
  let material = 0;
  for (;;) {
    if (material === 0) {
      PEM_HEADER_AT.lastIndex = p;
      const h = PEM_HEADER_AT.exec(t);
      if (h) {
        const b = breakAt(t, p + h[0].length);
        if (!b) break;
        p += h[0].length + b;
        continue;
      }
    }
    const blank = breakAt(t, p);
    if (blank) {
      p += blank;
      continue;
    }
    let q = p;
    while (q < t.length && isB64(t.charCodeAt(q))) q++;
    if (q === p) break;
    material += q - p;
    p = q;
    const b = breakAt(t, p);
    if (!b) break;
    p += b;
  }
  if (material === 0) return -1;
  PEM_END_AT.lastIndex = p;
  const end = PEM_END_AT.exec(t);
  if (end) return p + end[0].length;
  // Cut before its END line: redact what is there, if it is clearly key material.
  if (material >= MIN_MATERIAL || p >= t.length) return p;
  return -1;
}

function orphanEndStart(t: string, endAt: number): number {
  let p = endAt - breakBefore(t, endAt);
  if (p === endAt) return -1;
  let material = 0;
  let first = -1;
  for (;;) {
    let q = p;
    while (q > 0 && isB64(t.charCodeAt(q - 1)) && !(t.charCodeAt(q - 1) === 110 && t.charCodeAt(q - 2) === 92)) q--;
    if (q === p) break;
    material += p - q;
    first = q;
    const b = breakBefore(t, q);
    if (!b) break;
    p = q - b;
  }
  if (first < 0) return -1;
  return material >= MIN_MATERIAL || first === 0 ? first : -1;
}

function redactPrivateKeys(text: string): string {
  if (!text.includes('PRIVATE KEY')) return text;
  const spans: [number, number][] = [];
  let covered = 0;
  PEM_BEGIN.lastIndex = 0;
  for (let m = PEM_BEGIN.exec(text); m; m = PEM_BEGIN.exec(text)) {
    if (m.index < covered) continue;
    const end = pemBlockEnd(text, m.index + m[0].length);
    if (end < 0) continue;
    spans.push([m.index, end]);
    covered = end;
    PEM_BEGIN.lastIndex = end;
  }
  PEM_END.lastIndex = 0;
  for (let m = PEM_END.exec(text); m; m = PEM_END.exec(text)) {
    const at = m.index;
    if (spans.some(([s, e]) => at >= s && at < e)) continue;
    const start = orphanEndStart(text, at);
    if (start < 0) continue;
    // The run walked back may not cross a block already found.
    if (spans.some(([s, e]) => start < e && s < at)) continue;
    spans.push([start, at + m[0].length]);
  }
  if (!spans.length) return text;
  spans.sort((a, b) => a[0] - b[0]);
  let out = '';
  let last = 0;
  for (const [s, e] of spans) {
    out += text.slice(last, s) + redactionMarker('private-key', e - s);
    last = e;
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
    const kind = typeof v === 'string' && v !== '' && !PLACEHOLDER.test(v) ? fieldKind(key) : undefined;
    const next = kind ? redactionMarker(kind, (v as string).length) : redactValue(v, depth + 1);
    if (next !== v) (copy ??= { ...obj })[key] = next;
  }
  return copy ?? value;
}

/**
 * The entry with credentials redacted in its text, tool input and output, approval detail
 * and unknown payload. Returns the same object when nothing needed redacting.
 */
export function redactEntry(entry: Entry): Entry {
  switch (entry.kind) {
    case 'user_message':
    case 'agent_text':
    case 'reasoning':
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
    default:
      return entry;
  }
}
