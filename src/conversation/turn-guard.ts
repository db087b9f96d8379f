// Keeps a headless turn's time limits for the driver, whatever the driver does. A driver is
// asked to honour `timeoutMs` and its abort signal, and the built-in ones do; one that does
// not (a promise that never settles, a stop that never comes) must still not hold `baton
// chat`, its conversation's lock and the user's terminal. So baton keeps its own deadline
// and its own grip on a cancel: past the deadline (plus a moment for the driver's own
// timeout to report first) or once cancelled, the driver is aborted and given a grace
// period to wind down; after that baton stops waiting and the turn is `abandoned`. It never
// ends processes itself: what a driver started through the kit's process groups is ended
// when baton exits (process-group.ts), and nothing else here is the guard's to touch.

import { BatonError, EXIT } from '../errors.js';

/** After the turn's timeout, how long the driver's own timeout has to report before baton aborts it. */
export const TIMEOUT_SLACK_MS = 1000;
/** After an abort (a cancel, or baton's deadline), how long the driver has to wind down. */
export const STOP_GRACE_MS = 3000;

export interface GuardOptions {
  timeoutMs: number;
  /** The caller's cancel (Ctrl-C, SIGTERM, a hangup). */
  signal?: AbortSignal;
  /** Names the driver in messages. */
  title: string;
  slackMs?: number;
  graceMs?: number;
}

/** Baton stopped waiting for the driver: it neither finished nor stopped within the grace period. */
export class TurnAbandonedError extends BatonError {
  constructor(
    readonly why: 'timeout' | 'cancelled',
    message: string,
    hint?: string,
  ) {
    super(message, why === 'timeout' ? EXIT.agentFailed : EXIT.cancelled, hint);
    this.name = 'TurnAbandonedError';
  }
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/**
 * Runs `start` with a signal of its own (aborted on the caller's cancel and at baton's
 * deadline) and settles as it does, unless:
 * - baton's deadline passed first: a driver error that follows within the grace period is
 *   passed on (its own words for its timeout), anything else is a timeout failure (exit 4);
 * - the driver did not settle within the grace period after the abort: TurnAbandonedError
 *   (`timeout`, exit 4; or `cancelled`, exit 130).
 */
export function guardTurn<T>(start: (signal: AbortSignal) => Promise<T>, opts: GuardOptions): Promise<T> {
  const slack = opts.slackMs ?? TIMEOUT_SLACK_MS;
  const grace = opts.graceMs ?? STOP_GRACE_MS;
  const inner = new AbortController();
  const timers: NodeJS.Timeout[] = [];
  let timedOut = false;
  const within = `within ${seconds(opts.timeoutMs)}`;

  return new Promise<T>((resolve, reject) => {
    let done = false;
    const settle = (f: () => void) => {
      if (done) return;
      done = true;
      for (const t of timers) clearTimeout(t);
      opts.signal?.removeEventListener('abort', onCancel);
      f();
    };
    const abandonAfterGrace = (err: () => TurnAbandonedError) => timers.push(setTimeout(() => settle(() => reject(err())), grace));

    const onCancel = () => {
      if (inner.signal.aborted) return;
      inner.abort(opts.signal!.reason);
      abandonAfterGrace(
        () =>
          new TurnAbandonedError(
            'cancelled',
            `the turn was cancelled (${String(opts.signal!.reason)}); ${opts.title} did not stop within ${seconds(grace)}, and baton stopped waiting for it`,
          ),
      );
    };
    timers.push(
      setTimeout(() => {
        timedOut = true;
        if (inner.signal.aborted) return; // already cancelled: that grace period runs
        inner.abort('timeout');
        abandonAfterGrace(
          () =>
            new TurnAbandonedError(
              'timeout',
              `${opts.title} did not finish the turn ${within}, nor stop when asked; baton stopped waiting for it`,
              'try again, or allow more time with --timeout SECONDS',
            ),
        );
      }, opts.timeoutMs + slack),
    );
    if (opts.signal?.aborted) onCancel();
    else opts.signal?.addEventListener('abort', onCancel, { once: true });

    let running: Promise<T>;
    try {
      running = Promise.resolve(start(inner.signal));
    } catch (err) {
      running = Promise.reject(err);
    }
    running.then(
      (value) =>
        settle(() => {
          if (timedOut && !opts.signal?.aborted)
            reject(
              new BatonError(
                `${opts.title} did not finish the turn ${within}; it stopped when asked`,
                EXIT.agentFailed,
                'try again, or allow more time with --timeout SECONDS',
              ),
            );
          else resolve(value);
        }),
      (err: unknown) => settle(() => reject(err)),
    );
  });
}
