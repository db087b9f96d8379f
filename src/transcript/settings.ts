// The brief's character budget: BATON_BRIEF_MAX_CHARS (and `baton brief --max-chars N`),
// parsed and clamped here so every caller agrees on it. It reads only the environment it
// is given and never prints: an out-of-range value comes back with a warning for the
// caller to show, a value that is not a number is a BatonError (exit 2).

import { badInput } from '../errors.js';

export const BRIEF_MAX_CHARS_ENV = 'BATON_BRIEF_MAX_CHARS';
export const BRIEF_MAX_CHARS_DEFAULT = 120_000;
export const BRIEF_MAX_CHARS_MIN = 1024;
export const BRIEF_MAX_CHARS_MAX = 200_000;

export interface BriefBudget {
  maxChars: number;
  /** Set when the value given was clamped into range. */
  warning?: string;
}

/**
 * Parses a budget given as text (an environment variable, a flag) or a number. Unset or
 * empty means the default; whole numbers outside 1024..200000 are clamped with a warning.
 * `source` names where the value came from, for the messages.
 */
export function parseBriefMaxChars(raw: string | number | undefined, source: string = BRIEF_MAX_CHARS_ENV): BriefBudget {
  if (raw === undefined || (typeof raw === 'string' && raw.trim() === '')) return { maxChars: BRIEF_MAX_CHARS_DEFAULT };
  const text = String(raw).trim();
  if (!/^[+-]?\d+$/.test(text) || (typeof raw === 'number' && !Number.isInteger(raw))) {
    throw badInput(
      `${source} must be a whole number of characters, got '${text.slice(0, 40)}'`,
      `Set it between ${BRIEF_MAX_CHARS_MIN} and ${BRIEF_MAX_CHARS_MAX}, or leave it unset for the default ${BRIEF_MAX_CHARS_DEFAULT}.`,
    );
  }
  const n = Number(text);
  if (n < BRIEF_MAX_CHARS_MIN) {
    return { maxChars: BRIEF_MAX_CHARS_MIN, warning: `${source}=${text} is below the minimum ${BRIEF_MAX_CHARS_MIN}; using ${BRIEF_MAX_CHARS_MIN}.` };
  }
  if (n > BRIEF_MAX_CHARS_MAX) {
    return { maxChars: BRIEF_MAX_CHARS_MAX, warning: `${source}=${text} is above the maximum ${BRIEF_MAX_CHARS_MAX}; using ${BRIEF_MAX_CHARS_MAX}.` };
  }
  return { maxChars: n };
}

/** The budget configured in `env` (BATON_BRIEF_MAX_CHARS), clamped, with any warning. */
export function briefMaxCharsFromEnv(env: NodeJS.ProcessEnv = process.env): BriefBudget {
  return parseBriefMaxChars(env[BRIEF_MAX_CHARS_ENV], BRIEF_MAX_CHARS_ENV);
}
