// baton's own deadline and cancel around a driver's headless turn (src/conversation/turn-guard.ts),
// with drivers that cooperate, report their own timeout, ignore the abort, or never settle.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BatonError, EXIT } from '../../src/errors.js';
import { guardTurn, TurnAbandonedError } from '../../src/conversation/turn-guard.js';

const quick = { title: 'Stuck', slackMs: 20, graceMs: 60 };
const never = () => new Promise<never>(() => {});
/** A driver that stops when its signal is aborted, with `how`. */
const stopsWhenAsked =
  <T>(how: (signal: AbortSignal) => T) =>
  (signal: AbortSignal) =>
    new Promise<T>((resolve) => signal.addEventListener('abort', () => resolve(how(signal)), { once: true }));

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

const t = suite('turn-guard');

t('a turn that settles in time passes through, value or error, and its signal is never aborted', async () => {
  let seen: AbortSignal | undefined;
  const answers = async (signal: AbortSignal) => {
    seen = signal;
    return 'answer';
  };
  const value = await guardTurn(answers, { ...quick, timeoutMs: 1000 });
  assert.is(value, 'answer');
  assert.is(seen!.aborted, false);
  const err = await rejection(guardTurn(async () => Promise.reject(new BatonError('crashed', EXIT.agentFailed)), { ...quick, timeoutMs: 1000 }));
  assert.is((err as Error).message, 'crashed');
});

t('a driver that never settles: abandoned at the deadline plus the grace period, exit 4', async () => {
  const err = await rejection(guardTurn(never, { ...quick, timeoutMs: 30 }));
  assert.instance(err, TurnAbandonedError);
  assert.is((err as TurnAbandonedError).why, 'timeout');
  assert.is((err as TurnAbandonedError).exitCode, EXIT.agentFailed);
  assert.match((err as Error).message, /Stuck did not finish the turn within 0 s, nor stop when asked; baton stopped waiting for it/);
});

t('past the deadline the driver is aborted; its own error in the grace period is passed on', async () => {
  const own = new BatonError('Stuck did not finish the turn within 0.1 s; its processes were ended', EXIT.agentFailed, 'its stderr');
  const err = await rejection(
    guardTurn((signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(own), { once: true })), { ...quick, timeoutMs: 100 }),
  );
  assert.is(err, own);
});

t('past the deadline, a driver that stops when asked and returns is still a timeout, not an answer', async () => {
  let reason: unknown;
  const late = (s: AbortSignal) => {
    reason = s.reason;
    return 'late';
  };
  const err = await rejection(guardTurn(stopsWhenAsked(late), { ...quick, timeoutMs: 30 }));
  assert.is(reason, 'timeout');
  assert.not.instance(err, TurnAbandonedError);
  assert.is((err as BatonError).exitCode, EXIT.agentFailed);
  assert.match((err as Error).message, /did not finish the turn within 0 s; it stopped when asked/);
});

t('a cancel reaches the driver with its reason; a driver that stops is waited for', async () => {
  const cancel = new AbortController();
  const p = guardTurn(
    stopsWhenAsked((s) => `stopped: ${String(s.reason)}`),
    { ...quick, timeoutMs: 10_000, signal: cancel.signal },
  );
  cancel.abort('SIGINT');
  assert.is(await p, 'stopped: SIGINT');
});

t('a cancel the driver ignores: abandoned after the grace period, exit 130; also when cancelled before the start', async () => {
  const cancel = new AbortController();
  const p = guardTurn(never, { ...quick, timeoutMs: 10_000, signal: cancel.signal });
  cancel.abort('SIGTERM');
  const err = await rejection(p);
  assert.instance(err, TurnAbandonedError);
  assert.is((err as TurnAbandonedError).exitCode, EXIT.cancelled);
  assert.match((err as Error).message, /the turn was cancelled \(SIGTERM\); Stuck did not stop within 0\.1 s, and baton stopped waiting for it/);

  const early = new AbortController();
  early.abort('SIGHUP');
  let aborted = false;
  const hangs = (s: AbortSignal) => {
    aborted = s.aborted;
    return never();
  };
  const err2 = await rejection(guardTurn(hangs, { ...quick, timeoutMs: 10_000, signal: early.signal }));
  assert.ok(aborted, 'the driver starts with its signal already aborted');
  assert.is((err2 as TurnAbandonedError).why, 'cancelled');
});

t('a driver that throws instead of returning a promise is a failed turn, not a crash', async () => {
  const err = await rejection(
    guardTurn(
      () => {
        throw new Error('synchronous bug');
      },
      { ...quick, timeoutMs: 1000 },
    ),
  );
  assert.is((err as Error).message, 'synchronous bug');
});

t.run();
