// PEM private-key blocks for redaction (redact.ts): where each block starts and ends.
// Parsed by hand rather than with one regex: a block may be cut (an abbreviated tool
// output shows only its start or its end), may sit inside a JSON string with escaped
// newlines, and a PEM parser's source code mentions the markers without any key material,
// which must never be taken for a key.

import type { Span } from './redact-rules.js';

const PEM_BEGIN = /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----/g;
const PEM_END = /-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g;
const PEM_END_AT = /-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/y;
const PEM_HEADER_AT = /[A-Za-z][A-Za-z-]*: [^\r\n\\]*/y;
const MIN_MATERIAL = 16;

function isB64(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47 || c === 61;
}

/** Length of a line break starting at i: \n, \r\n, or their JSON escapes. */
function breakAt(t: string, i: number): number {
  const c = t.charCodeAt(i);
  if (c === 10) return 1;
  if (c === 13 && t.charCodeAt(i + 1) === 10) return 2;
  if (c === 92) {
    const d = t.charCodeAt(i + 1);
    if (d === 110) return 2;
    if (d === 114 && t.charCodeAt(i + 2) === 92 && t.charCodeAt(i + 3) === 110) return 4;
  }
  return 0;
}

/** Length of a line break ending just before i. */
function breakBefore(t: string, i: number): number {
  if (t.charCodeAt(i - 1) === 10) return t.charCodeAt(i - 2) === 13 ? 2 : 1;
  if (t.charCodeAt(i - 1) === 110 && t.charCodeAt(i - 2) === 92) {
    return t.charCodeAt(i - 3) === 114 && t.charCodeAt(i - 4) === 92 ? 4 : 2;
  }
  return 0;
}

function pemBlockEnd(t: string, afterBegin: number): number {
  let p = afterBegin;
  const first = breakAt(t, p);
  if (!first) return -1;
  p += first;
  let material = 0;
  for (;;) {
    if (material === 0) {
      PEM_HEADER_AT.lastIndex = p;
      const h = PEM_HEADER_AT.exec(t);
      if (h) {
        const b = breakAt(t, p + h[0].length);
        if (!b) break;
        p += h[0].length + b;
        continue;
      }
    }
    const blank = breakAt(t, p);
    if (blank) {
      p += blank;
      continue;
    }
    let q = p;
    while (q < t.length && isB64(t.charCodeAt(q))) q++;
    if (q === p) break;
    material += q - p;
    p = q;
    const b = breakAt(t, p);
    if (!b) break;
    p += b;
  }
  if (material === 0) return -1;
  PEM_END_AT.lastIndex = p;
  const end = PEM_END_AT.exec(t);
  if (end) return p + end[0].length;
  // Cut before its END line: redact what is there, if it is clearly key material.
  if (material >= MIN_MATERIAL || p >= t.length) return p;
  return -1;
}

function orphanEndStart(t: string, endAt: number): number {
  let p = endAt - breakBefore(t, endAt);
  if (p === endAt) return -1;
  let material = 0;
  let first = -1;
  for (;;) {
    let q = p;
    while (q > 0 && isB64(t.charCodeAt(q - 1)) && !(t.charCodeAt(q - 1) === 110 && t.charCodeAt(q - 2) === 92)) q--;
    if (q === p) break;
    material += p - q;
    first = q;
    const b = breakBefore(t, q);
    if (!b) break;
    p = q - b;
  }
  if (first < 0) return -1;
  return material >= MIN_MATERIAL || first === 0 ? first : -1;
}

/** Where private-key blocks (whole or cut) stand in `text`, in order, not overlapping. */
export function privateKeySpans(text: string): Span[] {
  if (!text.includes('PRIVATE KEY')) return [];
  const spans: [number, number][] = [];
  let covered = 0;
  PEM_BEGIN.lastIndex = 0;
  for (let m = PEM_BEGIN.exec(text); m; m = PEM_BEGIN.exec(text)) {
    if (m.index < covered) continue;
    const end = pemBlockEnd(text, m.index + m[0].length);
    if (end < 0) continue;
    spans.push([m.index, end]);
    covered = end;
    PEM_BEGIN.lastIndex = end;
  }
  PEM_END.lastIndex = 0;
  for (let m = PEM_END.exec(text); m; m = PEM_END.exec(text)) {
    const at = m.index;
    if (spans.some(([s, e]) => at >= s && at < e)) continue;
    const start = orphanEndStart(text, at);
    if (start < 0) continue;
    // The run walked back may not cross a block already found.
    if (spans.some(([s, e]) => start < e && s < at)) continue;
    spans.push([start, at + m[0].length]);
  }
  spans.sort((a, b) => a[0] - b[0]);
  return spans.map(([start, end]) => ({ start, end, kind: 'private-key' }));
}
