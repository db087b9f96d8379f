// The ingest of a run whose own session cannot be named: it follows nothing, emits nothing,
// and says why once through `onUnbound`. Built-in drivers return it when baton gives them
// neither the session id the launch fixed nor a process to find it by, rather than fall back
// to "the first log that appeared" (which is another tab's as often as not).

import type { IngestOptions, Ingestor } from './api.js';

export function unboundIngest(opts: IngestOptions, reason: string): Ingestor {
  opts.onUnbound?.(reason);
  return { agentSession: undefined, skipped: 0, dispose: async () => {} };
}
