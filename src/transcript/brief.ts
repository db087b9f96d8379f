// The handoff brief: the plain-text context a harness receives when it takes over (or
// returns to) a conversation, and the text the "handed-over context" card regenerates.
// Pure and deterministic: the same transcript slice and options give byte-identical text in
// any process, so a card can be rebuilt instead of stored and checked with briefHash. It
// walks back from the newest entry and stops when the budget is spent, so its cost grows
// with the budget, not with the transcript (one cheap pass counts the range: brief-scan.ts). It must never
// read a clock, the environment, git or the disk, never exceed its budget, and never emit
// text that was not sanitized and redacted.

import { createHash } from 'node:crypto';
import { type Hidden, isRenderable, lastIndexAtOrBelow } from './brief-index.js';
import { agentLabeler, authorLabel, itemFor, type AgentLabel, type Item } from './brief-render.js';
import { activitySection, footerSection, frameOnce, headerSection, planSection, titleSection } from './brief-sections.js';
import { summaryPart, type SummaryPart } from './brief-summary.js';
import { buildTail, type ItemSource, type TailPlan } from './brief-tail.js';
import type { GitFacts } from './git-facts-types.js';
import { scan, type Scan } from './brief-scan.js';
import type { Transcript } from './transcript.js';
import type { AgentRef, Entry } from './types.js';

/** Below this budget no brief is produced rather than an empty frame. */
export const MIN_BRIEF_CHARS = 800;
/** The conversation part must get at least this much room, or there is no brief. */
const MIN_CONTENT_CHARS = 250;
/** Below this much room the previous agent's log path is left out of the footer. */
const LOG_PATH_ROOM = 800;
/** Room the conversation part gets before the plan and activity sections take a share. */
const TAIL_FIRST_CHARS = 600;
const SEPARATOR = '\n\n';
const PLAN_SHARE_MAX = 4000;
const ACTIVITY_SHARE_MAX = 12000;

export interface BriefAgent extends AgentRef {
  /** Display title, e.g. "Claude Code". */
  title?: string;
}

export interface BriefOptions {
  /** Defaults to the transcript's id; required when entries are given. */
  conversationId?: string;
  title?: string;
  /** The agent that receives the brief. */
  target: BriefAgent;
  /** The agent that ran the last segment; by default read from the slice's last handoff. */
  previous?: BriefAgent | null;
  /** Display titles by harness name, for every agent the brief mentions. */
  agentTitles?: Readonly<Record<string, string>>;
  /** 'fresh': a replay of the whole slice; 'returning': only the entries after sinceSeq. */
  mode: 'fresh' | 'returning';
  /** The returning agent's native cursor (its deliveredSeq). Required for 'returning'. */
  sinceSeq?: number;
  /** Last seq the brief covers (forks, cards); default: the newest entry. */
  uptoSeq?: number;
  git?: GitFacts;
  /** Path of the previous agent's own session log, when it is still on disk. */
  previousAgentLog?: string;
  /** Character budget (see settings.ts); the text never exceeds it. */
  maxChars: number;
}

export interface Brief {
  /** null: no brief (see `reason`); send the user's message alone. */
  text: string | null;
  reason?: 'budget' | 'empty';
  chars: number;
  /** briefHash(text), for the handoff entry. */
  hash: string | null;
  budget: number;
  mode: 'fresh' | 'returning';
  /** Last seq of the slice the brief was built from (0 for an empty transcript). */
  uptoSeq: number;
  /** Oldest and newest seq the text shows (the pinned instruction counts). */
  firstIncludedSeq: number | null;
  lastIncludedSeq: number | null;
  previous: AgentRef | null;
  counts: { entries: number; userTurns: number; toolCalls: number };
  /** How the conversation part was fitted (null when there is no brief). */
  tail: TailPlan | null;
  /** The previous agent's summary shown in place of left-out entries (absent when none was). */
  summary?: SummaryPart['plan'];
}

/** sha256 of a brief's text, hex: marks a regenerated card as matching what was sent. */
export function briefHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Renderable, visible entries of [lo..hi] as items, newest first, made only when asked for. */
class BackwardItems implements ItemSource {
  private readonly list: Item[] = [];
  private i: number;
  constructor(
    private readonly entries: readonly Entry[],
    private readonly lo: number,
    hi: number,
    private readonly hidden: Hidden,
    private readonly make: (e: Entry) => Item,
  ) {
    this.i = hi;
  }
  at(k: number): Item | undefined {
    while (this.list.length <= k && this.i >= this.lo) {
      const r = this.hidden.rangeOf(this.i);
      if (r) {
        this.i = r[0] - 1;
        continue;
      }
      const e = this.entries[this.i--]!;
      if (isRenderable(e)) this.list.push(this.make(e));
    }
    return this.list[k];
  }
}

export function buildBrief(source: Transcript | readonly Entry[], opts: BriefOptions): Brief {
  const { entries, conversationId, lo, hi } = sliceOf(source, opts);
  const maxChars = Math.floor(opts.maxChars);
  const s = scan(entries, lo, hi);
  const given = opts.previous;
  const previous = given === undefined ? s.previous : given && { harness: given.harness, model: given.model };
  const none = (reason: 'budget' | 'empty', tail: TailPlan | null = null): Brief => ({
    text: null,
    reason,
    chars: 0,
    hash: null,
    budget: maxChars,
    mode: opts.mode,
    uptoSeq: hi >= 0 ? entries[hi]!.seq : 0,
    firstIncludedSeq: null,
    lastIncludedSeq: null,
    previous,
    counts: { entries: s.counts.shown, userTurns: s.counts.users, toolCalls: s.counts.calls },
    tail,
  });
  if (s.counts.shown === 0) return none('empty');
  if (!(maxChars >= MIN_BRIEF_CHARS)) return none('budget');

  const agent = agentLabeler(agentTitles(opts));
  const previousLabel = previous ? agent(previous.harness, previous.model) : null;
  const { header, footer, room } = frame(opts, s, conversationId, agent(opts.target.harness, opts.target.model), previousLabel, maxChars);
  if (room < MIN_CONTENT_CHARS) return none('budget');
  const middle = new MiddleSections(room, {
    title: (max) => titleSection(opts.title, max),
    plan: (max) => (s.plan && previousLabel !== null ? planSection(s.plan, previousLabel, max) : ''),
    activity: (max) => activitySection(s.activity, { firstSeq: s.firstSeq, lastSeq: s.lastSeq }, opts.git, max),
  });
  const { tail, summary } = withSummary(entries, lo, hi, s, agent, opts, middle.room - SEPARATOR.length);
  if (!tail.plan.items.length && !tail.plan.pinned) return none('budget', tail.plan);
  middle.regrow(middle.room - SEPARATOR.length - tail.text.length - (summary ? summary.text.length + SEPARATOR.length : 0));

  // Every piece was cleaned (sanitized and redacted) as it was made. One pass over the whole
  // neutralises the frame's words between its first and last line (frameOnce): pieces are
  // joined into lines (a plan item's status in brackets), and it changes no length.
  const text = frameOnce([header, middle.title, middle.plan, summary?.text ?? '', tail.text, middle.activity, footer].filter((x) => x !== '').join(SEPARATOR));
  if (text.length > maxChars) throw new Error(`buildBrief: ${text.length} chars exceed the budget ${maxChars} (a bug)`);
  const kept = tail.plan.items;
  const pinnedSeq = tail.plan.pinned?.seq;
  return {
    text,
    chars: text.length,
    hash: briefHash(text),
    budget: maxChars,
    mode: opts.mode,
    uptoSeq: entries[hi]!.seq,
    firstIncludedSeq: pinnedSeq ?? kept[0]!.seq,
    lastIncludedSeq: kept.length ? kept[kept.length - 1]!.seq : pinnedSeq!,
    previous,
    counts: { entries: s.counts.shown, userTurns: s.counts.users, toolCalls: s.counts.calls },
    tail: tail.plan,
    ...(summary ? { summary: summary.plan } : {}),
  };
}

/**
 * The conversation part within `budget`, and the previous agent's summary before it when the
 * range holds one and the part had to leave entries out or shorten them: the summary then
 * takes its share of the room from the part (the oldest entries go first, then bodies are
 * shortened further). Without a summary, or with everything shown whole, the part is exactly
 * what it would be without the summary feature.
 */
function withSummary(
  entries: readonly Entry[],
  lo: number,
  hi: number,
  s: Scan,
  agent: AgentLabel,
  opts: BriefOptions,
  budget: number,
): { tail: { text: string; plan: TailPlan }; summary: SummaryPart | null } {
  const full = conversationPart(entries, lo, hi, s, agent, opts, budget);
  if (!s.summary || !(full.plan.omitted || full.plan.items.some((i) => i.abbreviated))) return { tail: full, summary: null };
  const summary = summaryPart(s.summary, agent, budget);
  if (!summary) return { tail: full, summary: null };
  const tail = conversationPart(entries, lo, hi, s, agent, opts, budget - summary.text.length - SEPARATOR.length);
  if (!tail.plan.items.length && !tail.plan.pinned) return { tail: full, summary: null };
  return { tail, summary };
}

/** The slice a brief covers (entries lo..hi of one conversation), once the options are checked to name it. */
function sliceOf(source: Transcript | readonly Entry[], opts: BriefOptions): { entries: readonly Entry[]; conversationId: string; lo: number; hi: number } {
  const entries: readonly Entry[] = Array.isArray(source) ? source : (source as Transcript).entries;
  const conversationId = opts.conversationId ?? (Array.isArray(source) ? undefined : (source as Transcript).id);
  if (conversationId === undefined) throw new Error('buildBrief: conversationId is required when entries are given');
  if (opts.mode === 'returning' && typeof opts.sinceSeq !== 'number') throw new Error("buildBrief: 'returning' needs sinceSeq");
  const hi = opts.uptoSeq === undefined ? entries.length - 1 : lastIndexAtOrBelow(entries, opts.uptoSeq);
  const lo = opts.mode === 'returning' ? lastIndexAtOrBelow(entries, opts.sinceSeq!) + 1 : 0;
  return { entries, conversationId, lo, hi };
}

/** Display titles by harness: the given table in name order, then the two agents' own titles, which win. */
function agentTitles(opts: BriefOptions): Map<string, string> {
  const titles = new Map<string, string>();
  for (const k of Object.keys(opts.agentTitles ?? {}).sort()) titles.set(k, opts.agentTitles![k]!);
  if (opts.previous?.title) titles.set(opts.previous.harness, opts.previous.title);
  if (opts.target.title) titles.set(opts.target.harness, opts.target.title);
  return titles;
}

/**
 * The header and footer every brief has, and the room they leave for the rest. The previous
 * agent's log path is left out of the footer when keeping it would leave too little room.
 */
function frame(
  opts: BriefOptions,
  s: Scan,
  conversationId: string,
  target: string,
  previous: string | null,
  maxChars: number,
): { header: string; footer: string; room: number } {
  const header = headerSection({
    conversationId,
    target,
    previous,
    mode: opts.mode,
    sinceSeq: opts.sinceSeq,
    firstSeq: s.firstSeq,
    lastSeq: s.lastSeq,
    entries: s.counts.shown,
    userTurns: s.counts.users,
    toolCalls: s.counts.calls,
  });
  const roomWith = (footer: string) => maxChars - header.length - footer.length - SEPARATOR.length;
  let footer = footerSection(conversationId, previous, opts.previousAgentLog);
  if (roomWith(footer) < LOG_PATH_ROOM && opts.previousAgentLog) footer = footerSection(conversationId, previous, undefined);
  return { header, footer, room: roomWith(footer) };
}

type SectionMaker = (max: number) => string;

/**
 * The sections between the header and the conversation part: the title, the previous agent's
 * open plan and the activity summary. Each costs its length plus the separator before it.
 * They are first cut to a share of the room (plan and activity only of the room beyond what a
 * short conversation part needs first); room the conversation part then leaves unused goes
 * back to them (within their caps), so that a brief whose material exceeds the budget uses it.
 */
class MiddleSections {
  title: string;
  plan: string;
  activity: string;
  /** Room left for the conversation part. */
  room: number;
  constructor(
    room: number,
    private readonly make: { title: SectionMaker; plan: SectionMaker; activity: SectionMaker },
  ) {
    this.room = room;
    const spare = Math.max(0, room - TAIL_FIRST_CHARS);
    this.title = this.take(make.title(room - SEPARATOR.length - MIN_CONTENT_CHARS));
    this.plan = this.take(make.plan(Math.min(Math.floor(spare / 5), PLAN_SHARE_MAX) - SEPARATOR.length));
    this.activity = this.take(make.activity(Math.min(Math.floor(spare / 4), ACTIVITY_SHARE_MAX) - SEPARATOR.length));
  }

  private take(text: string): string {
    if (text) this.room -= text.length + SEPARATOR.length;
    return text;
  }

  /** Gives `unused` chars, which the conversation part did not need, back to the sections in order. */
  regrow(unused: number): void {
    const regrow = (old: string, make: SectionMaker, cap: number): string => {
      if (unused <= 0) return old;
      const max = Math.min(cap, old ? old.length + unused : unused - SEPARATOR.length);
      if (max <= old.length) return old;
      const grown = make(max);
      if (grown.length <= old.length) return old;
      unused -= grown.length - old.length + (old ? 0 : SEPARATOR.length);
      return grown;
    };
    this.title = regrow(this.title, this.make.title, Infinity);
    this.plan = regrow(this.plan, this.make.plan, PLAN_SHARE_MAX - SEPARATOR.length);
    this.activity = regrow(this.activity, this.make.activity, ACTIVITY_SHARE_MAX - SEPARATOR.length);
  }
}

/** The conversation part: the newest entries of the slice that fit `budget`, oldest first. */
function conversationPart(
  entries: readonly Entry[],
  lo: number,
  hi: number,
  s: Scan,
  agent: AgentLabel,
  opts: BriefOptions,
  budget: number,
): { text: string; plan: TailPlan } {
  const lastUser = s.lastUser;
  return buildTail({
    source: new BackwardItems(entries, lo, hi, s.hidden, (e) => itemFor(e, agent)),
    total: s.counts.shown,
    firstSeq: s.firstSeq,
    lastUser: lastUser && itemFor(lastUser, agent),
    lastUserAuthor: lastUser?.author.type === 'user' ? lastUser.author.name : lastUser ? authorLabel(lastUser.author, agent) : '',
    heading: opts.mode === 'returning' ? `Since #${opts.sinceSeq}, oldest first:` : 'Conversation, oldest first:',
    budget,
  });
}
