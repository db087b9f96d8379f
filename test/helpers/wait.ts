// Waiting in tests without a terminal: poll a condition until it holds or a deadline passes
// (the deadline's message names what was awaited). Light on purpose: a test that only waits
// must not load node-pty (term.ts, the PTY terminal, is for tests that read a screen), so
// unit suites may import this. Processes (alive, groups, ending them) are src/proc's.
// It must never sleep for a fixed time in place of a condition.

/**
 * Poll until `cond` is true, every `pollMs`; throws with `what` after the deadline. Tests of
 * in-process state machines poll faster (5 ms): a state they wait for may last only moments.
 */
export async function until(cond: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000, pollMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/**
 * `p`'s value, or `fallback` once `ms` have passed, whichever comes first. The timer is cleared
 * when `p` settles: one left running would keep the suite's process alive after its last test.
 */
export async function within<T, F>(p: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<F>((r) => (timer = setTimeout(() => r(fallback), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
