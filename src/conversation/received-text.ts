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
  let text = '';
  const from: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!;
    if (/\s/.test(ch)) {
      if (text.endsWith(' ') || !text) continue;
      text += ' ';
    } else text += ch;
    from.push(i);
  }
  return { text, from };
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
