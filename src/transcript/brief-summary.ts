// The summary part of a brief: the previous agent's own summary of the conversation (a
// `summary` entry, asked for with --summary before a switch), shown in place of the oldest
// entries the conversation part had to leave out or shorten. Pure: it never reads a clock or the
// environment, and its text is cleaned (sanitized and redacted) like every piece of a brief.

import { fitText } from './abbreviate.js';
import { clean, label, type AgentLabel } from './brief-render.js';
import type { Entry } from './types.js';

/** The summary gets at most this share of the conversation part's room. */
const SUMMARY_SHARE = 3;
/** Below this many characters of its body, a summary says too little to stand in for anything. */
const MIN_SUMMARY_BODY = 60;

export type SummaryEntry = Extract<Entry, { kind: 'summary' }>;

export interface SummaryPart {
  text: string;
  /** The summary entry's seq, and how much of its text was shown. */
  plan: { seq: number; fromSeq: number; toSeq: number; allot: number; abbreviated: boolean };
}

/** The summary section for `entry` within `room` characters of the conversation part, or null when too little fits. */
export function summaryPart(entry: SummaryEntry, agent: AgentLabel, room: number): SummaryPart | null {
  const who = entry.author.type === 'agent' ? agent(entry.author.harness, entry.author.model) : 'baton';
  const heading = `Summary of #${entry.fromSeq}..#${entry.toSeq} by ${label(who, 130)} (#${entry.seq}, asked for before the switch), in place of the older entries left out below:`;
  const raw = entry.text.trim();
  const allot = Math.min(raw.length, Math.floor(room / SUMMARY_SHARE) - heading.length - 1);
  if (allot < Math.min(MIN_SUMMARY_BODY, raw.length) || allot <= 0) return null;
  const body = fitText(raw, allot, clean);
  return {
    text: `${heading}\n${body}`,
    plan: { seq: entry.seq, fromSeq: entry.fromSeq, toSeq: entry.toSeq, allot, abbreviated: allot < raw.length },
  };
}
