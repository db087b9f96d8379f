// The older part of a pane's history, sealed in compressed blocks: a run of BLOCK_LINES
// compacted lines (history-line.ts ArchivedLine: text, or runs with their attributes) as one
// deflated JSON array. A compacted line still costs a string of its own (~110 bytes for an
// 85-column line in two colours: 80k lines were 9 MB of the server's heap); program output
// repeats itself, so a block of it deflates 4x (`git log -p`) to 30x (numbered log lines).
// Reading a line inflates its block whole, and the few blocks read last stay decoded, so a
// screenful, a scroll or a search costs one inflate per block. Exact: JSON keeps every string
// (NULs, lone surrogates) and attribute number as it was.

import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { ArchivedLine } from './history-line.js';

/** Lines a block holds: big enough to deflate well, small enough to inflate in well under a millisecond. */
export const BLOCK_LINES = 256;
/** The fastest level: sealing runs while the pane is quiet, and level 6 saved only a few percent more. */
const LEVEL = 1;
/** Decoded blocks kept (one screenful spans two; scroll mode and painting may read two panes). */
const DECODED_KEPT = 4;

export class SealedBlock {
  private constructor(
    /** Number of its first line (History numbers lines from the first ever kept). */
    readonly first: number,
    readonly lines: number,
    private readonly packed: Uint8Array,
  ) {}

  static seal(first: number, lines: readonly ArchivedLine[]): SealedBlock {
    // Copied to memory of its own size: zlib's result is a view of its 16 KB output chunk,
    // which kept 16 KB alive for each block of a few hundred bytes.
    return new SealedBlock(first, lines.length, new Uint8Array(deflateRawSync(JSON.stringify(lines), { level: LEVEL })));
  }

  /** Compressed bytes held. */
  get bytes(): number {
    return this.packed.length;
  }

  /** Line `n` (first <= n < first + lines), as it was sealed. */
  line(n: number): ArchivedLine {
    return this.decoded()[n - this.first]!;
  }

  private decoded(): ArchivedLine[] {
    const at = decodedBlocks.indexOf(this);
    if (at >= 0) {
      const lines = decodedLines[at]!;
      if (at > 0) {
        decodedBlocks.splice(at, 1);
        decodedLines.splice(at, 1);
        decodedBlocks.unshift(this);
        decodedLines.unshift(lines);
      }
      return lines;
    }
    const lines = JSON.parse(inflateRawSync(this.packed).toString('utf8')) as ArchivedLine[];
    decodedBlocks.unshift(this);
    decodedLines.unshift(lines);
    if (decodedBlocks.length > DECODED_KEPT) {
      decodedBlocks.pop();
      decodedLines.pop();
    }
    return lines;
  }
}

/** The blocks read last, most recent first, and their lines (shared by every pane: reads come one at a time). */
const decodedBlocks: SealedBlock[] = [];
const decodedLines: ArchivedLine[][] = [];
