// How many lines of scrollback a pane keeps: BATON_SCROLLBACK (0..1,000,000), default 10k.
// Its own module because the client checks the setting before attaching to a server, and
// must not load the emulator to do it.

import { badInput } from '../errors.js';

/** Lines kept above the screen by default; memory scales with it. */
export const DEFAULT_SCROLLBACK = 10_000;

/** Scrollback per pane: BATON_SCROLLBACK lines (0..1,000,000), default 10k. */
export function scrollbackFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env.BATON_SCROLLBACK;
  if (raw === undefined || raw === '') return DEFAULT_SCROLLBACK;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 1_000_000) {
    throw badInput(`BATON_SCROLLBACK=${raw} is not a line count`, 'Use a whole number from 0 to 1000000 (default 10000).');
  }
  return n;
}
