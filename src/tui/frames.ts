// Frame pacing: coalesces change notifications into at most `fps` frames per second, but
// draws at once (next turn of the event loop) when asked to be urgent — the echo of a
// keystroke must not wait for a frame slot behind a flooding neighbour. A frame that came
// alone, after a quiet interval, lets one more change be drawn at once: sparse output (a
// spinner's tick, then an agent's card a few ms later) is not held for a slot, while steady
// output (a flood) is still drawn from the pacing timer at `fps`. Owns only timers.

export class FrameScheduler {
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private last = -Infinity;
  /** The last frame came alone after a quiet interval (not from the timer, not urgent, not itself the one more). */
  private lone = false;
  private readonly interval: number;
  frames = 0;

  constructor(
    private readonly draw: () => void,
    fps = 60,
  ) {
    this.interval = 1000 / fps;
  }

  request(urgent = false): void {
    if (this.immediate) return;
    if (urgent) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      this.immediate = setImmediate(() => this.run(false));
      return;
    }
    if (this.timer) return;
    const wait = Math.max(0, this.last + this.interval - performance.now());
    if (wait === 0 || this.lone) this.immediate = setImmediate(() => this.run(wait === 0));
    else this.timer = setTimeout(() => this.run(false), wait);
  }

  private run(lone: boolean): void {
    this.timer = undefined;
    this.immediate = undefined;
    this.last = performance.now();
    this.lone = lone;
    this.frames++;
    this.draw();
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
  }
}
