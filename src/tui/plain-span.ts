// A flood's lines that were never parsed (flood-lines.ts), kept as they came: the chunk of
// output they are in and where each starts, shared by all of them. Putting a line in the
// history is then one reference in its ring, no copy: most of a flood's lines fall off the
// history's start before anyone reads them (a million lines of `seq` keep the last 10k), and
// copying each into the staging ring (xterm-staging.ts) was most of what keeping them cost.
// A line read, or settled once output goes quiet, becomes the string it would have been
// staged as (its text, trailing blanks dropped) in memory of its own, so the chunk is let go
// once none of its lines still refers to it.

/** Below this length V8 copies a substring; from it on, a slice keeps its whole parent alive. */
const SLICE_SHARES = 13;

let scratch = Buffer.allocUnsafe(256);

export class PlainSpan {
  /** Lines before this one (of the span) were settled by History.compact. */
  settled = 0;

  /**
   * Line i of the span (number `first + i`) is data[starts[i], starts[i + 1] - 2): printable
   * ASCII ended by CR LF. `starts` holds one more entry than there are lines.
   */
  constructor(
    private readonly data: string,
    private readonly starts: Int32Array,
    readonly first: number,
  ) {}

  get lines(): number {
    return this.starts.length - 1;
  }

  /** Line `n`'s text, trailing blanks dropped, in a string of its own (not a slice of the chunk). */
  text(n: number): string {
    const i = n - this.first;
    const start = this.starts[i]!;
    let end = this.starts[i + 1]! - 2;
    while (end > start && this.data.charCodeAt(end - 1) === 32) end--;
    const len = end - start;
    if (len < SLICE_SHARES) return this.data.slice(start, end);
    if (scratch.length < len) scratch = Buffer.allocUnsafe(2 * len);
    scratch.write(this.data.slice(start, end), 0, len, 'latin1');
    return scratch.toString('latin1', 0, len);
  }
}
