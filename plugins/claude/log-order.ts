// Claude Code's session log in the order things happened, which is not always the order its
// records were written: 2.1.197 can write a new session's first reply (and its turn_duration)
// before the prompt that caused it, while it is still creating the log file. Every record
// names the one it follows (parentUuid, a chain the CLI takes care to keep whole), so a
// record whose parent has not been read yet waits for it and comes out right after it.
// Pure: no I/O, no clock. It must never drop or duplicate a record: one whose parent never
// shows goes out, as written, once a later prompt shows the CLI moved on, or at end().

type Rec = Record<string, unknown>;

const isObj = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/** A message the person sent (not a tool result, not the CLI's own meta text). */
function isPrompt(r: Rec): boolean {
  if (r.type !== 'user' || r.isMeta === true || !isObj(r.message)) return false;
  const c = r.message.content;
  return typeof c === 'string' ? c.length > 0 : Array.isArray(c) && c.some((b) => isObj(b) && b.type === 'text');
}

export class ChainOrder {
  /** uuids of the records already let through. */
  private readonly read = new Set<string>();
  /** Records waiting for their parent, in the order written. */
  private held: Rec[] = [];

  constructor(private readonly timeOf: (record: unknown) => number | undefined) {}

  /** The records to read now, in the order they happened: none while `record` waits for its parent. */
  take(record: unknown): unknown[] {
    if (!isObj(record)) return [record];
    const out: unknown[] = [];
    // A prompt sent after everything that waits: what they wait for is not coming.
    if (this.held.length && isPrompt(record) && this.after(record)) out.push(...this.end());
    if (this.waits(record)) {
      this.held.push(record);
      return out;
    }
    this.pass(record, out);
    return out;
  }

  /** The log ended: whatever still waits, as written. */
  end(): unknown[] {
    const out: unknown[] = [];
    for (const r of this.held.splice(0)) this.let(r, out);
    return out;
  }

  private waits(r: Rec): boolean {
    const parent = str(r.parentUuid);
    return parent !== undefined && parent !== str(r.uuid) && !this.read.has(parent);
  }

  private after(r: Rec): boolean {
    const t = this.timeOf(r);
    return t !== undefined && this.held.every((h) => (this.timeOf(h) ?? Infinity) < t);
  }

  /** Lets `r` through, then whatever waited for it (and for those), oldest first. */
  private pass(r: Rec, out: unknown[]): void {
    this.let(r, out);
    const ready = () => this.held.findIndex((h) => !this.waits(h));
    for (let i = ready(); i >= 0; i = ready()) this.let(this.held.splice(i, 1)[0]!, out);
  }

  private let(r: Rec, out: unknown[]): void {
    out.push(r);
    const id = str(r.uuid);
    if (id) this.read.add(id);
  }
}
