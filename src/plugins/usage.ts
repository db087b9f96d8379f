// Token usage arithmetic for the drivers' log parsers, which add up a turn's usage from
// its messages. Pure.

import type { Usage } from './api.js';

/** a + b, key by key; a count neither side has stays absent. Undefined only when both are. */
export function addUsage(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
  if (!b) return a;
  if (!a) return { ...b };
  const out: Usage = {};
  for (const k of ['inputTokens', 'outputTokens', 'cachedInputTokens', 'reasoningTokens'] as const) {
    if (a[k] !== undefined || b[k] !== undefined) out[k] = (a[k] ?? 0) + (b[k] ?? 0);
  }
  return out;
}
