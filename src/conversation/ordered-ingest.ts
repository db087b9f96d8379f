// Keeps a log's events in the log's order when one of them needs asynchronous work before it
// can be recorded (a message typed straight into the CLI gets its checkpoint first): the
// events after it wait their turn, then go through in order. It never drops or reorders an
// event, and never waits on anything but the work it was given.

export class OrderedIngest<E> {
  /** Events waiting behind the work under way (undefined: none under way). */
  private held: E[] | undefined;
  private holding: Promise<void> | undefined;

  constructor(private readonly handle: (e: E) => void) {}

  /** The next event from the log: handled now, or after the work under way. */
  take(e: E): void {
    if (this.held) this.held.push(e);
    else this.handle(e);
  }

  /** Runs `work` (which records the event that needed it) before any later event is handled. */
  hold(work: () => Promise<void>): void {
    this.held = [];
    this.holding = (async () => {
      try {
        await work();
      } finally {
        const rest = this.held ?? [];
        this.held = undefined;
        this.holding = undefined;
        for (const next of rest) this.take(next);
      }
    })();
  }

  /** Resolves once no event waits behind work. */
  async settled(): Promise<void> {
    while (this.holding) await this.holding;
  }
}
