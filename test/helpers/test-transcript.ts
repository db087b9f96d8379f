// A Transcript for the transcript and brief unit tests: ana@laptop as the user and a clock
// that starts at 2026-01-01 and moves one second per reading, so every run of a test
// builds the same entries with the same times. Pure: no disk, no process.
import { Transcript, type TranscriptOptions } from '../../src/transcript/transcript.js';

/** A fixed clock: 2026-01-01T00:00:01Z at its first reading, one second later at each next. */
export function testClock(): () => Date {
  let t = Date.UTC(2026, 0, 1);
  return () => new Date((t += 1000));
}

/** The user every test transcript is written by. */
export const ANA = { type: 'user' as const, name: 'ana', device: 'laptop' };

/** A new transcript `id` on its own fixed clock, written by ana. */
export const testTranscript = (id = 'c1', sink?: TranscriptOptions['sink']): Transcript => new Transcript({ id, now: testClock(), user: ANA, sink });
