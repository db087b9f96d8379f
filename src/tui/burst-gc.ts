// The garbage a burst of output leaves, collected once the panes are quiet again. Showing
// 10k lines builds and drops far more than it keeps (parse chunks, line objects, the strings
// of compaction), and V8 collects only when it next allocates or, in Node, which gives it
// no idle time, when its memory reducer fires many seconds later, if at all: a server that
// had shown 8 x 10k lines held ~15 MB more than it used for as long as it stayed quiet
// (105 MB resident, 88-91 MB after a full collection). The server runs with --expose-gc
// (client/connect.ts) for this; elsewhere (tests, `baton chat`) gc is absent and this is a
// no-op. One full collection per burst, only after every pane has been quiet a while, never
// during one: its pause is spent when nothing is being shown.

/** A burst smaller than this (a prompt, a screenful of a TUI) leaves too little to collect for. */
const MIN_LINES = 2000;
/** Quiet time after the last burst settled (its history compacted) before collecting. */
const QUIET_MS = 250;

const collect = (globalThis as { gc?: () => void }).gc;
let timer: NodeJS.Timeout | undefined;

/** A pane's history has taken `lines` new lines since it last settled, and is compacted now. */
export function burstSettled(lines: number): void {
  if (!collect || lines < MIN_LINES) return;
  if (timer) timer.refresh();
  else
    timer = setTimeout(() => {
      timer = undefined;
      collect();
    }, QUIET_MS).unref();
}

/** Output is arriving again somewhere: the collection waits for the next quiet moment. */
export function burstActive(): void {
  timer?.refresh();
}
