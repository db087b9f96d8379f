// A line diff for the edit cards of baton's ACP view: the longest common subsequence of the
// two texts' lines, shown as removed (-), added (+) and a few unchanged lines of context
// around each change, the rest elided with an @ line. Files too large for the quadratic
// table (more than MAX_CELLS line pairs after the common head and tail are cut) are shown
// as all removed then all added, which is still true, only less precise. Pure.

export interface DiffOp {
  t: '+' | '-' | ' ' | '@';
  text: string;
}

const MAX_CELLS = 250_000;
const CONTEXT = 2;

function split(text: string): string[] {
  if (text === '') return [];
  return text.replace(/\n$/, '').split('\n');
}

/** The changes from `a` to `b`, with CONTEXT unchanged lines around each. */
export function lineDiff(oldText: string, newText: string): DiffOp[] {
  const a = split(oldText);
  const b = split(newText);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const am = a.slice(head, a.length - tail);
  const bm = b.slice(head, b.length - tail);
  const middle =
    am.length * bm.length > MAX_CELLS ? [...am.map((text) => ({ t: '-' as const, text })), ...bm.map((text) => ({ t: '+' as const, text }))] : lcs(am, bm);
  const all: DiffOp[] = [
    ...a.slice(0, head).map((text) => ({ t: ' ' as const, text })),
    ...middle,
    ...a.slice(a.length - tail).map((text) => ({ t: ' ' as const, text })),
  ];
  return withContext(all);
}

function lcs(a: string[], b: string[]): DiffOp[] {
  const n = a.length;
  const m = b.length;
  const len = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      len[i * (m + 1) + j] = a[i] === b[j] ? len[(i + 1) * (m + 1) + j + 1]! + 1 : Math.max(len[(i + 1) * (m + 1) + j]!, len[i * (m + 1) + j + 1]!);
  const out: DiffOp[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ t: ' ', text: a[i]! });
      i++;
      j++;
    } else if (len[(i + 1) * (m + 1) + j]! >= len[i * (m + 1) + j + 1]!) out.push({ t: '-', text: a[i++]! });
    else out.push({ t: '+', text: b[j++]! });
  }
  while (i < n) out.push({ t: '-', text: a[i++]! });
  while (j < m) out.push({ t: '+', text: b[j++]! });
  return out;
}

function withContext(ops: DiffOp[]): DiffOp[] {
  const keep = new Uint8Array(ops.length);
  ops.forEach((op, i) => {
    if (op.t === ' ') return;
    for (let k = Math.max(0, i - CONTEXT); k <= Math.min(ops.length - 1, i + CONTEXT); k++) keep[k] = 1;
  });
  const out: DiffOp[] = [];
  let skipped = 0;
  ops.forEach((op, i) => {
    if (keep[i]) {
      if (skipped) out.push({ t: '@', text: `… ${skipped} unchanged line${skipped === 1 ? '' : 's'}` });
      skipped = 0;
      out.push(op);
    } else skipped++;
  });
  if (skipped && out.length) out.push({ t: '@', text: `… ${skipped} unchanged line${skipped === 1 ? '' : 's'}` });
  return out;
}
