// JSON Lines as the agent CLIs write them, for drivers: a stdout line of a `--output-format
// stream-json` run that is a record (banners and warnings on the same stream are not), and
// a whole session log read for `baton transcript import`. Reads only; it never writes a
// log, and never throws on a line that is not JSON (the caller counts those).

import { createReadStream } from 'node:fs';

/** The JSON object on one stdout line, or undefined for a line that is none (a banner, a warning). */
export function jsonObjectLine(text: string): Record<string, unknown> | undefined {
  const t = text.trim();
  if (!t.startsWith('{')) return undefined;
  try {
    return JSON.parse(t) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * Every record of a JSONL file in order, streamed (a rollout may be tens of MB). Lines split on
 * "\n" only; blank lines are passed over; a line that does not parse goes to `onInvalid`.
 * The last line counts without its newline.
 */
export async function readJsonlFile(path: string, onRecord: (record: unknown) => void, onInvalid: () => void): Promise<void> {
  const take = (line: string) => {
    if (!line.trim()) return;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      onInvalid();
      return;
    }
    onRecord(record);
  };
  let pending = '';
  for await (const chunk of createReadStream(path, { encoding: 'utf8' })) {
    pending += chunk as string;
    let start = 0;
    for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n', start)) {
      take(pending.slice(start, nl));
      start = nl + 1;
    }
    pending = pending.slice(start);
  }
  take(pending);
}
