// Input held while a picker's choice is carried out, and the one-at-a-time rule for commands
// that open a picker (App.run). Once a picker is answered, what the user types is meant for
// what the choice makes (a new tab: its agent may take seconds to start, opencode asking its
// CLI for a session first; the compose bar of an armed switch), not for the tab still shown:
// input is kept from the picker's closing to the command's end (or the next overlay it opens,
// a confirmation) and then handled as if typed at that moment. It must never keep input longer
// than HELD_INPUT_MS (a start that hangs does not take the keyboard with it) nor more than
// HELD_INPUT_MAX (a runaway paste is dropped, said once).

/** How long, and how much, input is kept while a picker's choice is carried out. */
const HELD_INPUT_MS = 60_000;
const HELD_INPUT_MAX = 64 * 1024;

export interface HeldInputHost {
  /** Handles input as if typed now (the app's router). */
  feed(data: string): void;
  /** Stops the router handling the rest of the read it is in (what follows the answering key). */
  stopRouter(): void;
  /** Tells the user (the status line). */
  say(text: string): void;
}

export class HeldInput {
  /** Input kept while a picker's choice is being carried out (see runPicker), fed once it is. */
  private held: { keys: string; dropped: boolean; timer: NodeJS.Timeout } | undefined;
  /** A picker command is under way (its picker not yet answered, or its choice being carried out). */
  private pickerCommand = false;
  /** A picker command under way whose picker is not open yet (any overlay opening ends it). */
  private pickerComing: symbol | undefined;

  constructor(private readonly host: HeldInputHost) {}

  /** Input arriving now is kept if input is held; false when it is not (the caller handles it). */
  keepIfHeld(data: string): boolean {
    if (!this.held) return false;
    this.keep(data);
    return true;
  }

  /** Kept while a picker's choice is carried out; a runaway paste beyond the cap is dropped, said once. */
  private keep(data: string): void {
    const held = this.held!;
    if (held.keys.length + data.length <= HELD_INPUT_MAX) held.keys += data;
    else if (!held.dropped) {
      held.dropped = true;
      this.host.say('Input dropped while the choice was being carried out: too much at once.');
    }
  }

  private hold(): void {
    if (this.held) return;
    this.held = { keys: '', dropped: false, timer: setTimeout(() => this.release(), HELD_INPUT_MS) };
    // What follows the answering key in the same read is held too.
    this.host.stopRouter();
  }

  /** The held keys, no longer held (to be fed where the caller says). */
  private take(): string {
    const held = this.held;
    if (!held) return '';
    clearTimeout(held.timer);
    this.held = undefined;
    return held.keys;
  }

  private release(): void {
    const held = this.held;
    if (!held) return;
    clearTimeout(held.timer);
    this.held = undefined;
    if (held.keys) this.host.feed(held.keys);
  }

  /**
   * A command that opens a picker, one at a time: pressed again before the first picker is
   * drawn (its choices still being gathered), it is not a second picker stacked on the
   * first, which would stay behind once the first was answered and take every key.
   */
  async runPicker(run: () => void | Promise<void>): Promise<void> {
    if (this.pickerComing) return;
    const token = Symbol('picker');
    this.pickerComing = token;
    this.pickerCommand = true;
    try {
      await run();
    } finally {
      if (this.pickerComing === token) this.pickerComing = undefined;
      this.pickerCommand = false;
      this.release();
    }
  }

  /** An overlay opened: a picker command's picker is open; what was held goes to it (given back). */
  overlayOpened(): string {
    this.pickerComing = undefined;
    // A confirmation the command asks next gets what was typed after the picker.
    return this.held ? this.take() : '';
  }

  /** The last overlay closed: a picker command's choice is being carried out, and input is held. */
  overlaysClosed(): void {
    if (this.pickerCommand) this.hold();
  }
}
