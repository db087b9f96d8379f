// What the CLI actually received when its log shows more than baton typed: a user's draft left
// in the CLI's own input box is joined to baton's paste (before it, or after it when the cursor
// was not at the end), and the CLI takes the whole as one message. The transcript must record
// that whole, not only baton's part. Pure: the log's text, what baton pasted and the message it
// was for go in; the text to record comes out.
// Only text outside what baton pasted counts as the user's: a brief pasted before the message is
// baton's own (recorded as the handoff, not as the message), and differences of whitespace
// alone (a CLI trims, joins or wraps lines) are the CLI's normalisation, not a draft.

/** `raw` with each run of whitespace as one space, and where each kept character came from. */
function squeezed(raw: string): { text: string; from: number[] } {
  // Runs of non-space found by one regex, joined once at the end: text.endsWith() on a string
  // built by += at every character flattened it each time, and a 272 KB message held the event
  // loop (the server's: every tab, every client) 22 s once its CLI's log showed it.
  const pieces: string[] = [];
  const from: number[] = [];
  let end = -1;
  for (const m of raw.matchAll(/\S+/g)) {
    const at = m.index;
    // The whitespace before it, as one space (none before the first).
    if (pieces.length && at > end) {
      pieces.push(' ');
      from.push(end);
    }
    pieces.push(m[0]);
    for (let i = 0; i < m[0].length; i++) from.push(at + i);
    end = at + m[0].length;
  }
  if (pieces.length && end < raw.length) {
    pieces.push(' ');
    from.push(end);
  }
  return { text: pieces.join(''), from };
}

/** Where `part` sits in `raw` (whitespace runs count as one space), as raw offsets; the last occurrence. */
function locate(raw: string, part: string): { start: number; end: number } | undefined {
  const hay = squeezed(raw);
  const needle = squeezed(part).text.trim();
  if (!needle) return undefined;
  const at = hay.text.lastIndexOf(needle);
  if (at < 0) return undefined;
  const last = hay.from[at + needle.length - 1]!;
  return { start: hay.from[at]!, end: last + 1 };
}

/**
 * The message as the CLI received it. `logged`: the user message its log shows; `pasted`: what
 * baton typed (the brief and the message, or the message alone); `message`: what the user sent
 * from the compose bar. The message itself when the log shows nothing more than the paste
 * (whatever its whitespace); else the text around the paste in the log, joined to the message
 * exactly as the log has it (the draft before, after, or both). When the paste cannot be found
 * whole in the log (a CLI that shortened a long one), only text after the message is taken: what
 * is before it may be the brief, shown another way.
 */
export function receivedText(logged: string, pasted: string, message: string): string {
  const paste = locate(logged, pasted);
  const whole = paste ?? (pasted === message ? undefined : locate(logged, message));
  if (!whole) return message;
  const before = paste ? logged.slice(0, whole.start) : '';
  const after = logged.slice(whole.end);
  if (!before.trim() && !after.trim()) return message;
  return `${before.trim() ? before.trimStart() : ''}${message}${after.trim() ? after.trimEnd() : ''}`;
}
