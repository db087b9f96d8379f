// Waiting in tests without a terminal: poll a condition until it holds or a deadline passes
// (the deadline's message names what was awaited). Light on purpose: a test that only waits
// must not load node-pty (term.ts, the PTY terminal, is for tests that read a screen), so
// unit suites may import this. Processes (alive, groups, ending them) are src/proc's.
// It must never sleep for a fixed time in place of a condition.

/** Poll until `cond` is true; throws with `what` after the deadline. */
export async function until(cond: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
