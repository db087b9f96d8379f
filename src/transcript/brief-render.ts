// How one transcript entry reads in a brief: a bounded one-line header naming the entry
// and its author ("[#12] ana (user):"), and a raw body that the tail planner abbreviates to
// whatever room it grants. Also the body classes, their floors (how short a body may be
// abbreviated before whole entries are dropped) and the order in which they get room back.
// It must never read a clock or the environment, and never emit text that was not
// sanitized and redacted (headers here, bodies through fitText with the same cleaner).

import { fitText } from './abbreviate.js';
export { isRenderable } from './brief-index.js';
import { redact } from './redact.js';
import { stripControls } from './sanitize.js';
import type { Author, Entry, EntryKind } from './types.js';

/**
 * The cleaner every piece of a brief goes through; no step ever lengthens a text. redact
 * reads through control sequences (a key after a colour code, or split by one), so one
 * pass before stripping is enough.
 */
export const clean = (s: string): string => stripControls(redact(s));

export type BodyClass = 'user' | 'agent' | 'notice' | 'tool_call' | 'tool_result' | 'reasoning' | 'fixed';

/**
 * Bodies get room back in this order once every kept entry has its floor, so they are
 * abbreviated in the reverse order: reasoning first, then tool outputs, tool inputs,
 * notices, agent texts, and the user's own words last.
 */
export const EXPANSION_ORDER: readonly BodyClass[] = ['user', 'agent', 'notice', 'tool_call', 'tool_result', 'reasoning'];

/**
 * Characters of body an entry keeps at most abbreviation (its floor) when the conversation
 * part has FULL_FLOOR_BUDGET characters or more; below that, floors shrink in proportion
 * (bodyFloors), so a small budget still shows the newest entries, shortened.
 */
export const BODY_FLOOR: Readonly<Record<BodyClass, number>> = {
  user: 3000,
  agent: 1200,
  notice: 400,
  tool_call: 300,
  tool_result: 300,
  reasoning: 60,
  fixed: 0,
};

export type Floors = Readonly<Record<BodyClass, number>>;

/** From this budget of the conversation part on, bodies get their full BODY_FLOOR. */
export const FULL_FLOOR_BUDGET = 12000;

/**
 * The shortest an abbreviated body gets: the omission marker ("[... 1234 chars omitted ...]")
 * and a few characters either side. No floor is below it (reasoning's is above), and the
 * oldest entry kept may be cut to it when its floor does not fit.
 */
export const MIN_BODY = 40;

/** The floors for a conversation part of `budget` characters (see BODY_FLOOR). */
export function bodyFloors(budget: number): Floors {
  const scale = Math.min(1, Math.max(0, budget) / FULL_FLOOR_BUDGET);
  const out = {} as Record<BodyClass, number>;
  for (const c of Object.keys(BODY_FLOOR) as BodyClass[]) {
    out[c] = Math.min(BODY_FLOOR[c], Math.max(MIN_BODY, Math.floor(BODY_FLOOR[c] * scale)));
  }
  return out;
}

/** Between two entries of the tail. */
export const ITEM_SEPARATOR = '\n\n';

export interface Item {
  seq: number;
  kind: EntryKind;
  cls: BodyClass;
  /** Cleaned, one line, bounded. */
  header: string;
  /** Uncleaned body; '' when the entry is its header. */
  raw: string;
}

/** Characters an item takes (with its separator) when its body is given `allot` characters. */
export function itemCost(it: Item, allot: number): number {
  const body = Math.min(it.raw.length, allot);
  return it.header.length + (body > 0 ? 1 + body : 0) + ITEM_SEPARATOR.length;
}

export const floorAllot = (it: Item, floors: Floors = BODY_FLOOR): number => Math.min(it.raw.length, floors[it.cls]);
export const floorCost = (it: Item, floors: Floors = BODY_FLOOR): number => itemCost(it, floors[it.cls]);
export const fullCost = (it: Item): number => itemCost(it, it.raw.length);
/** Body characters of an entry cut as far as it may ever be: MIN_BODY (or whole when shorter). */
export const minAllot = (it: Item): number => Math.min(it.raw.length, MIN_BODY);
export const minCost = (it: Item): number => itemCost(it, minAllot(it));

/** Renders an item with at most `allot` characters of body. */
export function renderItem(it: Item, allot: number): string {
  const body = it.raw ? fitText(it.raw, Math.min(allot, it.raw.length), clean) : '';
  return body ? `${it.header}\n${body}` : it.header;
}

/**
 * A stored field as text. The log of an older baton (or one written by hand) may hold any
 * value where a string belongs: a brief is still made, never thrown on.
 */
export function asText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '';
  if (typeof v === 'object') {
    try {
      return JSON.stringify(v) ?? '';
    } catch {
      return '[unreadable]';
    }
  }
  return String(v);
}

/** A cleaned single-line label of at most `max` characters. */
export function label(s: unknown, max = 80): string {
  const one = clean(asText(s)).replace(/\s+/g, ' ').trim();
  return one.length <= max ? one : `${one.slice(0, max - 3)}...`;
}

export type AgentLabel = (harness: string, model: string) => string;

/** "Claude Code (opus)": the display title of a harness when one is known, and its model. */
export function agentLabeler(titles: ReadonlyMap<string, string>): AgentLabel {
  return (harness, model) => {
    const name = label(titles.get(harness) ?? harness, 60);
    return model ? `${name} (${label(model, 60)})` : name;
  };
}

export function authorLabel(a: Author, agent: AgentLabel): string {
  if (a.type === 'user') return `${label(a.name, 60)} (user)`;
  if (a.type === 'agent') return agent(a.harness, a.model);
  return 'baton';
}

// Tool inputs: long strings are clipped where they are (so every key stays visible), and
// huge structures are cut, so stringifying one input costs what can be shown, not its size.
const INPUT_STRING_MAX = 2000;
const INPUT_LIST_MAX = 200;
const INPUT_DEPTH_MAX = 16;

function clipInput(v: unknown, depth: number): unknown {
  // Cleaned before JSON.stringify, which would turn a control sequence into `\u001b[1m`
  // text that no longer reads as one (and so no longer joins a key it splits).
  if (typeof v === 'string') return v.length > INPUT_STRING_MAX ? fitText(v, INPUT_STRING_MAX, clean) : clean(v);
  if (v === null || typeof v !== 'object') return v;
  if (depth >= INPUT_DEPTH_MAX) return '[...]';
  if (Array.isArray(v)) {
    const out: unknown[] = v.slice(0, INPUT_LIST_MAX).map((x) => clipInput(x, depth + 1));
    if (v.length > INPUT_LIST_MAX) out.push(`[... ${v.length - INPUT_LIST_MAX} more items]`);
    return out;
  }
  const keys = Object.keys(v);
  // No prototype: a "__proto__" key from JSON stays a plain field.
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const k of keys.slice(0, INPUT_LIST_MAX)) out[k] = clipInput((v as Record<string, unknown>)[k], depth + 1);
  if (keys.length > INPUT_LIST_MAX) out['[...]'] = `${keys.length - INPUT_LIST_MAX} more fields`;
  return out;
}

export function inputText(input: unknown): string {
  if (input === undefined) return '';
  if (typeof input === 'string') return input;
  try {
    return JSON.stringify(clipInput(input, 0)) ?? '';
  } catch {
    // Not JSON-shaped (a BigInt, a throwing getter): still say something, never fail a brief.
    return String(input);
  }
}

const cls = (kind: EntryKind): BodyClass => {
  switch (kind) {
    case 'user_message':
      return 'user';
    case 'agent_text':
      return 'agent';
    case 'reasoning':
      return 'reasoning';
    case 'tool_call':
      return 'tool_call';
    case 'tool_result':
      return 'tool_result';
    case 'notice':
    case 'error':
    case 'approval':
      return 'notice';
    default:
      return 'fixed';
  }
};

/** The item for a renderable entry. */
export function itemFor(e: Entry, agent: AgentLabel): Item {
  const tag = `[#${e.seq}]`;
  const who = authorLabel(e.author, agent);
  let header: string;
  let raw = '';
  switch (e.kind) {
    case 'user_message':
    case 'agent_text':
      header = `${tag} ${who}:`;
      raw = asText(e.text);
      break;
    case 'reasoning':
      header = `${tag} ${who}, thinking:`;
      raw = asText(e.text);
      break;
    case 'tool_call':
      header = `${tag} ${who} called ${label(e.toolName, 60)}:`;
      raw = inputText(e.input);
      break;
    case 'tool_result':
      header = `${tag} ${label(e.toolName, 60)} ${e.isError ? 'failed' : 'returned'}:`;
      raw = asText(e.output);
      break;
    case 'approval':
      header = `${tag} approval${e.toolCallId ? ` of ${label(e.toolCallId, 60)}` : ''}: ${label(e.decision, 60)}`;
      raw = asText(e.detail);
      break;
    case 'notice':
      header = `${tag} notice:`;
      raw = asText(e.text);
      break;
    case 'error':
      header = `${tag} error${e.code ? ` (${label(e.code, 40)})` : ''}:`;
      raw = asText(e.text);
      break;
    case 'handoff':
      header = e.from
        ? `${tag} --- switched from ${agent(e.from.harness, e.from.model)} to ${agent(e.to.harness, e.to.model)} ---`
        : `${tag} --- started with ${agent(e.to.harness, e.to.model)} ---`;
      break;
    case 'reset':
      header =
        e.undoes !== undefined
          ? `${tag} --- the reset at #${e.undoes} was undone ---`
          : `${tag} --- the user reset the conversation to #${e.toSeq}${e.restored ? ' and restored the files' : ''}; what came after it was withdrawn ---`;
      break;
    default:
      header = `${tag} ${e.kind}`;
  }
  return { seq: e.seq, kind: e.kind, cls: cls(e.kind), header, raw };
}
