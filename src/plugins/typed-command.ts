// Typing one slash command into an agent CLI's own TUI prompt and waiting for the CLI's answer,
// for the drivers whose model change in a running session is a command (changeModelInTab:
// Gemini CLI's `/model set`, Qwen Code's `/model`). The text is written, then its Enter a
// moment later (written together, the TUI takes them as one paste and the Enter as a newline
// in it); when the command is still in the input box after a while (a completion popup took
// the Enter), Enter is pressed again. The answer is whatever the caller reads from the CLI's
// own files (what the log gained since the command: appendedSince); without one in time the
// input is left with Esc and the caller falls back to relaunching the CLI.

import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';

/** Only model names made of these are typed: nothing else can reach the prompt. */
export const SAFE_MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._:[\]-]{0,99}$/;

/** Between the typed command and its Enter, so the TUI takes the text as typed, not one paste with a newline. */
const SETTLE_MS = 300;
/** How long a command may stay in the input box before Enter is pressed again. */
const ENTER_AGAIN_MS = 1_500;
/** At most this many more Enters: a TUI that keeps the text is not taking the command. */
const MORE_ENTERS = 2;
const POLL_MS = 100;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The file's size now (0 when it is not there). */
export function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/**
 * The lines the file gained past byte `from` ([] when it did not or cannot be read). Only what
 * was appended is read: a session log may be megabytes, and this is asked every poll.
 */
export function appendedSince(path: string, from: number): string[] {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const size = fstatSync(fd).size;
    if (size <= from) return [];
    const buf = Buffer.alloc(size - from);
    readSync(fd, buf, 0, buf.length, from);
    return buf.toString('utf8').split('\n');
  } catch {
    return [];
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The JSON records among `lines` (a line that is not a whole JSON object is skipped: the last may be half written). */
export function jsonRecords(lines: string[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const line of lines) {
    if (!line.trim()) continue;
    try {
      const v: unknown = JSON.parse(line);
      if (v && typeof v === 'object' && !Array.isArray(v)) out.push(v as Record<string, unknown>);
    } catch {
      // not whole yet, or not a record
    }
  }
  return out;
}

export interface TypedCommand {
  /** The command as typed, without its Enter. */
  text: string;
  write(data: string): void;
  /** The tab's visible lines: where the input box shows whether the command is still there. */
  screen(): string[];
  /** Whether the CLI has answered the command (polled). */
  answered(): boolean;
  timeoutMs: number;
}

/**
 * Whether the input box (the last line that starts with the `>` prompt; the ones above are the
 * history's echo of earlier input) still holds `text`.
 */
export function stillInInput(lines: string[], text: string): boolean {
  for (let i = lines.length - 1; i >= 0; i--) {
    if (/^\s*(│\s*)?>\s/.test(lines[i]!)) return lines[i]!.includes(text.trim());
  }
  return false;
}

/** Types the command and waits for answered(); false when there was none in time (the input is left with Esc). */
export async function typeCommand(c: TypedCommand): Promise<boolean> {
  c.write(c.text);
  await sleep(SETTLE_MS);
  c.write('\r');
  const start = Date.now();
  let lastEnter = start;
  let enters = 0;
  while (Date.now() - start < c.timeoutMs) {
    await sleep(POLL_MS);
    if (c.answered()) return true;
    if (enters < MORE_ENTERS && Date.now() - lastEnter >= ENTER_AGAIN_MS && stillInInput(c.screen(), c.text)) {
      c.write('\r');
      lastEnter = Date.now();
      enters++;
    }
  }
  // Whatever is left in the input is closed; the relaunch stops the CLI anyway.
  c.write('\x1b');
  return false;
}
