// Frame pacing: coalesces change notifications into at most `fps` frames per second, but
// draws at once (next turn of the event loop) when asked to be urgent — the echo of a
// keystroke must not wait for a frame slot behind a flooding neighbour. Owns only timers.

export class FrameScheduler {
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private last = -Infinity;
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
      this.immediate = setImmediate(() => this.run());
      return;
    }
    if (this.timer) return;
    const wait = Math.max(0, this.last + this.interval - performance.now());
    if (wait === 0) this.immediate = setImmediate(() => this.run());
    else this.timer = setTimeout(() => this.run(), wait);
  }

  private run(): void {
    this.timer = undefined;
    this.immediate = undefined;
    this.last = performance.now();
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
