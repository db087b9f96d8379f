// Prints, as JSON, the briefHash of briefCase(seed) for each seed given on the command line
// ("null" when no brief is produced): the other process of the brief's cross-process
// determinism test, run with a different time zone and locale.
import { buildBrief } from '../../src/transcript/brief.js';
import { briefCase } from './brief-transcripts.js';

const out: Record<string, string | null> = {};
for (const arg of process.argv.slice(2)) {
  const seed = Number(arg);
  const { transcript, options } = briefCase(seed);
  out[seed] = buildBrief(transcript, options).hash;
}
process.stdout.write(JSON.stringify(out));
