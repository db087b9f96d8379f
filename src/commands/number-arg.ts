// Numbers given on the command line (a seq, seconds, days), read from the text typed:
// yargs's own 'number' type turns "abc" into NaN and "" into 0, so a refusal could only say
// "got NaN", and an empty `--to ""` was taken for entry 0 ("--to 0 is not an entry", exit 9).
// Options read here are declared `type: 'string'`; what was typed is quoted back.

import { badInput } from '../errors.js';

/** What was typed, quoted and cut short, for a message. */
const typed = (raw: string): string => JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}…` : raw);

/** `raw` as a number, NaN when it is not one (blank included: Number('') is 0). */
const numberOf = (raw: string): number => (raw.trim() === '' ? Number.NaN : Number(raw));

/** `raw` as a whole number, else bad input (exit 2): "`flag` must be a whole number (`what`), got "raw"". */
export function wholeNumberArg(raw: string, flag: string, what: string, hint?: string): number {
  const n = numberOf(raw);
  if (!Number.isSafeInteger(n)) throw badInput(`${flag} must be a whole number (${what}), got ${typed(raw)}`, hint);
  return n;
}

/** `raw` as a number above 0, else bad input (exit 2) quoting what was given. */
export function positiveNumberArg(raw: string, flag: string, what: string): number {
  const n = numberOf(raw);
  if (!(n > 0) || !Number.isFinite(n)) throw badInput(`${flag} must be a positive number of ${what}, got ${typed(raw)}`);
  return n;
}
