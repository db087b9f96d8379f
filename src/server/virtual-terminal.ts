// The terminal a server-hosted view draws on: a pair of streams shaped like a TTY (blessed
// and the app read `columns`, `rows`, `isTTY`, listen for 'resize', and call setRawMode),
// whose output goes to every attached client and whose input comes from them. Nobody
// attached: output is dropped, and an attach gets a full redraw. A client that cannot keep
// up (its socket holds more than HIGH_WATER unsent bytes) gets nothing more until it drains,
// then a full redraw: the view's current state, never a queue of every frame it missed.
// It never parses what passes through.

import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { Emitter, type Event } from '../lifecycle/index.js';

/** Unsent bytes to one client past which its output is dropped until it drains. */
export const HIGH_WATER = 1024 * 1024;

export interface ViewSink {
  /** Sends a chunk; false when the client's socket is congested. */
  write(data: Buffer): boolean;
  /** Calls back once, when a congested client has drained. */
  onDrain(cb: () => void): void;
}

/**
 * The input side: as much of a TTY read stream as the app uses. Keys are handed over
 * synchronously, so whatever a key makes the app do (C-b d) happens while the server still
 * knows which client typed it.
 */
class TtyInput extends EventEmitter {
  readonly isTTY = true;
  setRawMode(): this {
    return this;
  }
  setEncoding(): this {
    return this;
  }
  resume(): this {
    return this;
  }
  pause(): this {
    return this;
  }
}
type TtyOutput = Writable & { isTTY: boolean; columns: number; rows: number };

export class VirtualTerminal {
  readonly input: TtyInput;
  readonly output: TtyOutput;
  private readonly sinks = new Map<ViewSink, { congested: boolean }>();
  private readonly redrawEmitter = new Emitter<void>();
  /** Everything is to be drawn again (an attach, a drained client). */
  readonly onRedraw: Event<void> = this.redrawEmitter.event;

  constructor(cols: number, rows: number) {
    this.input = new TtyInput();
    const output = new Writable({
      write: (chunk: Buffer, _enc, done) => {
        this.send(chunk);
        done();
      },
    }) as TtyOutput;
    output.isTTY = true;
    output.columns = cols;
    output.rows = rows;
    this.output = output;
  }

  get attached(): number {
    return this.sinks.size;
  }

  /** A client is drawn on from now; everyone gets a full frame (the size may have changed). */
  attach(sink: ViewSink): void {
    this.sinks.set(sink, { congested: false });
    this.redrawEmitter.fire();
  }

  /** False when the sink was not attached. */
  detach(sink: ViewSink): boolean {
    return this.sinks.delete(sink);
  }

  resize(cols: number, rows: number): void {
    cols = Math.max(2, Math.floor(cols));
    rows = Math.max(2, Math.floor(rows));
    if (cols === this.output.columns && rows === this.output.rows) return;
    this.output.columns = cols;
    this.output.rows = rows;
    this.output.emit('resize');
  }

  /** Keys and pastes from an attached client, handed to the view at once. */
  type(data: Buffer): void {
    this.input.emit('data', data.toString('utf8'));
  }

  private send(chunk: Buffer): void {
    for (const [sink, state] of this.sinks) {
      if (state.congested) continue;
      if (sink.write(chunk)) continue;
      state.congested = true;
      sink.onDrain(() => {
        if (this.sinks.get(sink) !== state) return;
        state.congested = false;
        this.redrawEmitter.fire();
      });
    }
  }
}
