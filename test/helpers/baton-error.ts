// The BatonError a promise must reject with, for tests of expected failures: it fails the
// test when the promise resolves or rejects with anything else, and hands the error back
// for more checks (its hint, say).
// It must never swallow an error of another kind.
import * as assert from 'uvu/assert';
import { BatonError } from '../../src/errors.js';

/** The BatonError p rejects with. */
export async function rejects(p: Promise<unknown>): Promise<BatonError> {
  try {
    await p;
  } catch (err) {
    assert.instance(err, BatonError, String(err));
    return err as BatonError;
  }
  throw new Error('expected a BatonError');
}

/** The BatonError p rejects with, its message matching `message` and its exit code `exitCode`. */
export async function rejectsWith(p: Promise<unknown>, exitCode: number, message: RegExp): Promise<BatonError> {
  const err = await rejects(p);
  assert.match(err.message, message);
  assert.is(err.exitCode, exitCode, `exit code for: ${err.message}`);
  return err;
}
