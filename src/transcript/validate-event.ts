// Checks a harness event against the transcript's types before apply() turns it into
// entries. A driver (built in or dropped in) is code baton does not control, and what it
// reports is stored for good and read back by every view, brief and export: a cost that
// is a string, a session id that is a number or a tool input that cannot be written as
// JSON must be refused at the door, not discovered by a renderer months later.
// Cheap by design (apply is on the ingest hot path): typeof checks, and for a tool
// call's input one walk that stops at the first value JSON would not keep as it is.
// It must never throw, never modify the event it is given, and never pass a value that
// JSON.stringify would change or refuse: memory and the log must hold the same entry.

import { stripControls } from './sanitize.js';
import type { TranscriptEvent, Usage, UserAuthor } from './types.js';

export interface EventRefusal {
  /** The event's type as reported (sanitized and cut), or '?' when it has none. */
  type: string;
  /** The field at fault: 'type' for an unknown type, 'event' when it is not an object. */
  field: string;
  /** What is wrong with it, e.g. "is a string, not a finite number >= 0". */
  problem: string;
}

export type EventCheck = { ok: true; event: TranscriptEvent } | { ok: false; refusal: EventRefusal };

type Obj = Record<string, unknown>;

/** How a value reads in a refusal: its kind, never its content (which may be huge or private). */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  switch (typeof v) {
    case 'number':
      return Number.isNaN(v) ? 'NaN' : Number.isFinite(v) ? `the number ${v}` : `${v}`;
    case 'string':
      return 'a string';
    case 'boolean':
      return 'a boolean';
    case 'bigint':
      return 'a bigint';
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    default:
      return 'an object';
  }
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

// A field rule returns the problem, or undefined when the value is fine.
type Rule = (v: unknown) => string | undefined;
const string: Rule = (v) => (typeof v === 'string' ? undefined : `is ${describeValue(v)}, not a string`);
const nonEmpty: Rule = (v) => (typeof v !== 'string' ? `is ${describeValue(v)}, not a string` : v === '' ? 'is empty' : undefined);
const boolean: Rule = (v) => (typeof v === 'boolean' ? undefined : `is ${describeValue(v)}, not true or false`);
const amount: Rule = (v) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? undefined : `is ${describeValue(v)}, not a finite number >= 0`);

const USAGE_KEYS = ['inputTokens', 'outputTokens', 'cachedInputTokens', 'reasoningTokens'] as const;

/** [field, problem]: what a check found wrong. */
type Fault = [string, string];

/** A required field. */
function need(o: Obj, field: string, rule: Rule): Fault | undefined {
  const p = rule(o[field]);
  return p ? [field, p] : undefined;
}

/** An optional field: absent when undefined or null (nulls are dropped by normalize()). */
function may(o: Obj, field: string, rule: Rule): Fault | undefined {
  const v = o[field];
  if (v === undefined || v === null) return undefined;
  const p = rule(v);
  return p ? [field, p] : undefined;
}

// The optional fields of each event type: a null in one is dropped, so memory holds what the log will.
const OPTIONAL: Readonly<Record<string, readonly string[]>> = {
  user_text: ['author', 'checkpoint', 'switchId'],
  agent_text: ['messageId'],
  reasoning: ['messageId'],
  tool_call: [],
  tool_result: ['toolCallId', 'toolName', 'isError'],
  approval: ['toolCallId', 'detail'],
  turn_end: ['usage', 'costUsd'],
  notice: [],
  error: ['code'],
  session: [],
};

/**
 * The event as apply() may use it, or why it is refused. Optional fields that are null or
 * undefined count as absent. The event comes back as given unless something had to be
 * normalized (a null optional field dropped, usage and author rebuilt from their known
 * fields, a tool input replaced by its JSON form); then it is a copy.
 * Written without closures or per-call allocations on the path of a valid event: it runs
 * for every streamed chunk.
 */
export function checkEvent(event: unknown): EventCheck {
  try {
    return check(event);
  } catch (e) {
    // A getter or a proxy that throws: the event cannot even be read.
    return refuse('?', 'event', `could not be read (${describeFirst(e)})`);
  }
}

function check(event: unknown): EventCheck {
  if (!isObj(event)) return refuse('?', 'event', `is ${describeValue(event)}, not an event object`);
  const type = event.type;
  let bad: Fault | undefined;
  let input: unknown = event.input;
  switch (type) {
    case 'agent_text':
    case 'reasoning':
      bad = need(event, 'text', string) ?? may(event, 'messageId', string);
      break;
    case 'user_text':
      bad = need(event, 'text', string) ?? may(event, 'checkpoint', string) ?? may(event, 'switchId', string) ?? authorFault(event.author);
      break;
    case 'tool_call': {
      bad = need(event, 'toolCallId', string) ?? need(event, 'toolName', string);
      if (bad || jsonExact(input, 0)) break;
      const form = jsonForm(input);
      if (form.ok) input = form.value;
      else bad = ['input', form.problem];
      break;
    }
    case 'tool_result':
      bad = need(event, 'output', string) ?? may(event, 'toolCallId', string) ?? may(event, 'toolName', string) ?? may(event, 'isError', boolean);
      break;
    case 'approval':
      bad = need(event, 'decision', string) ?? may(event, 'toolCallId', string) ?? may(event, 'detail', string);
      break;
    case 'turn_end':
      bad = may(event, 'costUsd', amount) ?? usageFault(event.usage);
      break;
    case 'notice':
      bad = need(event, 'text', string);
      break;
    case 'error':
      bad = need(event, 'text', string) ?? may(event, 'code', string);
      break;
    case 'session':
      bad = need(event, 'agentSession', nonEmpty);
      break;
    default:
      return refuse(
        typeof type === 'string' ? shown(type) : '?',
        'type',
        typeof type === 'string' ? 'is not an event type baton knows' : `is ${describeValue(type)}, not an event type`,
      );
  }
  if (bad) return refuse(type, bad[0], bad[1]);
  return { ok: true, event: normalize(event, type, input) };
}

function authorFault(a: unknown): Fault | undefined {
  if (a === undefined || a === null) return undefined;
  if (!isObj(a) || a.type !== 'user') return ['author', `is ${describeValue(a)}, not a user author`];
  const f = need(a, 'name', string) ?? need(a, 'device', string);
  return f && [`author.${f[0]}`, f[1]];
}

function usageFault(u: unknown): Fault | undefined {
  if (u === undefined || u === null) return undefined;
  if (!isObj(u)) return ['usage', `is ${describeValue(u)}, not an object of token counts`];
  for (const k of USAGE_KEYS) {
    const f = may(u, k, amount);
    if (f) return [`usage.${f[0]}`, f[1]];
  }
  return undefined;
}

/** The checked event with nulls dropped, usage and author rebuilt, the input in its JSON form; the same object when none applies. */
function normalize(event: Obj, type: string, input: unknown): TranscriptEvent {
  let copy: Obj | undefined;
  for (const f of OPTIONAL[type]!) if (event[f] === null) delete (copy ??= { ...event })[f];
  if (type === 'tool_call' && input !== event.input) (copy ??= { ...event }).input = input;
  if (type === 'turn_end' && isObj(event.usage)) {
    // Only the counts the transcript knows: nothing else a driver put there reaches the log.
    const u = event.usage;
    const usage: Usage = {};
    for (const k of USAGE_KEYS) if (typeof u[k] === 'number') usage[k] = u[k];
    (copy ??= { ...event }).usage = usage;
  }
  if (type === 'user_text' && isObj(event.author)) {
    const a = event.author;
    (copy ??= { ...event }).author = { type: 'user', name: a.name as string, device: a.device as string } satisfies UserAuthor;
  }
  return (copy ?? event) as TranscriptEvent;
}

function refuse(type: string, field: string, problem: string): EventCheck {
  return { ok: false, refusal: { type, field, problem } };
}

/** A reported name as a notice may quote it: no controls, at most 40 characters. */
function shown(s: string): string {
  const clean = stripControls(s).replace(/\s+/g, ' ');
  return clean.length > 40 ? `${clean.slice(0, 39)}…` : clean;
}

// Deeper than any real tool input; a walk that gets this deep (or is in a cycle) hands the
// value to JSON.stringify, which settles it.
const MAX_WALK_DEPTH = 64;

/**
 * True when JSON.parse(JSON.stringify(v)) would give back the same value: strings,
 * booleans, null, finite numbers, and arrays and plain objects of those (no undefined
 * members, no class instances such as Date or Map).
 */
function jsonExact(v: unknown, depth: number): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v);
    case 'object': {
      if (v === null) return true;
      if (depth >= MAX_WALK_DEPTH) return false;
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) if (!jsonExact(v[i], depth + 1)) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(v) as unknown;
      if (proto !== Object.prototype && proto !== null) return false;
      for (const k in v) if (!jsonExact((v as Obj)[k], depth + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}

/**
 * A tool input that is not JSON-exact (nearly all are), as it will read back from the log:
 * its JSON form (undefined members dropped, a Date as its string, NaN as null: what the log
 * would hold anyway). Absent input is `{}`, as every built-in driver sends it. Cycles,
 * bigints and inputs JSON cannot hold are refused.
 */
function jsonForm(v: unknown): { ok: true; value: unknown } | { ok: false; problem: string } {
  if (v === undefined) return { ok: true, value: {} };
  let text: string | undefined;
  try {
    text = JSON.stringify(v);
  } catch (e) {
    const why = e instanceof Error && /circular/i.test(e.message) ? 'is circular' : `holds a value JSON cannot store (${describeFirst(e)})`;
    return { ok: false, problem: `${why}, so it cannot be stored` };
  }
  if (text === undefined) return { ok: false, problem: `is ${describeValue(v)}, which JSON cannot store` };
  return { ok: true, value: JSON.parse(text) as unknown };
}

function describeFirst(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return shown(m.split('\n')[0] ?? '');
}
