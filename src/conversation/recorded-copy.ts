// Whether the text in a CLI's own input box is a copy of a message the conversation already
// recorded, not a draft of the user's. After Esc interrupts a turn, Claude Code 2.1 puts the
// interrupted message (already in its log, so recorded) back in its box; Codex, Gemini CLI,
// Qwen Code and opencode leave the box empty (seen by hand against the fake LLM); Up recalls an
// earlier message in all five. Stopping the CLI loses nothing then, so a switch, a restart or
// a reset need not wait for it; a draft would be lost, so they do. Pure.

import type { Entry } from '../transcript/types.js';

/** Text as a screen shows it, whatever the wrapping: no whitespace, no box-drawing borders. */
const squash = (s: string) => s.replace(/[\s\u2500-\u257f]+/g, '');

/** Below this many characters a part of a message is not taken for it: a short draft may begin or end as one does. */
const PART_MIN = 24;

/**
 * Whether `box` (the input box's text) is one of `messages` (recorded user messages, newest
 * first): the same text whatever the wrapping and spacing, or, for a box showing part of a long
 * message (its first or last lines), that part when it is at least PART_MIN characters long.
 */
export function isRecordedCopy(box: string, messages: Iterable<string>): boolean {
  const shown = squash(box);
  if (!shown) return false;
  for (const m of messages) {
    const whole = squash(m);
    if (whole === shown) return true;
    if (shown.length >= PART_MIN && (whole.startsWith(shown) || whole.endsWith(shown))) return true;
  }
  return false;
}

/** How many of the newest recorded user messages the box's text is compared with. */
const RECALLED_MAX = 20;

/** The newest user messages of `entries` (hidden by a reset or not: recorded all the same), newest first. */
function* newestUserMessages(entries: readonly Entry[]): Generator<string> {
  let n = 0;
  for (let i = entries.length - 1; i >= 0 && n < RECALLED_MAX; i--) {
    const e = entries[i]!;
    if (e.kind !== 'user_message') continue;
    n++;
    yield e.text;
  }
}

/**
 * `box` when it is the user's own draft: not when it is a copy of one of the newest user
 * messages `entries` record, nor of `leftover` (baton's own message given up on while it showed
 * in the box, whose copy is back in the compose bar).
 */
export function userDraftIn(box: string | undefined, entries: readonly Entry[], leftover: string | undefined): string | undefined {
  if (!box) return undefined;
  if (leftover !== undefined && isRecordedCopy(box, [leftover])) return undefined;
  return isRecordedCopy(box, newestUserMessages(entries)) ? undefined : box;
}
