// Head+tail abbreviation of long bodies for the brief and other bounded views:
// "first part\n[... N chars omitted ...]\nlast part". The result never exceeds the length
// asked for, never splits a surrogate pair, and prefers to cut at line ends. `fitText`
// cleans (sanitizes and redacts) only the parts it can show, plus a margin, so the cost of
// showing a 50 MB tool output is bounded by what is shown, and a credential can never be
// cut in half at the edge of what is shown (which would leave its tail unrecognizable).

/** How far past the shown part a body is cleaned, and how far a cut may move to a line end. */
export const CLEAN_MARGIN = 512;

export function omissionMarker(omitted: number): string {
  return `[... ${omitted} chars omitted ...]`;
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/**
 * Joins the first part of `head` and the last part of `tail` around an omission marker,
 * in at most `max` characters. `head` is a prefix and `tail` a suffix of a body `total`
 * characters long (they are the same string when the body is at hand).
 */
function joinHeadTail(head: string, tail: string, total: number, max: number): string {
  const markerRoom = omissionMarker(total).length + 2;
  const avail = max - markerRoom;
  if (avail < 2) {
    const marker = omissionMarker(total);
    return marker.length <= max ? marker : '';
  }
  let h = Math.ceil(avail / 2);
  let t = avail - h;
  if (h > head.length) {
    t += h - head.length;
    h = head.length;
  }
  if (t > tail.length) {
    h = Math.min(head.length, h + t - tail.length);
    t = tail.length;
  }
  // Prefer whole lines when a line end is near the cut.
  const nl = head.lastIndexOf('\n', h - 1);
  if (nl >= 0 && nl >= h * 0.75) h = nl;
  if (h > 0 && isHigh(head.charCodeAt(h - 1))) h--;
  let start = tail.length - t;
  const nl2 = tail.indexOf('\n', start);
  if (nl2 >= 0 && nl2 - start <= t * 0.25) start = nl2 + 1;
  if (start < tail.length && isLow(tail.charCodeAt(start))) start++;
  const shownHead = head.slice(0, h);
  const shownTail = tail.slice(start);
  const marker = omissionMarker(Math.max(0, total - shownHead.length - shownTail.length));
  return [shownHead, marker, shownTail].filter((s) => s !== '').join('\n');
}

/** `text` if it fits in `max` characters, else its head and tail around an omission marker. */
export function abbreviate(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  return joinHeadTail(text, text, text.length, max);
}

/** Where a head slice ending near `i` should end: at a line end (or a space) within the margin. */
function cutForward(raw: string, i: number): number {
  const nl = raw.indexOf('\n', i);
  if (nl >= 0 && nl - i <= CLEAN_MARGIN) return nl;
  for (let j = i; j < raw.length && j - i <= CLEAN_MARGIN; j++) if (raw.charCodeAt(j) <= 32) return j;
  return i;
}

/** Where a tail slice starting near `i` should start: after a line end (or a space) within the margin. */
function cutBackward(raw: string, i: number): number {
  const nl = raw.lastIndexOf('\n', i);
  if (nl >= 0 && i - nl <= CLEAN_MARGIN) return nl + 1;
  for (let j = i; j > 0 && i - j <= CLEAN_MARGIN; j--) if (raw.charCodeAt(j - 1) <= 32) return j;
  return i;
}

/**
 * `raw` cleaned and fitted into `max` characters. `clean` must never lengthen a text
 * (sanitize and redact do not), so a body that fits raw also fits cleaned. A long body is
 * cleaned only around the parts that can be shown.
 */
export function fitText(raw: string, max: number, clean: (s: string) => string): string {
  if (max <= 0) return '';
  if (raw.length <= max) return clean(raw);
  const span = max + CLEAN_MARGIN;
  if (raw.length <= 2 * span + CLEAN_MARGIN) return abbreviate(clean(raw), max);
  const head = clean(raw.slice(0, cutForward(raw, span)));
  const tail = clean(raw.slice(cutBackward(raw, raw.length - span)));
  return joinHeadTail(head, tail, raw.length, max);
}
